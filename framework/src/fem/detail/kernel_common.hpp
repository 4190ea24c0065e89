// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Pieces shared by the element kernels (element_kernels.cpp, neohookean_kernel.cpp).
#include <Eigen/SVD>

#include "substruct/fem/element_kernels.hpp"
#include "substruct/fem/tet_geometry.hpp"

namespace substruct::detail {

using Mat43 = Eigen::Matrix<double, 4, 3>;

/// F = Ds Dm⁻¹, Ds = [x₁−x₀, x₂−x₀, x₃−x₀].
inline Mat3 deformation_gradient(const ElementInput& in) {
  const Vec12& x = *in.x;
  Mat3 Ds;
  for (int c = 0; c < 3; ++c) Ds.col(c) = x.segment<3>(3 * (c + 1)) - x.segment<3>(0);
  return Ds * *in.Dm_inv;
}

/// The kernels write the blocks K_ab with a ≤ b (the upper block triangle, diagonal blocks
/// whole); the strict lower triangle is then copied from the upper one, so K = Kᵀ exactly.
inline void mirror_lower(Mat12& K) {
  for (int j = 0; j < 12; ++j)
    for (int i = j + 1; i < 12; ++i) K(i, j) = K(j, i);
}

/// f_a = V P ∇N_a.
inline void nodal_forces(const Mat3& P, const Mat43& G, double V, Vec12& f) {
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      f[3 * a + i] = V * (P(i, 0) * G(a, 0) + P(i, 1) * G(a, 1) + P(i, 2) * G(a, 2));
}

/// F = U Σ Vᵀ with det U = det V = +1 (the rotation-variant SVD of Irving et al. 2004): σ₁ ≥ σ₂ ≥
/// |σ₃|, and σ₃ < 0 exactly when det F < 0 (an inverted element).
struct SignedSvd {
  Mat3 U, V;
  Vec3 sigma;
};

inline SignedSvd signed_svd(const Mat3& F) {
  const Eigen::JacobiSVD<Mat3, Eigen::NoQRPreconditioner> svd(
      F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  SignedSvd s{svd.matrixU(), svd.matrixV(), svd.singularValues()};
  if (s.U.determinant() < 0) {
    s.U.col(2) = -s.U.col(2);
    s.sigma[2] = -s.sigma[2];
  }
  if (s.V.determinant() < 0) {
    s.V.col(2) = -s.V.col(2);
    s.sigma[2] = -s.sigma[2];
  }
  return s;
}

}  // namespace substruct::detail
