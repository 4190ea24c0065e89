// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A folder that exists for as long as this object: made (empty) by the constructor, removed with
// everything in it by the destructor. No test framework needed (the fuzz harnesses use it too).
#include <filesystem>
#include <system_error>
#include <utility>

namespace substruct::testing {

class ScopedDir {
 public:
  explicit ScopedDir(std::filesystem::path path) : path_(std::move(path)) {
    std::filesystem::remove_all(path_);  // left by a crashed run of the same process id
    std::filesystem::create_directories(path_);
  }
  ~ScopedDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScopedDir(const ScopedDir&) = delete;
  ScopedDir& operator=(const ScopedDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  /// The path of `name` inside the folder.
  std::filesystem::path operator/(const std::filesystem::path& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace substruct::testing
