// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Mass matrices of linear tetrahedra.
#include "substruct/core/types.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// Consistent mass, 3N×3N: M_ab = ρV/20 (1 + δ_ab) I₃ per element (ρ of the element's material).
/// Its pattern is the 3×3-block vertex-adjacency pattern, identical to ElasticForceModel's
/// stiffness pattern (entries off the diagonal of a block are stored zeros), so M + γK can be
/// formed value by value. Throws Error for a degenerate element or a non-positive density.
SparseMatrix consistent_mass(const TetMesh& mesh);

/// Lumped (row-sum) mass per vertex, size N: m_a = Σ_e ρ_e V_e / 4 over the elements e at a.
Eigen::VectorXd lumped_vertex_mass(const TetMesh& mesh);

}  // namespace substruct
