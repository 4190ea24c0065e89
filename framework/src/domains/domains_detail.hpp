// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers shared by the domain-decomposition sources (not installed).
#include <span>
#include <string>
#include <vector>

#include "substruct/domains/element_partition.hpp"
#include "substruct/domains/interface.hpp"
#include "substruct/domains/sub_mesh.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct::detail {

/// An undirected graph in compressed adjacency form (METIS's xadj/adjncy, 0-based).
struct CsrGraph {
  std::vector<int> xadj{0};
  std::vector<int> adjncy;
  int num_vertices() const { return static_cast<int>(xadj.size()) - 1; }
};

/// Elements adjacent when they share a face.
CsrGraph element_dual_graph(const TetMesh& mesh);

/// Component label of every graph vertex (labels in order of first vertex) and their count.
std::vector<int> component_labels(const CsrGraph& graph, int* num_components);

/// METIS k-way partition into nparts parts: contiguous parts when the graph is connected, fixed
/// seed. `what` names the request in error messages ("auto:8").
std::vector<int> metis_parts(const CsrGraph& graph, int nparts, const std::string& what);

/// "3, 7, 9" or "3, 7, 9, … (25 in all)" when more than max_shown ids.
std::string format_ids(std::span<const int> ids, std::size_t max_shown = 10);

/// The sub-mesh of `elements` (strictly increasing global ids) without the named sets. With a
/// scratch array (size N, all −1; left so) it runs in O(m + n log n) for m elements using n
/// vertices, otherwise in O(m log m).
SubMesh extract_sub_mesh_geometry(const TetMesh& mesh, std::span<const Index> elements, int domain,
                                  std::vector<Index>* scratch);

/// The interfaces between domains given by the vertices each uses (vertices_of[d]: domain d's
/// distinct vertex ids, any order), sorted by (a, b). O(N + Σ|vertices_of[d]| + D).
std::vector<Interface> interfaces_of(const Points& positions,
                                     const std::vector<const std::vector<Index>*>& vertices_of);

/// Throws Error naming the first element whose vertex ids are outside the mesh.
void require_valid_tets(const TetMesh& mesh);

}  // namespace substruct::detail
