// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The reduced interface forces of a child subtree on its parent domain (Barbič–Zhao 2011, Eq. 15–16
// and §5, "L1"/"L2"): f_itf = −M_ij q̈_i + f0_ij.
#include "child_frame_rows.hpp"
#include "frame_kinematics.hpp"
#include "substruct/core/types.hpp"
#include "substruct/kinematics/interface_frame.hpp"
#include "substruct/kinematics/system_forces.hpp"

namespace substruct::inertia {

/// Where the subtree's mass is lumped.
/// interface (L1): at the interface centroid x_ij; center-of-mass (L2): at the subtree's centre of
/// mass c = x_ij + R_ij d_j, carried rigidly by the interface frame; articulated: not lumped, the
/// subtree's exact articulated inertia (articulated_body.hpp; the functions below are L1's and
/// L2's).
enum class Lumping { interface, center_of_mass, articulated };

/// The subtree rooted at child j, as its parent sees it.
struct Subtree {
  double mass = 0;            // m̄_j
  Vec3 force = Vec3::Zero();  // f̄_j, the net external force, in the PARENT's axes (R_iᵀ f_world)
  Vec3 d = Vec3::Zero();      // rest offset of its centre of mass from o_j, F_j axes (L2 only)
};

/// Both lumpings write f_itf = Jᵀ(net − m̄ J q̈): M_ij = m̄ JᵀJ, f0_ij = Jᵀ net, with
/// L1 (Eq. 16): J = â,
///   net = f̄ − m̄ (a_i + α_i × x_ij + ω_i × (ω_i × x_ij) + 2 ω_i × v_ij);
/// L2: with J_ω (3×r, column ℓ the polar angular velocity of A^ℓ), J = J_c = â − (R_ij d)~ J_ω,
///   net = f̄ − m̄ (a_i + α_i × c + ω_i × (ω_i × c) + 2 ω_i × ċ
///               + ω_ij × (ω_ij × R_ij d) + ω̇_ij|_{q̈=0} × R_ij d),   ċ = J_c q̇.
/// `itf` is the interface's kinematics at the parent's current state q, q̇ (for L2 made with
/// free_alpha: with Ω; Error otherwise); `model` the child's frame model
/// (ChildFrameRows::columns).
/// Writes scale·J (3×r) and returns net.
Vec3 interface_jacobian(Lumping lumping, const FrameColumns& model, const InterfaceKinematics& itf,
                        const FrameMotion& parent, const Subtree& subtree,
                        const Eigen::VectorXd& qdot, double scale,
                        Eigen::Ref<Eigen::Matrix<double, 3, Eigen::Dynamic>> sJ);

/// M_ij (r×r) and f0_ij (r) of one child are ADDED to `*M` (unless M is null) and `f0`.
void add_interface_force(Lumping lumping, const FrameColumns& model, const InterfaceKinematics& itf,
                         const FrameMotion& parent, const Subtree& subtree,
                         const Eigen::VectorXd& qdot, Eigen::MatrixXd* M, Eigen::VectorXd& f0);

/// The interface forces of all K children of one domain, summed by one product each instead of
/// K small ones (a branch may carry hundreds of leaves): with the rows W_k = √m̄_k J_k stacked
/// in W (3K×r) and the scaled net forces n_k / √m̄_k stacked in ñ,
///   Σ_k M_ij = Wᵀ W (a symmetric rank update),   Σ_k f0_ij = Wᵀ ñ.
class InterfaceForceBatch {
 public:
  /// K children of a domain with r reduced coordinates, for one evaluation: each child is then
  /// either set or skipped (rows of an earlier evaluation are not cleared here: they are all
  /// overwritten, so a step does not zero 3K×r values first).
  void reset(int children, int r);
  /// Child k's rows (interface_jacobian); its subtree's mass m̄ must be positive.
  void set(int k, Lumping lumping, const FrameColumns& model, const InterfaceKinematics& itf,
           const FrameMotion& parent, const Subtree& subtree, const Eigen::VectorXd& qdot);
  /// Child k adds nothing (detached): its rows zero.
  void skip(int k);
  /// Adds Wᵀ W to *M (unless M is null; M must be symmetric) and Wᵀ ñ to f0.
  void add_to(Eigen::MatrixXd* M, Eigen::VectorXd& f0) const;

 private:
  Eigen::MatrixXd W_;           // W: 3K×r, child k's rows √m̄_k J_k
  Eigen::VectorXd scaled_net_;  // ñ: 3K, child k's net_k / √m̄_k
};

}  // namespace substruct::inertia
