// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/sim/cache_folder.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace substruct {

namespace fs = std::filesystem;

namespace {

// Whether `path` lies in `folder` (both made absolute, links resolved).
bool lies_in(const fs::path& path, const fs::path& folder) {
  std::error_code error;
  const fs::path p = fs::weakly_canonical(path, error);
  const fs::path f = fs::weakly_canonical(folder, error);
  if (error || f.empty()) return false;
  const auto [end, _] = std::mismatch(f.begin(), f.end(), p.begin(), p.end());
  return end == f.end();
}

}  // namespace

fs::path user_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const fs::path user = xdg != nullptr && *xdg != '\0'     ? fs::path(xdg)
                        : home != nullptr && *home != '\0' ? fs::path(home) / ".cache"
                                                           : fs::temp_directory_path();
  return user / "substruct" / "models";
}

fs::path default_cache_dir(const fs::path& scene_folder, const fs::path& installed_data) {
  const fs::path beside = scene_folder / ".substruct-cache";
  const bool installed = !installed_data.empty() && lies_in(scene_folder, installed_data);
  if (!installed && (::access(beside.c_str(), W_OK) == 0 ||
                     (!fs::exists(beside) && ::access(scene_folder.c_str(), W_OK) == 0)))
    return beside;
  return user_cache_dir();
}

}  // namespace substruct
