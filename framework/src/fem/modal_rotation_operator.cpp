// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/fem/modal_rotation_operator.hpp"

#include <vector>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/fem/tet_geometry.hpp"

namespace substruct {

SparseMatrix nodal_rotation_operator(const TetMesh& mesh) {
  const TetGeometry geometry = TetGeometry::build(mesh);
  const Index n = mesh.num_vertices();
  // Σ_{e∋a} V_e per node (the weights' denominators).
  std::vector<double> node_volume(static_cast<std::size_t>(n), 0.0);
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int a = 0; a < 4; ++a)
      node_volume[static_cast<std::size_t>(mesh.tets(e, a))] +=
          geometry.volume[static_cast<std::size_t>(e)];
  // Block (a, b) of element e: (V_e / Σ V) · ½ ∇N_b^ (∇N_b × u_b = ∇N_b^ u_b); duplicates
  // are summed by setFromTriplets.
  std::vector<Eigen::Triplet<double, int>> triplets;
  triplets.reserve(static_cast<std::size_t>(mesh.num_elements()) * 4 * 4 * 6);
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const auto t = mesh.tets.row(e);
    const Eigen::Matrix<double, 4, 3> G =
        shape_gradients(geometry.Dm_inv[static_cast<std::size_t>(e)]);
    const double V = geometry.volume[static_cast<std::size_t>(e)];
    for (int a = 0; a < 4; ++a) {
      const double weight = 0.5 * V / node_volume[static_cast<std::size_t>(t(a))];
      for (int b = 0; b < 4; ++b) {
        const Vec3 g = weight * G.row(b).transpose();
        const int ra = 3 * t(a), cb = 3 * t(b);
        // ĝ = [0 −g_z g_y; g_z 0 −g_x; −g_y g_x 0]
        triplets.emplace_back(ra + 0, cb + 1, -g.z());
        triplets.emplace_back(ra + 0, cb + 2, g.y());
        triplets.emplace_back(ra + 1, cb + 0, g.z());
        triplets.emplace_back(ra + 1, cb + 2, -g.x());
        triplets.emplace_back(ra + 2, cb + 0, -g.y());
        triplets.emplace_back(ra + 2, cb + 1, g.x());
      }
    }
  }
  SparseMatrix W(3 * n, 3 * n);
  W.setFromTriplets(triplets.begin(), triplets.end());
  return W;
}

Eigen::MatrixXd modal_rotation_matrix(const TetMesh& mesh, const Eigen::MatrixXd& Phi) {
  if (Phi.rows() != 3 * Eigen::Index{mesh.num_vertices()})
    throw Error(
        fmt::format("modal rotation matrix: Φ has {} rows for a mesh of {} vertices "
                    "(expected {})",
                    Phi.rows(), mesh.num_vertices(), 3 * mesh.num_vertices()));
  return nodal_rotation_operator(mesh) * Phi;
}

}  // namespace substruct
