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

}  // namespace substruct
