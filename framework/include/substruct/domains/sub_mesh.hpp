// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The part of a mesh that one domain owns, with maps between its local and the global ids.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// A domain's own tet mesh. Local vertices are the vertices its elements use, in increasing
/// global id; local elements keep their global order. Materials are the global list (so material
/// indices agree with the whole mesh); element and vertex sets are restricted to the domain and
/// renumbered, sets that become empty are dropped.
struct SubMesh {
  int domain = 0;
  TetMesh mesh;
  std::vector<Index> global_vertex;   // local → global vertex, strictly increasing
  std::vector<Index> global_element;  // local → global element, strictly increasing

  /// The local id of a global vertex, −1 when the domain does not use it (binary search).
  Index local_vertex(Index global) const;
  /// The local id of a global element, −1 when the element is not the domain's.
  Index local_element(Index global) const;
};

/// Extracts the sub-mesh made of `elements` (global ids, strictly increasing) of `mesh`.
/// Cost O(m log m) for m elements, plus the size of the mesh's named sets.
SubMesh extract_sub_mesh(const TetMesh& mesh, const std::vector<Index>& elements, int domain);

}  // namespace substruct
