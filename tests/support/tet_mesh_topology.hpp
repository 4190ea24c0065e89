// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Conformity and topology of a generated tet mesh: signed volumes, triangle faces and how many
// tets share each, the boundary surface's Euler characteristic, connectivity of element sets.
#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include <Eigen/LU>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct::testing {

inline double signed_volume(const TetMesh& mesh, Index e) {
  Mat3 dm;
  for (int k = 0; k < 3; ++k)
    dm.col(k) =
        (mesh.vertices.row(mesh.tets(e, k + 1)) - mesh.vertices.row(mesh.tets(e, 0))).transpose();
  return dm.determinant() / 6.0;
}

using Face = std::array<Index, 3>;  // sorted vertex ids

/// Every triangle face of the mesh with the tets that have it.
inline std::map<Face, std::vector<Index>> faces_of(const TetMesh& mesh) {
  std::map<Face, std::vector<Index>> faces;
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int skip = 0; skip < 4; ++skip) {
      Face f{};
      int n = 0;
      for (int k = 0; k < 4; ++k)
        if (k != skip) f[static_cast<std::size_t>(n++)] = mesh.tets(e, k);
      std::sort(f.begin(), f.end());
      faces[f].push_back(e);
    }
  return faces;
}

struct FaceCounts {
  long interior = 0;  // faces of exactly two tets
  long boundary = 0;  // faces of exactly one tet
  long other = 0;     // faces of three or more tets: a non-conforming or overlapping mesh
  int euler_characteristic = 0;              // V − E + F of the boundary surface
  bool boundary_is_closed_manifold = false;  // every boundary edge in exactly two triangles
};

inline FaceCounts count_faces(const TetMesh& mesh) {
  FaceCounts c;
  std::set<Index> vertices;
  std::map<std::pair<Index, Index>, int> edges;
  for (const auto& [f, tets] : faces_of(mesh)) {
    if (tets.size() == 2)
      ++c.interior;
    else if (tets.size() > 2)
      ++c.other;
    if (tets.size() != 1) continue;
    ++c.boundary;
    vertices.insert(f.begin(), f.end());
    ++edges[{f[0], f[1]}];
    ++edges[{f[1], f[2]}];
    ++edges[{f[0], f[2]}];
  }
  c.euler_characteristic = static_cast<int>(vertices.size()) - static_cast<int>(edges.size()) +
                           static_cast<int>(c.boundary);
  c.boundary_is_closed_manifold =
      std::all_of(edges.begin(), edges.end(), [](const auto& edge) { return edge.second == 2; });
  return c;
}

/// Whether the elements form one piece through shared faces.
inline bool is_face_connected(const TetMesh& mesh, const std::vector<Index>& elements) {
  if (elements.empty()) return false;
  std::map<Index, Index> parent;
  for (Index e : elements) parent[e] = e;
  const auto find = [&](Index e) {
    while (parent[e] != e) e = parent[e] = parent[parent[e]];
    return e;
  };
  for (const auto& [f, tets] : faces_of(mesh))
    if (tets.size() == 2 && parent.count(tets[0]) && parent.count(tets[1]))
      parent[find(tets[0])] = find(tets[1]);
  const Index root = find(elements.front());
  return std::all_of(elements.begin(), elements.end(), [&](Index e) { return find(e) == root; });
}

/// How many sets hold each element.
inline std::vector<int> set_membership(const TetMesh& mesh) {
  std::vector<int> count(static_cast<std::size_t>(mesh.num_elements()), 0);
  for (const auto& [name, elements] : mesh.element_sets)
    for (Index e : elements) ++count.at(static_cast<std::size_t>(e));
  return count;
}

}  // namespace substruct::testing
