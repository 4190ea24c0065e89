// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/kinematics/interface_frame.hpp"

#include <cmath>

#include <fmt/format.h>
#include <Eigen/Eigenvalues>

#include "substruct/core/error.hpp"

namespace substruct {

namespace {

void check_size(const Eigen::VectorXd& x, int r) {
  if (x.size() != r)
    throw Error(fmt::format("interface frame: a coordinate vector has {} entries, the model {}",
                            x.size(), r));
}

}  // namespace

Vec3 InterfaceFrameModel::centroid(const Eigen::VectorXd& q) const {
  check_size(q, r());
  return x_hat + a_hat * q;  // Eq. 1: x̂ + â q
}

Mat3 InterfaceFrameModel::covariance(const Eigen::VectorXd& q) const {
  return R_hat + covariance_rate(q);  // Eq. 2: R̂ + Σ A^ℓ q_ℓ
}

Mat3 InterfaceFrameModel::covariance_rate(const Eigen::VectorXd& rate) const {
  check_size(rate, r());
  const Eigen::Matrix<double, 9, 1> sum = A_columns * rate;  // Eq. 6: Σ A^ℓ ẋ_ℓ
  return Eigen::Map<const Mat3>(sum.data());
}

InterfaceFrameModel::State InterfaceFrameModel::evaluate(const Eigen::VectorXd& q,
                                                         const Eigen::VectorXd& qdot,
                                                         const Eigen::VectorXd& qddot) const {
  const int n = r();
  check_size(q, n);
  check_size(qdot, n);
  check_size(qddot, n);
  // [â; A] [q q̇ q̈], column by column (3 and 9 contiguous values each).
  Vec3 x0 = Vec3::Zero(), x1 = x0, x2 = x0;
  Eigen::Matrix<double, 9, 1> y0 = Eigen::Matrix<double, 9, 1>::Zero(), y1 = y0, y2 = y0;
  for (int l = 0; l < n; ++l) {
    const auto a = a_hat.col(l);
    const auto g = A_columns.col(l);
    x0.noalias() += q[l] * a;
    x1.noalias() += qdot[l] * a;
    x2.noalias() += qddot[l] * a;
    y0.noalias() += q[l] * g;
    y1.noalias() += qdot[l] * g;
    y2.noalias() += qddot[l] * g;
  }
  State s;
  s.x = x_hat + x0;
  s.v = x1;
  s.a = x2;
  s.A = R_hat + Eigen::Map<const Mat3>(y0.data());
  s.A_dot = Eigen::Map<const Mat3>(y1.data());
  s.A_ddot = Eigen::Map<const Mat3>(y2.data());
  return s;
}

InterfaceFrameModel fit_interface_frame(const Points& X, const Eigen::MatrixXd& U,
                                        const Eigen::VectorXd& w, const Mat3& R_hat,
                                        double epsilon) {
  const Eigen::Index m = X.rows();
  const Eigen::Index r = U.cols();
  if (m < 3)
    throw Error(fmt::format(
        "interface frame: {} interface vertices; fitting a rotation needs at least 3", m));
  if (U.rows() != 3 * m)
    throw Error(fmt::format("interface frame: the basis has {} rows for {} vertices (expected {})",
                            U.rows(), m, 3 * m));
  if (w.size() != m)
    throw Error(fmt::format("interface frame: {} weights for {} vertices", w.size(), m));
  if (!(epsilon > 0 && epsilon < 1))
    throw Error(
        fmt::format("interface frame: the planar threshold ε = {} is not in (0, 1)", epsilon));
  if (!X.allFinite() || !U.allFinite() || !R_hat.allFinite())
    throw Error("interface frame: the vertex positions, basis or rest rotation are not finite");
  for (Eigen::Index k = 0; k < m; ++k)
    if (!(w[k] > 0) || !std::isfinite(w[k]))
      throw Error(
          fmt::format("interface frame: the weight of interface vertex {} is {}; weights "
                      "must be positive",
                      k, w[k]));

  InterfaceFrameModel model;
  model.R_hat = R_hat;
  const double W = w.sum();
  // Eq. 1: x̂ = Σ w^k X^k / Σ w^k,  â = Σ w^k U^k / Σ w^k
  model.x_hat = (X.transpose() * w) / W;
  model.a_hat.setZero(3, r);
  for (Eigen::Index k = 0; k < m; ++k) model.a_hat += w[k] * U.middleRows(3 * k, 3);
  model.a_hat /= W;
  model.A_columns.setZero(9, r);

  // Eq. 4: C = Σ w^k (X^k − x̂)(X^k − x̂)ᵀ
  const Points D = X.rowwise() - model.x_hat.transpose();
  Mat3 C = D.transpose() * w.asDiagonal() * D;
  C = 0.5 * (C + C.transpose()).eval();
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(C);
  Vec3 lambda = eig.eigenvalues();  // λ₁ ≤ λ₂ ≤ λ₃
  const Mat3& V = eig.eigenvectors();
  if (!(lambda[2] > 0))
    throw Error(
        fmt::format("interface frame: the {} interface vertices coincide; no rotation "
                    "can be fitted",
                    m));
  if (lambda[1] < epsilon * lambda[2])
    throw Error(fmt::format(
        "interface frame: the {} interface vertices are (nearly) collinear (eigenvalues of "
        "their covariance λ₁ = {:.3g}, λ₂ = {:.3g}, λ₃ = {:.3g}, λ₂/λ₃ = {:.3g} < ε = {}); no "
        "rotation about their line can be fitted: the interface needs vertices off that line",
        m, lambda[0], lambda[1], lambda[2], lambda[1] / lambda[2], epsilon));
  model.eigenvalue_ratio = lambda[0] / lambda[2];
  // Planar fix: an extra point of weight 1 at x̂ + η N adds η² N Nᵀ to C, lifting λ₁ to ε λ₃
  // (η² = ε λ₃ − λ₁). It must turn with the patch: for each column ℓ its displacement relative to
  // the centroid is η (θ_ℓ × N), the tilt the in-plane points determine,
  //   θ_ℓ × N = −C'⁻¹ B^ℓᵀ N   (exact for a rigid motion B^ℓ = θ̃ C, C' = C in the plane),
  // so it adds −η² C'⁻¹ B^ℓᵀ N Nᵀ to B^ℓ and every rigid motion of the patch gives A^ℓ = θ̃ R̂
  // exactly. (Rows â, a point that only follows the centroid, would halve every tilt.)
  double eta2 = 0;
  Vec3 N = Vec3::Zero();
  if (lambda[0] < epsilon * lambda[2]) {
    model.planar = true;
    eta2 = epsilon * lambda[2] - lambda[0];
    N = V.col(0);
    lambda[0] = epsilon * lambda[2];
  }
  const Mat3 C_inv = V * lambda.cwiseInverse().asDiagonal() * V.transpose();
  const Mat3 C_inv_R_hat = C_inv * R_hat;

  // Eq. 2–3: A^ℓ = Σ w^k (U^k_ℓ − â_ℓ)(X^k − x̂)ᵀ C⁻¹ R̂ (+ the extra point's term)
  for (Eigen::Index l = 0; l < r; ++l) {
    Mat3 B = Mat3::Zero();
    for (Eigen::Index k = 0; k < m; ++k)
      B += w[k] * (U.block<3, 1>(3 * k, l) - model.a_hat.col(l)) * D.row(k);
    if (model.planar) B -= eta2 * (C_inv * (B.transpose() * N)) * N.transpose();
    Eigen::Map<Mat3>(model.A_columns.col(l).data()) = B * C_inv_R_hat;
  }
  return model;
}

}  // namespace substruct
