// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/install_layout.hpp"

#include <system_error>

namespace substruct {

namespace fs = std::filesystem;

fs::path program_dir() {
  std::error_code ec;
  const fs::path program = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : program.parent_path();
}

fs::path data_dir() {
  const fs::path dir = program_dir();
  return dir.empty() ? fs::path() : dir.parent_path() / "share" / "substruct";
}

std::optional<fs::path> source_dir() {
  const fs::path scenes = data_dir() / "scenes";
  std::error_code ec;
  if (!fs::is_symlink(scenes, ec)) return std::nullopt;
  const fs::path target = fs::canonical(scenes, ec);  // <source>/share/scenes
  if (ec) return std::nullopt;
  return target.parent_path().parent_path();
}

}  // namespace substruct
