// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The frame recursion of Barbič–Zhao 2011, §3 (Eq. 1–9, 11–12): the pose and motion of a child
// domain's frame F_j from its parent's frame F_i and the parent's reduced state.
#include <Eigen/Geometry>

#include "substruct/core/types.hpp"
#include "substruct/kinematics/interface_frame.hpp"
#include "substruct/kinematics/system_forces.hpp"

namespace substruct::inertia {

/// The interface I_ij relative to the parent frame F_i, in F_i axes:
///   x_ij = x̂ + â q,  R_ij = polar rotation of A(q),  v_ij = â q̇,  a_ij = â q̈,
///   ω_ij, α_ij from Eq. 7–9 with Ȧ = Σ A^ℓ q̇_ℓ, Ä = Σ A^ℓ q̈_ℓ.
struct InterfaceKinematics {
  Vec3 x = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  Vec3 v = Vec3::Zero();
  Vec3 a = Vec3::Zero();
  Vec3 omega = Vec3::Zero();
  Vec3 alpha = Vec3::Zero();
  Vec3 alpha_free = Vec3::Zero();  // α_ij with q̈ = 0 (the part of α_ij that L2 keeps explicit)
  /// Eq. 7 as a matrix, ω = Ω vec(Ȧ) (polar_angular_velocity_map), at this A; with alpha_free
  /// only (L2 needs it for J_ω), else has_omega_map is false.
  Eigen::Matrix<double, 3, 9> omega_map = Eigen::Matrix<double, 3, 9>::Zero();
  bool has_omega_map = false;
  // (A's stretch S is not kept: a tree holds one of these per child, and a step reads them all.)
};

/// At the rest state (q = q̇ = q̈ = 0) for r = 0 (a rigid parent) or when the parent is rigid.
InterfaceKinematics rest_interface(const InterfaceFrameModel& model);
/// The same from the rest centroid x̂ and rest rotation R̂.
InterfaceKinematics rest_interface(const Vec3& x_hat, const Mat3& R_hat);

/// From the parent's q, q̇, q̈ (r entries each); alpha_free and omega_map only when `free_alpha` (L2
/// lumping needs it), zero otherwise.
InterfaceKinematics interface_kinematics(const InterfaceFrameModel& model, const Eigen::VectorXd& q,
                                         const Eigen::VectorXd& qdot, const Eigen::VectorXd& qddot,
                                         bool free_alpha);
/// The same from Eq. 1, 2 and 6 evaluated already (Eq. 7–9 from the centroid, covariance and
/// their rates).
InterfaceKinematics interface_kinematics(const InterfaceFrameModel::State& state, bool free_alpha);
/// The same with A's polar rotation R and its rates ω, ω̇ found already (four children at once:
/// polar_rotation_rates_batch); Ω, where given, also makes alpha_free. Every member of `out` is
/// written (in place: a branch makes hundreds of these per step).
void interface_kinematics(const InterfaceFrameModel::State& state, const Mat3& R, const Vec3& omega,
                          const Vec3& omega_dot, const Eigen::Matrix<double, 3, 9>* omega_map,
                          InterfaceKinematics& out);

/// The child frame's motion (world quantities in F_j axes) from the parent's (in F_i axes):
///   v' = v_i + ω_i × x_ij + v_ij
///   a' = a_i + α_i × x_ij + ω_i × (ω_i × x_ij) + 2 ω_i × v_ij + a_ij
///   ω' = ω_i + ω_ij,   α' = α_i + ω̇_ij + ω_i × ω_ij
/// each rotated into F_j by R_ijᵀ, into `out` (not `parent`).
void child_frame_motion(const FrameMotion& parent, const InterfaceKinematics& itf,
                        FrameMotion& out);

}  // namespace substruct::inertia
