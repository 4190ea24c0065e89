// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <array>
#include <map>
#include <vector>

#include <Eigen/Geometry>
#include <Eigen/LU>

#include "substruct/geometry/render_surface.hpp"

namespace substruct {

Triangles boundary_triangles(const TetMesh& mesh) {
  // Faces opposite each corner; a face seen once is on the boundary.
  constexpr int faces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  struct Face {
    std::array<Index, 3> sorted;
    std::array<Index, 3> oriented;
  };
  std::vector<Face> all;
  all.reserve(static_cast<std::size_t>(4 * mesh.num_elements()));
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    // faces[] is outward for a positively oriented tet (det [x1−x0, x2−x0, x3−x0] > 0).
    const Vec3 x0 = mesh.vertices.row(mesh.tets(e, 0)).transpose();
    Mat3 D;
    for (int a = 0; a < 3; ++a) D.col(a) = mesh.vertices.row(mesh.tets(e, a + 1)).transpose() - x0;
    const bool flip = D.determinant() < 0;
    for (const auto& f : faces) {
      Face face;
      face.oriented = {mesh.tets(e, f[0]), mesh.tets(e, f[1]), mesh.tets(e, f[2])};
      if (flip) std::swap(face.oriented[1], face.oriented[2]);
      face.sorted = face.oriented;
      std::sort(face.sorted.begin(), face.sorted.end());
      all.push_back(face);
    }
  }
  std::sort(all.begin(), all.end(),
            [](const Face& a, const Face& b) { return a.sorted < b.sorted; });
  std::vector<std::array<Index, 3>> boundary;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i + 1;
    while (j < all.size() && all[j].sorted == all[i].sorted) ++j;
    if (j - i == 1) boundary.push_back(all[i].oriented);
    i = j;
  }
  Triangles triangles(static_cast<Eigen::Index>(boundary.size()), 3);
  for (std::size_t t = 0; t < boundary.size(); ++t)
    for (int a = 0; a < 3; ++a) triangles(static_cast<Eigen::Index>(t), a) = boundary[t][a];
  return triangles;
}

}  // namespace substruct
