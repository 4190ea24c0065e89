// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Two-way coupling of the domain tree by the articulated-body recursion (Featherstone's ABA with a
// domain's modes as the "joint" that carries its children's frames).
//
// The kinematic model is the paper's: a point of domain j is x = p_j + R_j (X̄ + U q_j), and a
// child's frame is the polar frame of its interface on the parent, a function of the parent's q.
// Its exact equations of motion (d'Alembert over every vertex, with the consistent mass M) are
//   modal:  q̈_j + Bᵀ A_j + f_int(q_j) = Uᵀ f_j + Σ_c G_cᵀ W_c
//   frame:  W_j = Φᵀ f_j − I A_j − B q̈_j + Σ_c X_cᵀ W_c     (the wrench j's subtree needs)
// with A_j = (a, α) the frame's acceleration (frame axes), Φ = [E, −[y]~] the rigid Jacobian at
// y = X̄ + U q, I = ΦᵀMΦ, B = ΦᵀMU, f_j the known forces (gravity, point forces, the frame's
// centrifugal and Coriolis terms) and a child's frame acceleration A_c = X_c A_j + G_c q̈_j + κ_c.
// The mass matrix of these equations is symmetric (B in both), so a child's reaction is the exact
// transpose of how its parent drives it, and the energy the parent's interface puts into a child
// is the energy taken out of the parent. Barbič–Zhao's L1 and L2 keep only the child's rigid,
// undeformed mass (m̄ JᵀJ): the parent then drives each child without its reaction, and a child
// in resonance with its parent gains energy without bound.
//
// A step eliminates each subtree leaves → root into its articulated inertia, W_j = pA_j − IA_j A_j,
// then solves root → leaves: O(domains · r³).
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "child_frame_rows.hpp"
#include "frame_kinematics.hpp"
#include "substruct/core/types.hpp"

namespace substruct::inertia {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Mat6X = Eigen::Matrix<double, 6, Eigen::Dynamic>;

/// One domain's share of a step's equations, in its frame's axes about its origin.
struct ArticulatedNode {
  // Filled by domain_rigid_terms (I, B, P and the modal known force), then by the caller (H, b).
  Mat6 I = Mat6::Zero();  // ΦᵀMΦ: the domain's rigid-body (spatial) inertia
  Mat6X B;                // ΦᵀMU (6×r)
  Vec6 P = Vec6::Zero();  // Φᵀ f: the wrench of the known forces
  Eigen::VectorXd modal;  // Uᵀ f
  Eigen::MatrixXd H;      // the modal equation's matrix (r×r): I + γh D + βh² K
  Eigen::VectorXd b;      // its right-hand side without the coupling terms
  // The link to the parent (child_link): A = X A_parent + G q̈_parent + κ.
  Mat6 X = Mat6::Identity();
  Mat6X G;  // 6×r_parent
  Vec6 kappa = Vec6::Zero();
  // The elimination (articulated_eliminate): children added to H, B, I, b, P in place.
  Eigen::LDLT<Eigen::MatrixXd> H_factor;
  Mat6 IA = Mat6::Zero();  // articulated inertia
  Vec6 pA = Vec6::Zero();  // articulated bias wrench
  // The solution.
  Vec6 A = Vec6::Zero();
  Eigen::VectorXd qddot;
};

/// I, B, P and `modal` of a domain at its state: the deformed shape y = X̄ + U q (X: rest
/// positions in the frame, M: consistent mass, U: basis, 3N×0 for a rigid domain), the frame's
/// angular velocity ω (frame axes), the uniform field g (frame axes: Rᵀ g_world) and the point
/// forces (local vertex, force in frame axes). The known force per vertex is
///   f = M (g − ω × (ω × y) − 2 ω × U q̇) + F_points.
void domain_rigid_terms(const SparseMatrix& M, const Eigen::MatrixXd& U, const Points& X,
                        const Eigen::VectorXd& q, const Eigen::VectorXd& qdot, const Vec3& omega,
                        const Vec3& g, const std::vector<std::pair<Index, Vec3>>& point_forces,
                        ArticulatedNode& node);

/// The child's link from its interface on the parent (`itf` at the parent's state, with
/// free_alpha: its Ω and the q̈ = 0 part of ω̇_ij), the interface's frame columns and the
/// parent frame's angular velocity ω_i (parent axes), as child_frame_motion writes it:
///   A_c = R_ijᵀ [a_i + α_i × x_ij + ω_i × (ω_i × x_ij) + 2 ω_i × v_ij + â q̈;
///                α_i + J_ω q̈ + α_free + ω_i × ω_ij],   J_ω = Ω A (Eq. 7 is linear in Ä).
void child_link(const FrameColumns& columns, const InterfaceKinematics& itf, const Vec3& omega_i,
                ArticulatedNode& child);

/// Adds an eliminated child's articulated inertia to its parent (before the parent's
/// elimination), with p̃ = pA − IA κ:
///   H += Gᵀ IA G,  B += Xᵀ IA G,  I += Xᵀ IA X,  b += Gᵀ p̃,  P += Xᵀ p̃.
void add_child(const ArticulatedNode& child, ArticulatedNode& parent);

/// Eliminates the node's modes: IA = I − B H⁻¹ Bᵀ, pA = P − B H⁻¹ b. Throws DivergenceError
/// naming `domain` when H is singular or not finite.
void articulated_eliminate(ArticulatedNode& node, int domain, long step);

/// The node's accelerations from its frame acceleration A (set by the caller for the root, or
/// from its parent by child_acceleration): q̈ = H⁻¹ (b − Bᵀ A).
void modal_acceleration(ArticulatedNode& node);
/// A_c = X A_parent + G q̈_parent + κ.
void child_acceleration(const ArticulatedNode& parent, ArticulatedNode& child);

}  // namespace substruct::inertia
