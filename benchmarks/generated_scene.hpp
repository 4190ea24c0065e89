// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A scene made by `substruct generate ARGUMENTS --name NAME` into WORK_DIR/NAME, once: later runs
// reuse WORK_DIR/NAME/NAME.ini (and the models cached beside it).
#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::bench {

inline std::filesystem::path generated_scene(const std::filesystem::path& work_dir,
                                             const std::string& name,
                                             const std::string& arguments) {
  const std::filesystem::path dir = work_dir / name;
  const std::filesystem::path ini = dir / (name + ".ini");
  if (std::filesystem::exists(ini)) return ini;
  std::filesystem::create_directories(dir);
  const std::string command =
      fmt::format("'{}' generate {} --out '{}' --name {} > '{}' 2>&1", SUBSTRUCT_CLI, arguments,
                  dir.string(), name, (dir / "generate.log").string());
  if (std::system(command.c_str()) != 0 || !std::filesystem::exists(ini))
    throw Error(fmt::format("could not generate the scene: {} (see {})", command,
                            (dir / "generate.log").string()));
  return ini;
}

}  // namespace substruct::bench
