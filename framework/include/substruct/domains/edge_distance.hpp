// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Distances through a tet mesh.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// Distance from each vertex to its nearest vertex of `sources` along the tets' edges
/// (multi-source Dijkstra); infinity where no path of edges leads to one.
std::vector<double> edge_distances_to(const TetMesh& mesh, const std::vector<Index>& sources);

}  // namespace substruct
