// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/geometry/render_surface.hpp"

#include <Eigen/Geometry>

namespace substruct {

void vertex_normals(const Points& positions, const Triangles& triangles, Points& normals) {
  normals = Points::Zero(positions.rows(), 3);
  for (Eigen::Index t = 0; t < triangles.rows(); ++t) {
    const Vec3 a = positions.row(triangles(t, 0)).transpose();
    const Vec3 b = positions.row(triangles(t, 1)).transpose();
    const Vec3 c = positions.row(triangles(t, 2)).transpose();
    const Vec3 n = (b - a).cross(c - a);  // length = twice the area: area weighting
    for (int k = 0; k < 3; ++k) normals.row(triangles(t, k)) += n.transpose();
  }
  for (Eigen::Index v = 0; v < normals.rows(); ++v) {
    const double length = normals.row(v).norm();
    if (length > 0) normals.row(v) /= length;
  }
}

}  // namespace substruct
