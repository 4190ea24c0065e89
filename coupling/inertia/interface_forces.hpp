#pragma once
// The reduced interface forces of a child subtree on its parent domain (Barbič–Zhao 2011, Eq. 15–16
// and §5, "L1"/"L2"): f_itf = −M_ij q̈_i + f0_ij.
#include "frame_kinematics.hpp"
#include "substruct/core/types.hpp"
#include "substruct/kinematics/interface_frame.hpp"
#include "substruct/kinematics/system_forces.hpp"

namespace substruct::inertia {

/// Where the subtree's mass is lumped.
/// interface (L1): at the interface centroid x_ij; center-of-mass (L2): at the subtree's centre of
/// mass c = x_ij + R_ij d_j, carried rigidly by the interface frame.
enum class Lumping { interface, center_of_mass };

/// The subtree rooted at child j, as its parent sees it.
struct Subtree {
  double mass = 0;            // m̄_j
  Vec3 force = Vec3::Zero();  // f̄_j, the net external force, in the PARENT's axes (R_iᵀ f_world)
  Vec3 d = Vec3::Zero();      // rest offset of its centre of mass from o_j, F_j axes (L2 only)
};

/// M_ij (r×r) and f0_ij (r) are ADDED to `*M` (unless M is null) and `f0`.
/// L1 (Eq. 16): M_ij = m̄ âᵀâ,
///   f0_ij = âᵀ(f̄ − m̄ (a_i + α_i × x_ij + ω_i × (ω_i × x_ij) + 2 ω_i × v_ij)).
/// L2: with J_ω (3×r, column ℓ the polar angular velocity of A^ℓ) and J_c = â − (R_ij d)~ J_ω,
///   M_ij = m̄ J_cᵀ J_c,
///   f0_ij = J_cᵀ(f̄ − m̄ (a_i + α_i × c + ω_i × (ω_i × c) + 2 ω_i × ċ
///                        + ω_ij × (ω_ij × R_ij d) + ω̇_ij|_{q̈=0} × R_ij d)),   ċ = J_c q̇.
/// `itf` is the interface's kinematics at the parent's current state q, q̇.
void add_interface_force(Lumping lumping, const InterfaceFrameModel& model,
                         const InterfaceKinematics& itf, const FrameMotion& parent,
                         const Subtree& subtree, const Eigen::VectorXd& qdot, Eigen::MatrixXd* M,
                         Eigen::VectorXd& f0);

}  // namespace substruct::inertia
