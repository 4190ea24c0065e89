#pragma once
// A generated tree (scene/tree_generator.hpp) written as DIR/tree.veg with its fixed trunk base
// in DIR/tree.bou (1-based vertex numbers): what the coupling tests load with domains = sets.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

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

}  // namespace substruct::testing
