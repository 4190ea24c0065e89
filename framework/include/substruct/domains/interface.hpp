// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Where domains meet. Element partitions meet at interface vertices shared by two domains
/// (Barbič–Zhao 2011, §3); vertex partitions meet in layers of coupling elements (Wu et al.
/// 2015, §4.1).
#include <vector>

#include "substruct/domains/element_partition.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// The vertices used by elements of both domain a and domain b (a < b).
struct Interface {
  int a = 0;
  int b = 0;
  std::vector<Index> vertices;  // global ids, strictly increasing
  /// Affine dimension of the vertex positions: 0 point, 1 line, 2 plane, 3 solid. Interfaces of
  /// rank < 2 are degenerate: domains touching at a corner or along an edge only.
  int rank = 0;
};

/// The coupling elements between vertex-partition domains a and b (a < b): elements with vertices
/// in both. An element spanning three or more domains appears in every pair it spans.
struct CouplingInterface {
  int a = 0;
  int b = 0;
  std::vector<Index> coupling_elements;  // global ids, strictly increasing
};

/// All interfaces of an element partition, sorted by (a, b); O(M log M) for M elements.
std::vector<Interface> find_interfaces(const TetMesh& mesh, const ElementPartition& partition);

/// Affine dimension of the points X_v, v ∈ vertices: the number of singular values of the
/// centred k×3 matrix [X_v − X̄] above rel_tol · σ_max (0 when all points coincide).
int affine_rank(const Points& positions, const std::vector<Index>& vertices, double rel_tol = 1e-9);

}  // namespace substruct
