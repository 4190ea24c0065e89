// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/kinematics/polar_decomposition_derivative.hpp"

#include <cmath>

#include <fmt/format.h>

#include "detail/cofactor.hpp"
#include "detail/polar_tolerances.hpp"
#include "substruct/core/error.hpp"
#include "substruct/kinematics/skew.hpp"

namespace substruct {
namespace {

using detail::kSingularDeterminant;  // detail/polar_tolerances.hpp

// K⁻¹ for K = tr(S) I − S (symmetric, eigenvalues σ₂+σ₃, σ₁+σ₃, σ₁+σ₂), so that
// G⁻¹ = ((tr(S) I − S) Rᵀ)⁻¹ = R K⁻¹.
Mat3 inverse_of_trace_complement(const Mat3& S) {
  const Mat3 K = S.trace() * Mat3::Identity() - S;
  const Mat3 c = detail::cofactor(K);
  const double det = K.row(0).dot(c.row(0));
  const double norm = K.norm();
  if (!(std::abs(det) > kSingularDeterminant * norm * norm * norm))
    throw Error(fmt::format(
        "polar decomposition derivative: G = (tr(S) I − S) Rᵀ is singular (det = {:.3g}, "
        "‖G‖ = {:.3g}): two singular values of the interface covariance A sum to about zero, "
        "so its rotation has no derivative (a degenerate or collapsed interface)",
        det, norm));
  return c / det;
}

// Column 3c + i of Ω is Eq. 7 for Ȧ = e_i e_cᵀ: Rᵀ Ȧ = a e_cᵀ with a = Rᵀ e_i, and for any
// a bᵀ, 2 skew(a bᵀ) = b × a; so the column is R K⁻¹ (e_c × Rᵀ e_i).
void angular_velocity_map(const Mat3& R, const Mat3& K_inv, Eigen::Matrix<double, 3, 9>& map) {
  const Mat3 RK = R * K_inv;
  for (int i = 0; i < 3; ++i) {
    const Vec3 a = R.row(i).transpose();           // Rᵀ e_i
    map.col(i) = RK * Vec3(0, -a.z(), a.y());      // e_x × a
    map.col(3 + i) = RK * Vec3(a.z(), 0, -a.x());  // e_y × a
    map.col(6 + i) = RK * Vec3(-a.y(), a.x(), 0);  // e_z × a
  }
}

}  // namespace

Vec3 polar_angular_velocity(const PolarDecomposition& polar, const Mat3& A_dot) {
  // Eq. 7: ω = G⁻¹ (2 skew(Rᵀ Ȧ)) = R K⁻¹ (2 skew(Rᵀ Ȧ))
  const Mat3 K_inv = inverse_of_trace_complement(polar.S);
  return polar.R * (K_inv * (2 * skew(polar.R.transpose() * A_dot)));
}

Eigen::Matrix<double, 3, 9> polar_angular_velocity_map(const PolarDecomposition& polar) {
  Eigen::Matrix<double, 3, 9> map;
  angular_velocity_map(polar.R, inverse_of_trace_complement(polar.S), map);
  return map;
}

PolarRotationRates polar_rotation_rates(const PolarDecomposition& polar, const Mat3& A_dot,
                                        const Mat3& A_ddot,
                                        Eigen::Matrix<double, 3, 9>* omega_map) {
  const Mat3& R = polar.R;
  const Mat3& S = polar.S;
  const Mat3 K_inv = inverse_of_trace_complement(S);
  if (omega_map) angular_velocity_map(R, K_inv, *omega_map);
  const Mat3 Rt = R.transpose();
  PolarRotationRates out;
  // Eq. 7: ω = G⁻¹ (2 skew(Rᵀ Ȧ))
  out.omega = R * (K_inv * (2 * skew(Rt * A_dot)));
  const Mat3 W = hat(out.omega);
  // Eq. 8: Ṙ = ω̃ R, Ṡ = Rᵀ (Ȧ − Ṙ S)
  out.R_dot = W * R;
  out.S_dot = Rt * (A_dot - out.R_dot * S);
  out.S_dot = 0.5 * (out.S_dot + out.S_dot.transpose()).eval();
  // Eq. 9: ω̇ = G⁻¹ (2 skew(Rᵀ (Ä − ω̃ Ȧ)) − (tr(Ṡ) I − Ṡ) Rᵀ ω)
  const Vec3 rhs = 2 * skew(Rt * (A_ddot - W * A_dot)) -
                   (out.S_dot.trace() * Mat3::Identity() - out.S_dot) * (Rt * out.omega);
  out.omega_dot = R * (K_inv * rhs);
  // R̈ = ω̇̃ R + ω̃² R (Eq. 8, whose first term the paper misprints as ω̃ R)
  out.R_ddot = hat(out.omega_dot) * R + W * out.R_dot;
  return out;
}

}  // namespace substruct
