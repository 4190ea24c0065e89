// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/model_cache.hpp"

#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"

namespace substruct {

namespace fs = std::filesystem;

ModelCache::ModelCache(fs::path dir) : dir_(std::move(dir)) {}

fs::path ModelCache::file(std::uint64_t hash) const {
  return dir_ / fmt::format("model-{:016x}.ssrm", hash);
}

std::optional<ReducedModel> ModelCache::load(std::uint64_t hash, const TetMesh* mesh,
                                             std::string* problem) const {
  if (!enabled()) return std::nullopt;
  const fs::path path = file(hash);
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  if (!fs::is_regular_file(path, ec)) {
    const std::string why = "not a regular file";
    log::warn("cache: ignoring {}: {}; recomputing", path.string(), why);
    if (problem != nullptr) *problem = why;
    return std::nullopt;
  }
  try {
    return read_reduced_model(path, hash, mesh);
  } catch (const Error& e) {
    log::warn("cache: ignoring {}: {}; recomputing", path.string(), e.what());
    if (problem != nullptr) *problem = e.what();
    return std::nullopt;
  }
}

fs::path ModelCache::store(std::uint64_t hash, const ReducedModel& model) const {
  if (!enabled()) throw Error("cache: no cache folder is set; nothing can be stored");
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec)
    throw Error(fmt::format("cache: cannot create the folder {}: {}", dir_.string(), ec.message()));
  // Written through a temporary file: concurrent writers and readers see a complete model.
  const fs::path target = file(hash);
  write_reduced_model(target, model, hash);
  return target;
}

}  // namespace substruct
