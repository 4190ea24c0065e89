// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// First and second time derivatives of the rotation of a polar decomposition A(t) = R(t) S(t)
/// (Barbič–Zhao 2011, §3, Eq. 7–9 and App. A).
#include "substruct/kinematics/polar_decomposition.hpp"

namespace substruct {

/// The rates of R and S for given Ȧ and Ä at A = R S.
struct PolarRotationRates {
  Vec3 omega = Vec3::Zero();      // ω, Ṙ = ω̃ R (Eq. 7)
  Vec3 omega_dot = Vec3::Zero();  // ω̇ (Eq. 9)
  Mat3 R_dot = Mat3::Zero();      // Ṙ = ω̃ R (Eq. 8)
  Mat3 S_dot = Mat3::Zero();      // Ṡ = Rᵀ (Ȧ − Ṙ S) (Eq. 8)
  Mat3 R_ddot = Mat3::Zero();     // R̈ = ω̇̃ R + ω̃² R (Eq. 8)
};

/// Eq. 7: G = (tr(S) I − S) Rᵀ, ω = G⁻¹ (2 skew(Rᵀ Ȧ)). Linear in Ȧ.
Vec3 polar_angular_velocity(const PolarDecomposition& polar, const Mat3& A_dot);

/// Eq. 7 as a matrix: ω = Ω vec(Ȧ), vec stacking Ȧ column by column. Where ω is wanted for many
/// Ȧ at one A (a Jacobian's columns), Ω costs one G⁻¹ instead of one per Ȧ.
Eigen::Matrix<double, 3, 9> polar_angular_velocity_map(const PolarDecomposition& polar);

/// Eq. 7–9 at A = polar.R polar.S for the rates Ȧ, Ä. G is invertible whenever A is (the sum of
/// any two singular values is positive); throws Error when it is singular to working precision
/// (a degenerate interface). With `omega_map`, also Ω (polar_angular_velocity_map) from the same
/// G⁻¹.
PolarRotationRates polar_rotation_rates(const PolarDecomposition& polar, const Mat3& A_dot,
                                        const Mat3& A_ddot,
                                        Eigen::Matrix<double, 3, 9>* omega_map = nullptr);

}  // namespace substruct
