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

/// The mass, first and second moments of a mesh about `origin`, what a rigid body needs.
struct MassMoments {
  double mass = 0;             // ∫ρ dV
  Vec3 first = Vec3::Zero();   // ∫ρ X dV
  Mat3 second = Mat3::Zero();  // ∫ρ X Xᵀ dV
  /// ∫ρ (X·X I − X Xᵀ) dV, the inertia tensor about `origin`.
  Mat3 inertia() const { return second.trace() * Mat3::Identity() - second; }
};

/// The moments of X = x − origin over the tets, exactly (X is linear on each tet): per element
/// ρV, ρV/4 Σ_a X_a and ρV/20 (Σ_a X_a X_aᵀ + (Σ_a X_a)(Σ_a X_a)ᵀ) — the products with the
/// consistent mass (1ᵀM1, EᵀMX, Σ_ab M_ab X_a X_bᵀ) without assembling it. Throws Error as
/// lumped_vertex_mass does.
MassMoments mass_moments(const TetMesh& mesh, const Vec3& origin = Vec3::Zero());

}  // namespace substruct
