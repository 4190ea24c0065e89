// SPDX-License-Identifier: GPL-3.0-or-later
#include "surface_area_shares.hpp"

#include <Eigen/Geometry>

#include "substruct/geometry/render_surface.hpp"

namespace substruct::detail {

std::vector<double> surface_area_shares(const TetMesh& mesh) {
  const Triangles triangles = boundary_triangles(mesh);
  const Points& X = mesh.vertices;
  std::vector<double> area(static_cast<std::size_t>(mesh.num_vertices()), 0.0);
  for (Index t = 0; t < triangles.rows(); ++t) {
    const Vec3 a = X.row(triangles(t, 0)), b = X.row(triangles(t, 1)), c = X.row(triangles(t, 2));
    const double third = (b - a).cross(c - a).norm() / 6;
    for (int k = 0; k < 3; ++k) area[static_cast<std::size_t>(triangles(t, k))] += third;
  }
  return area;
}

}  // namespace substruct::detail
