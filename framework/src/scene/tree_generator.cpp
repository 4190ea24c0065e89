// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/tree_generator.hpp"

#include <fmt/format.h>

#include "detail/plant_layout.hpp"

namespace substruct {

using plants::Placement;
using plants::Point;

TetMesh generate_tree(const TreeParameters& p, std::vector<Index>* fixed_vertices,
                      TreeSummary* summary) {
  const plants::Plant plant = plants::build_plant(p);
  plants::require(6 * plant.cells <= plants::kMaxTets,
                  fmt::format("these parameters make {} tetrahedra; at most {} are supported",
                              6 * plant.cells, plants::kMaxTets));
  std::vector<plants::Node> nodes;
  const plants::PlantCounts counts = plants::add_plant(plant, -1, Placement{}, 0, "", nodes);
  // The trunk's base is fixed.
  TetMesh mesh = plants::assemble(
      nodes, p.cell_size, p.material, "tree",
      [](int node, const Point& w) { return node == 0 && w[1] == 0; }, fixed_vertices);
  if (summary != nullptr) {
    *summary = TreeSummary{};
    summary->domains = static_cast<int>(nodes.size());
    summary->leaves = counts.leaves;
    summary->depth = counts.depth;
    summary->branches_per_level = counts.branches_per_level;
    summary->branch_shapes = static_cast<int>(counts.shapes_used.size());
  }
  return mesh;
}

}  // namespace substruct
