// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/kinematics/polar_decomposition.hpp"

#include <cmath>
#include <sstream>

#include <fmt/format.h>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "detail/cofactor.hpp"
#include "detail/polar_tolerances.hpp"
#include "substruct/core/error.hpp"

namespace substruct {
namespace {

// Newton's iteration and its tests: detail/polar_tolerances.hpp.
using detail::kNewtonMinDeterminant;
using detail::kPolarMaxIterations;
using detail::kPolarScalingOff;
using detail::kPolarUpdateTolerance;

// The rotation of A by scaled Newton; false when det A is not clearly positive or the
// iteration did not converge (then R is unspecified).
bool newton_rotation(const Mat3& A, Mat3& R) {
  Mat3 X = A;
  double update2 = 1;  // ‖X_{k+1} − X_k‖_F²
  for (int k = 0; k < kPolarMaxIterations; ++k) {
    const Mat3 c = detail::cofactor(X);
    const double det = X.row(0).dot(c.row(0));
    const double norm2 = X.squaredNorm();
    if (k == 0 && !(det > 0 && det * det > kNewtonMinDeterminant * kNewtonMinDeterminant * norm2 *
                                               norm2 * norm2))
      return false;
    if (!(det > 0) || !std::isfinite(det)) return false;
    // ζ = (‖X⁻¹‖_F/‖X‖_F)^½ with ‖X⁻¹‖_F = ‖cof X‖_F/det; ζ ≈ 1 (not worth its cost) once an
    // update was small, or from the start when X is already near a rotation (det X ≈ 1,
    // ‖X‖_F² ≈ 3).
    const bool near =
        k == 0 ? std::abs(det - 1) < kPolarScalingOff && std::abs(norm2 - 3) < kPolarScalingOff
               : update2 <= kPolarScalingOff * kPolarScalingOff;
    const double zeta = near ? 1.0 : std::sqrt(std::sqrt(c.squaredNorm() / (det * det * norm2)));
    const Mat3 next = (0.5 * zeta) * X + (0.5 / (zeta * det)) * c;  // ½ (ζ X + ζ⁻¹ X⁻ᵀ)
    update2 = (next - X).squaredNorm();
    X = next;
    if (update2 <= kPolarUpdateTolerance * kPolarUpdateTolerance) {
      R = X;
      return true;
    }
  }
  return false;
}

}  // namespace

PolarDecomposition polar_decomposition(const Mat3& A) {
  if (!A.allFinite()) {
    std::ostringstream text;
    text << A.format(Eigen::IOFormat(Eigen::FullPrecision, 0, ", ", "; ", "", "", "[", "]"));
    throw Error(fmt::format("polar decomposition: the matrix is not finite: {}", text.str()));
  }
  PolarDecomposition p;
  if (newton_rotation(A, p.R)) {
    const Mat3 S = p.R.transpose() * A;  // S = Rᵀ A, symmetric up to rounding
    p.S = 0.5 * (S + S.transpose());
    return p;
  }
  // A = U Σ Vᵀ; R = U D Vᵀ, S = V D Σ Vᵀ with D = diag(1, 1, det(U Vᵀ)): the sign flip goes to
  // the smallest singular value (Eigen orders them decreasingly).
  const Eigen::JacobiSVD<Mat3> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 U = svd.matrixU();
  const Mat3& V = svd.matrixV();
  Vec3 sigma = svd.singularValues();
  if ((U * V.transpose()).determinant() < 0) {
    U.col(2) = -U.col(2);
    sigma(2) = -sigma(2);
  }
  p.R = U * V.transpose();
  p.S = V * sigma.asDiagonal() * V.transpose();
  p.S = 0.5 * (p.S + p.S.transpose()).eval();
  return p;
}

}  // namespace substruct
