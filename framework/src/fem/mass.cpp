// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/fem/mass.hpp"

#include "detail/block_pattern.hpp"
#include "detail/material_checks.hpp"
#include "substruct/fem/tet_geometry.hpp"

namespace substruct {

SparseMatrix consistent_mass(const TetMesh& mesh) {
  detail::check_materials(mesh, /*density=*/true, /*elasticity=*/false);
  const TetGeometry geometry = TetGeometry::build(mesh);
  const detail::BlockPattern pattern = detail::build_block_pattern(mesh.tets, mesh.num_vertices());
  SparseMatrix M = pattern.make_matrix();
  double* values = M.valuePtr();
  const int* outer = pattern.outer.data();
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const auto se = static_cast<std::size_t>(e);
    const double m = mesh.material_of(e).density * geometry.volume[se] / 20.0;  // ρV/20
    const int* local = pattern.local.data() + 16 * se;
    for (int b = 0; b < 4; ++b) {
      const int column = 3 * mesh.tets(e, b);
      for (int a = 0; a < 4; ++a) {
        const double m_ab = a == b ? 2 * m : m;  // ρV/20 (1 + δ_ab)
        for (int i = 0; i < 3; ++i) values[outer[column + i] + local[4 * b + a] + i] += m_ab;
      }
    }
  }
  return M;
}

Eigen::VectorXd lumped_vertex_mass(const TetMesh& mesh) {
  detail::check_materials(mesh, /*density=*/true, /*elasticity=*/false);
  const TetGeometry geometry = TetGeometry::build(mesh);
  Eigen::VectorXd m = Eigen::VectorXd::Zero(mesh.num_vertices());
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const double quarter =
        mesh.material_of(e).density * geometry.volume[static_cast<std::size_t>(e)] / 4.0;
    for (int a = 0; a < 4; ++a) m[mesh.tets(e, a)] += quarter;  // m_a = Σ_e ρ_e V_e / 4
  }
  return m;
}

MassMoments mass_moments(const TetMesh& mesh, const Vec3& origin) {
  detail::check_materials(mesh, /*density=*/true, /*elasticity=*/false);
  const TetGeometry geometry = TetGeometry::build(mesh);
  MassMoments m;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const double rho_V = mesh.material_of(e).density * geometry.volume[static_cast<std::size_t>(e)];
    Vec3 sum = Vec3::Zero();
    Mat3 squares = Mat3::Zero();
    for (int a = 0; a < 4; ++a) {
      const Vec3 X = mesh.vertices.row(mesh.tets(e, a)).transpose() - origin;
      sum += X;
      squares += X * X.transpose();
    }
    m.mass += rho_V;
    m.first += rho_V / 4 * sum;
    m.second += rho_V / 20 * (squares + sum * sum.transpose());  // Σ_ab ρV/20 (1 + δ_ab) X_a X_bᵀ
  }
  return m;
}

}  // namespace substruct
