// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/contact/mesh_obstacle.hpp"

#include <map>
#include <mutex>
#include <tuple>

#include <fmt/format.h>

#include "detail/mesh_distance_entry.hpp"
#include "substruct/core/error.hpp"
#include "substruct/plugin/library_beside.hpp"

namespace substruct {
namespace {

// The module beside this library (build/lib, or <prefix>/lib), opened once for the process.
detail::MeshDistanceEntry module_entry() {
  static const detail::MeshDistanceEntry entry = [] {
    const std::filesystem::path file =
        library_folder(reinterpret_cast<const void*>(&mesh_distance_grid), "contact") /
        detail::kMeshDistanceModule;
    if (!std::filesystem::exists(file))
      throw Error(fmt::format(
          "[contact] mesh obstacles need {}, which this build does not have: substruct was "
          "built without OpenVDB (Debian: libopenvdb-dev) or without the import (Assimp); "
          "install them and build again",
          file.string()));
    return reinterpret_cast<detail::MeshDistanceEntry>(
        library_symbol(open_library(file, "contact"), file, detail::kMeshDistanceEntry, "contact"));
  }();
  return entry;
}

}  // namespace

std::shared_ptr<const DistanceGrid> mesh_distance_grid(const MeshObstacleRequest& request) {
  using Key = std::tuple<std::string, long long, double, double, double, double, double>;
  static std::mutex mutex;
  static std::map<Key, std::weak_ptr<const DistanceGrid>> made;
  std::error_code error;
  const auto stamp = std::filesystem::last_write_time(request.file, error);
  const Key key{std::filesystem::absolute(request.file).lexically_normal().string(),
                error ? 0LL : static_cast<long long>(stamp.time_since_epoch().count()),
                request.scale,
                request.offset.x(),
                request.offset.y(),
                request.offset.z(),
                request.voxel};
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto grid = made[key].lock()) return grid;
  auto grid = std::make_shared<DistanceGrid>();
  module_entry()(request, *grid);
  made[key] = grid;
  return grid;
}

}  // namespace substruct
