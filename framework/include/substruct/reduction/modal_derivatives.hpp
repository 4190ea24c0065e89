// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Modal derivatives (Barbič–James 2005, §4): how the linear modes of StVK change as the body
/// deforms along them, the large-deformation part of a reduced basis.
#include "substruct/core/progress.hpp"
#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/reduction/domain_boundary.hpp"
#include "substruct/solvers/linear_solver.hpp"
#include "substruct/solvers/process_group.hpp"

namespace substruct {

/// k(k+1)/2, the number of modal derivatives Ψ_ij (i ≤ j) of k linear modes.
int derivative_count(int k);
/// The column of Ψ_ij in modal_derivatives' result (i ≤ j < k): pairs in the order
/// (0,0) (0,1) … (0,k−1) (1,1) … (k−1,k−1).
int derivative_column(int i, int j, int k);

/// (H : a) b, the second derivative of the StVK internal force at rest along displacements a and
/// b, i.e. the directional derivative of the tangent stiffness along a applied to b:
///   (H : a) b = d/ds K(s a) b |_{s=0},   symmetric in a and b.
/// Per element, with the displacement gradients G_a = Σ_v a_v ∇N_vᵀ, ε = sym(G) and
/// S(X) = 2μX + λ tr(X) I, the first Piola–Kirchhoff stress P = (I + G) S(ε + ½GᵀG) has the
/// second derivative P_ab = G_a S(ε_b) + G_b S(ε_a) + μ(G_aᵀG_b + G_bᵀG_a) + λ tr(G_aᵀG_b) I, and
/// the nodal forces are f_v = V P_ab ∇N_v. Each element uses its own material. Throws Error when
/// a or b do not have 3N entries (or for a degenerate element).
Eigen::VectorXd stvk_hessian_product(const TetMesh& mesh, const Eigen::VectorXd& a,
                                     const Eigen::VectorXd& b);

/// The modal derivatives of the linear modes Φ (3N×k, zero at fixed vertices):
///   Ψ_ij = −K⁻¹ (H : Φ_i) Φ_j,  i ≤ j,   K the stiffness at rest,
/// as the k(k+1)/2 columns of a 3N matrix (order: derivative_column). Fixed vertices are removed
/// from K and the right-hand sides, so Ψ_ij is exactly zero there. A free-flying domain
/// (boundary.remove_rigid_modes) has a singular K: the right-hand side is projected onto the
/// range of K (b ← b − M R Rᵀ b, R the M-orthonormal rigid_body_modes), the system is solved with
/// 6 DOFs of three far-apart vertices pinned (which removes exactly the rigid motions, so the
/// solution solves the unpinned system), and the result is made M-orthogonal to R.
/// `solver` analyses and factors K once and runs one solve per derivative; `progress`, when
/// given, advances by one per derivative (create it with total derivative_count(k)). Results are
/// bit-identical from run to run. Throws Error when Φ does not have 3N rows, or the solver's
/// Error when K (with the fixed vertices removed) is not positive definite.
/// With `share` (collective: every rank of it calls this with the same Φ) every rank returns
/// all the derivatives, and rank p makes the right-hand sides p, p + size, … of the column order.
/// A solver that shares its work (solver.shared(), e.g. mumps) factors K once over all ranks and
/// solves the columns in rounds, each round's together (solve_columns) by all of them, also in
/// one process; any other solver factors K on every rank, which solves its own columns one by
/// one (each column then the same bits as one process computes).
Eigen::MatrixXd modal_derivatives(const TetMesh& mesh, const Eigen::MatrixXd& Phi,
                                  const DomainBoundary& boundary, LinearSolver& solver,
                                  Progress* progress = nullptr, ProcessGroup* share = nullptr);

}  // namespace substruct
