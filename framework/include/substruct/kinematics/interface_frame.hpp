// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The frame a child domain hangs from: the best rigid fit to the interface vertices as the parent
/// deforms them (Barbič–Zhao 2011, §3, Eq. 1–4 and the planar-interface fix).
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

/// With m interface vertices at rest positions X^k (parent frame coordinates), weights w^k and
/// rows U^k (3×r) of the parent's basis:
///   Eq. 1: x(q) = Σ w^k (X^k + U^k q) / Σ w^k = x̂ + â q
///   Eq. 3: B(q) = Σ w^k ((X^k − x̂) + (U^k − â) q)(X^k − x̂)ᵀ
///   Eq. 4: C = Σ w^k (X^k − x̂)(X^k − x̂)ᵀ
///   Eq. 2: A(q) = B(q) C⁻¹ R̂ = R̂ + Σ_ℓ A^ℓ q_ℓ,   A^ℓ = Σ w^k (U^k_ℓ − â_ℓ)(X^k − x̂)ᵀ C⁻¹ R̂
/// and the child frame's rotation relative to the parent is the polar rotation of A(q).
/// Planar interfaces (eigenvalues λ₁ ≤ λ₂ ≤ λ₃ of C with λ₁ < ε λ₃): an extra point of weight 1
/// at x̂ + η N (N the eigenvector of λ₁, η = √(ε λ₃ − λ₁)) lifts λ₁ to ε λ₃. It turns with the
/// patch: its displacement relative to the centroid is η (θ × N) with θ × N = −C'⁻¹ B^ℓᵀ N, the
/// tilt the in-plane vertices determine (C' the lifted C), which adds −η² C'⁻¹ B^ℓᵀ N Nᵀ to B^ℓ.
/// Every rigid motion of the patch (tilts about in-plane axes and spins about N) is then fitted
/// exactly, A^ℓ = θ̃ R̂.
struct InterfaceFrameModel {
  Vec3 x_hat = Vec3::Zero();      // x̂, the rest centroid
  Mat3 R_hat = Mat3::Identity();  // R̂, the rest rotation of the child frame
  /// â (3×r), and column ℓ of `A_columns` is A^ℓ column by column (9×r), so that one pass over
  /// them gives the centroid and the covariance and their rates (evaluate()).
  Eigen::Matrix<double, 3, Eigen::Dynamic> a_hat;
  Eigen::Matrix<double, 9, Eigen::Dynamic> A_columns;
  bool planar = false;          // the planar fix was applied
  double eigenvalue_ratio = 0;  // λ₁/λ₃ of C before the fix

  int r() const { return static_cast<int>(a_hat.cols()); }
  /// A^ℓ, ℓ = 0 … r−1.
  Eigen::Map<const Mat3> A(int l) const { return Eigen::Map<const Mat3>(A_columns.col(l).data()); }
  /// Eq. 1: x̂ + â q.
  Vec3 centroid(const Eigen::VectorXd& q) const;
  /// Eq. 2: R̂ + Σ A^ℓ q_ℓ.
  Mat3 covariance(const Eigen::VectorXd& q) const;
  /// Eq. 6: Σ A^ℓ ẋ_ℓ for a rate ẋ of q (q̇ gives Ȧ, q̈ gives Ä).
  Mat3 covariance_rate(const Eigen::VectorXd& rate) const;

  /// Eq. 1, 2 and 6 at a state (q, q̇, q̈) in one pass.
  struct State {
    Vec3 x, v, a;           // x̂ + â q, â q̇, â q̈
    Mat3 A, A_dot, A_ddot;  // R̂ + Σ A^ℓ q_ℓ, Σ A^ℓ q̇_ℓ, Σ A^ℓ q̈_ℓ
  };
  /// Throws Error when a vector does not have r entries.
  State evaluate(const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                 const Eigen::VectorXd& qddot) const;
};

/// Fits the model. `X`: m×3 rest positions; `U`: 3m×r rows of the parent's basis at those
/// vertices (vertex k's x, y, z rows at 3k, 3k+1, 3k+2; r may be 0 for a rigid parent); `w`: m
/// weights > 0 (e.g. the vertices' lumped masses); `R_hat` the rest rotation; `epsilon` the planar
/// threshold (0.001 in the paper). Throws Error when m < 3, sizes disagree, a weight is not
/// positive, or the vertices are (nearly) collinear (λ₂ < ε λ₃: no rotation can be fitted; the
/// message says so).
InterfaceFrameModel fit_interface_frame(const Points& X, const Eigen::MatrixXd& U,
                                        const Eigen::VectorXd& w,
                                        const Mat3& R_hat = Mat3::Identity(),
                                        double epsilon = 1e-3);

}  // namespace substruct
