// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/fem/tet_geometry.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <Eigen/LU>

#include "substruct/core/error.hpp"

namespace substruct {

TetGeometry TetGeometry::build(const TetMesh& mesh) {
  const Index num_vertices = mesh.num_vertices();
  const Index num_elements = mesh.num_elements();
  TetGeometry g;
  g.Dm_inv.resize(static_cast<std::size_t>(num_elements));
  g.volume.resize(static_cast<std::size_t>(num_elements));
  for (Index e = 0; e < num_elements; ++e) {
    const auto t = mesh.tets.row(e);
    for (int a = 0; a < 4; ++a)
      if (t(a) < 0 || t(a) >= num_vertices)
        throw Error(
            fmt::format("element {} refers to vertex {}, but the mesh has {} vertices "
                        "(indices 0…{})",
                        e, t(a), num_vertices, num_vertices - 1));
    const Vec3 X0 = mesh.vertices.row(t(0)).transpose();
    Mat3 Dm;  // Dm = [X₁−X₀, X₂−X₀, X₃−X₀]
    for (int c = 0; c < 3; ++c) Dm.col(c) = mesh.vertices.row(t(c + 1)).transpose() - X0;
    double h2 =
        std::max({Dm.col(0).squaredNorm(), Dm.col(1).squaredNorm(), Dm.col(2).squaredNorm(),
                  (Dm.col(1) - Dm.col(0)).squaredNorm(), (Dm.col(2) - Dm.col(0)).squaredNorm(),
                  (Dm.col(2) - Dm.col(1)).squaredNorm()});
    const double h = std::sqrt(h2);
    const double det = Dm.determinant();
    const double V = std::abs(det) / 6.0;
    // `!(V > …)` also rejects NaN coordinates.
    if (!(V > 1e-12 * h * h * h) || !std::isfinite(V))
      throw Error(
          fmt::format("element {} (vertices {} {} {} {}) is degenerate: rest volume {:.6g} "
                      "for a longest edge of {:.6g}",
                      e, t(0), t(1), t(2), t(3), V, h));
    g.Dm_inv[static_cast<std::size_t>(e)] = Dm.inverse();
    g.volume[static_cast<std::size_t>(e)] = V;
  }
  return g;
}

Eigen::Matrix<double, 4, 3> shape_gradients(const Mat3& Dm_inv) {
  Eigen::Matrix<double, 4, 3> G;
  G.bottomRows<3>() = Dm_inv;  // ∇N_a = row a−1 of Dm⁻¹, a = 1, 2, 3
  G.row(0) = -(Dm_inv.row(0) + Dm_inv.row(1) + Dm_inv.row(2));
  return G;
}

}  // namespace substruct
