// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/io/output_target.hpp"

#include <string>
#include <system_error>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/input_file.hpp"

namespace substruct {

namespace fs = std::filesystem;

namespace {

/// "WHAT 'FILE'", or "'FILE'" when `what` is empty.
std::string subject(std::string_view what, const fs::path& file) {
  return what.empty() ? fmt::format("'{}'", file.string())
                      : fmt::format("{} '{}'", what, file.string());
}

}  // namespace

void check_output_target(const fs::path& file, std::string_view what) {
  if (const std::string kind = non_regular_kind(file); !kind.empty())
    throw Error(fmt::format("cannot write {}: it is {} (only a regular file is replaced)",
                            subject(what, file), kind));
  // The nearest folder on the path that exists must be a folder.
  std::error_code ec;
  for (fs::path dir = file.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    const fs::file_status status = fs::status(dir, ec);
    if (!fs::exists(status)) {
      if (dir == dir.parent_path()) break;
      continue;
    }
    if (!fs::is_directory(status))
      throw Error(fmt::format("cannot write {}: Not a directory ('{}' is a file)",
                              subject(what, file), dir.string()));
    break;
  }
}

void create_output_folder(const fs::path& file, std::string_view what) {
  check_output_target(file, what);
  if (!file.has_parent_path()) return;
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec)
    throw Error(fmt::format("cannot write {}: cannot create the folder '{}': {}",
                            subject(what, file), file.parent_path().string(), ec.message()));
}

bool remove_output_file(const fs::path& file) noexcept {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(file, ec))) {
    // A link is removed (not what it points to) only when it points to a regular file.
    if (!fs::is_symlink(fs::symlink_status(file, ec)) || !fs::is_regular_file(fs::status(file, ec)))
      return false;
  }
  return fs::remove(file, ec);
}

}  // namespace substruct
