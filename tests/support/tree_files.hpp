// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A generated tree (scene/tree_generator.hpp) written as DIR/tree.veg with its fixed trunk base
// in DIR/tree.bou (1-based vertex numbers), and the settings the coupling tests load it with.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/scene/tree_generator.hpp"

namespace substruct::testing {

inline void write_tree_files(const std::filesystem::path& dir, const TreeParameters& p) {
  std::vector<Index> fixed;
  write_veg(dir / "tree.veg", generate_tree(p, &fixed));
  std::string bou;
  for (Index v : fixed) bou += fmt::format("{}\n", v + 1);
  std::ofstream(dir / "tree.bou") << bou;
}

/// The settings that load those files with one domain per part, small bases (6 modes from 3
/// linear ones) and no model cache, then `extra`.
inline std::vector<Setting> tree_settings(const std::vector<Setting>& extra = {}) {
  std::vector<Setting> s{
      {"scene.mesh", "tree.veg", "test"}, {"scene.fixed", "tree.bou", "test"},
      {"scene.domains", "sets", "test"},  {"reduction.cache", "false", "test"},
      {"reduction.modes", "6", "test"},   {"reduction.linear_modes", "3", "test"}};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

}  // namespace substruct::testing
