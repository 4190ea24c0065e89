// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/fem/element_kernels.hpp"

#include <cmath>

#include <Eigen/Geometry>
#include <Eigen/LU>

#include "detail/kernel_common.hpp"
#include "detail/neohookean_kernel.hpp"
#include "substruct/fem/tet_geometry.hpp"

namespace substruct {

namespace {

using detail::Mat43;
using detail::mirror_lower;
using detail::nodal_forces;

// ∇N_a · ∇N_b.
double dot_rows(const Mat43& G, int a, int b) {
  return G(a, 0) * G(b, 0) + G(a, 1) * G(b, 1) + G(a, 2) * G(b, 2);
}

void linear_kernel(const Mat3& F, const Mat43& G, double V, double lambda, double mu,
                   double* energy, Vec12* force, Mat12* K) {
  if (energy || force) {
    const Mat3 eps = 0.5 * (F + F.transpose()) - Mat3::Identity();  // ε = sym(F) − I
    const double tr = eps.trace();
    if (energy) *energy = V * (mu * eps.squaredNorm() + 0.5 * lambda * tr * tr);
    if (force) nodal_forces(2 * mu * eps + lambda * tr * Mat3::Identity(), G, V, *force);
  }
  if (K) {
    // dP = 2μ sym(dF) + λ tr(dF) I with dF = δx ∇N_bᵀ:
    // K_ab = V [μ (∇N_a·∇N_b) I + μ ∇N_b ∇N_aᵀ + λ ∇N_a ∇N_bᵀ].
    const double Vmu = V * mu, Vlambda = V * lambda;
    for (int b = 0; b < 4; ++b)
      for (int a = 0; a <= b; ++a) {
        const double diagonal = Vmu * dot_rows(G, a, b);
        for (int j = 0; j < 3; ++j)
          for (int i = 0; i < 3; ++i)
            (*K)(3 * a + i, 3 * b + j) =
                Vmu * G(b, i) * G(a, j) + Vlambda * G(a, i) * G(b, j) + (i == j ? diagonal : 0.0);
      }
    mirror_lower(*K);
  }
}

void stvk_kernel(const Mat3& F, const Mat43& G, double V, double lambda, double mu, double* energy,
                 Vec12* force, Mat12* K) {
  const Mat3 E = 0.5 * (F.transpose() * F - Mat3::Identity());  // E = ½(FᵀF − I)
  const double trE = E.trace();
  Mat3 S = 2 * mu * E;  // S = 2μE + λ tr(E) I
  S.diagonal().array() += lambda * trE;
  if (energy) *energy = V * (mu * E.squaredNorm() + 0.5 * lambda * trE * trE);
  if (force) nodal_forces(F * S, G, V, *force);  // P = F S
  if (K) {
    // dP = dF S + F dS, dS = 2μ dE + λ tr(dE) I, dE = sym(Fᵀ dF). With dF = δx ∇N_bᵀ and
    // q_a = F ∇N_a: K_ab = V [(∇N_aᵀ S ∇N_b) I + μ (∇N_a·∇N_b) F Fᵀ + μ q_b q_aᵀ + λ q_a q_bᵀ].
    const Eigen::Matrix<double, 3, 4> q = F * G.transpose();   // q_a
    const Eigen::Matrix<double, 3, 4> Sg = S * G.transpose();  // S ∇N_a
    const Mat3 C = (V * mu) * (F * F.transpose());             // V μ F Fᵀ
    const double Vmu = V * mu, Vlambda = V * lambda;
    for (int b = 0; b < 4; ++b)
      for (int a = 0; a <= b; ++a) {
        const double diagonal = V * (G(a, 0) * Sg(0, b) + G(a, 1) * Sg(1, b) + G(a, 2) * Sg(2, b));
        const double gg = dot_rows(G, a, b);
        for (int j = 0; j < 3; ++j) {
          const double mu_qa_j = Vmu * q(j, a), lambda_qb_j = Vlambda * q(j, b);
          for (int i = 0; i < 3; ++i)
            (*K)(3 * a + i, 3 * b + j) = gg * C(i, j) + q(i, b) * mu_qa_j + q(i, a) * lambda_qb_j +
                                         (i == j ? diagonal : 0.0);
        }
      }
    mirror_lower(*K);
  }
}

// F = RS with det R = +1, and what the corotational kernel needs of it.
struct Polar {
  Mat3 R;
  double strain2;  // ‖S − I‖²
  double trS;      // tr S
  Mat3 B;          // R (tr(S) I − S)⁻¹ Rᵀ
};

// Higham's scaled Newton iteration X ← ½(γX + X⁻ᵀ/γ), X₀ = F, γ = (‖X⁻¹‖/‖X‖)^½ while far from
// convergence: it converges quadratically to the orthogonal polar factor, a rotation when
// det F > 0. Returns false when it has not converged (then the SVD is used).
bool polar_newton(const Mat3& F, Polar& p) {
  Mat3 X = F;
  bool scaled = true;
  for (int k = 0; k < 40; ++k) {
    const Mat3 X_inv_T = X.inverse().transpose();
    const double gamma = scaled ? std::sqrt(std::sqrt(X_inv_T.squaredNorm() / X.squaredNorm())) : 1;
    const Mat3 next = 0.5 * (gamma * X + X_inv_T / gamma);
    const double change2 = (next - X).squaredNorm();
    X = next;
    if (change2 < 1e-18) {  // ‖ΔX‖ < 1e-9: the error is now O(1e-18), below rounding
      p.R = X;
      Mat3 S = X.transpose() * F;
      S = 0.5 * (S + S.transpose());
      p.trS = S.trace();
      p.strain2 = (S - Mat3::Identity()).squaredNorm();
      Mat3 A = -S;  // A = tr(S) I − S, positive definite (eigenvalues σ_i + σ_j)
      A.diagonal().array() += p.trS;
      p.B = X * A.inverse() * X.transpose();
      return true;
    }
    if (change2 < 1e-4) scaled = false;
  }
  return false;
}

// F = U Σ Vᵀ with det U = det V = +1 (σ₃ < 0 for an inverted element): R = U Vᵀ,
// S = V Σ Vᵀ, tr(S) I − S = V D Vᵀ with D = diag(tr S − σ_i), so B = U D⁻¹ Uᵀ. Where tr S − σ_i
// nearly vanishes R is not differentiable; it is clamped to ±1e-8 there.
Polar polar_svd(const Mat3& F) {
  const detail::SignedSvd svd = detail::signed_svd(F);
  const Mat3& U = svd.U;
  const Mat3& V = svd.V;
  const Vec3& sigma = svd.sigma;
  Polar p;
  p.R = U * V.transpose();
  p.trS = sigma.sum();
  p.strain2 = (sigma.array() - 1).square().sum();
  Vec3 D_inv;
  for (int i = 0; i < 3; ++i) {
    double d = p.trS - sigma[i];
    if (std::abs(d) < 1e-8) d = d < 0 ? -1e-8 : 1e-8;
    D_inv[i] = 1 / d;
  }
  p.B = U * D_inv.asDiagonal() * U.transpose();
  return p;
}

Polar polar_decomposition(const Mat3& F) {
  // The Newton iteration for well-shaped elements (det F bounded away from 0 relative to the
  // size of F, so it converges in a few steps); the SVD for inverted and nearly flat ones.
  const double mean_sigma2 = F.squaredNorm() / 3;
  Polar p;
  if (F.determinant() > 1e-3 * mean_sigma2 * std::sqrt(mean_sigma2) && polar_newton(F, p)) return p;
  return polar_svd(F);
}

void corotational_kernel(const Mat3& F, const Mat43& G, double V, double lambda, double mu,
                         double* energy, Vec12* force, Mat12* K) {
  const Polar p = polar_decomposition(F);
  const Mat3& R = p.R;
  // Ψ = μ ‖F − R‖² + λ/2 tr(RᵀF − I)² = μ ‖S − I‖² + λ/2 (tr S − 3)².
  if (energy) *energy = V * (mu * p.strain2 + 0.5 * lambda * (p.trS - 3) * (p.trS - 3));
  if (force) nodal_forces(2 * mu * (F - R) + lambda * (p.trS - 3) * R, G, V, *force);  // P
  if (K) {
    // dP = 2μ (dF − dR) + λ tr(RᵀdF) R + λ (tr S − 3) dR, dR = R [w]× where
    // (tr(S) I − S) w = vec(RᵀdF − dFᵀR) (the skew part of RᵀdF = [w]× S + S [w]× + dS).
    // With dF = δx ∇N_bᵀ: w = (tr(S) I − S)⁻¹ [∇N_b]× Rᵀδx. With r_a = R ∇N_a,
    // B = R (tr(S) I − S)⁻¹ Rᵀ and c = λ (tr S − 3) − 2μ:
    //   K_ab = V [2μ (∇N_a·∇N_b) I + λ r_a r_bᵀ − c [r_a]× B [r_b]×].
    const Eigen::Matrix<double, 3, 4> r = R * G.transpose();
    const double c = lambda * (p.trS - 3) - 2 * mu;
    const Mat3& B = p.B;
    for (int b = 0; b < 4; ++b) {
      const Vec3 rb = r.col(b);
      Mat3 T;  // T = −c V B [r_b]×
      T.col(0) = rb[2] * B.col(1) - rb[1] * B.col(2);
      T.col(1) = rb[0] * B.col(2) - rb[2] * B.col(0);
      T.col(2) = rb[1] * B.col(0) - rb[0] * B.col(1);
      T *= -c * V;
      for (int a = 0; a <= b; ++a) {
        const Vec3 ra = r.col(a);
        const double diagonal = 2 * mu * V * dot_rows(G, a, b);
        for (int j = 0; j < 3; ++j) {
          const Vec3 rT = ra.cross(Vec3(T.col(j)));  // column j of [r_a]× T
          const double lambda_rb_j = V * lambda * rb[j];
          for (int i = 0; i < 3; ++i)
            (*K)(3 * a + i, 3 * b + j) = ra[i] * lambda_rb_j + rT[i] + (i == j ? diagonal : 0.0);
        }
      }
    }
    mirror_lower(*K);
  }
}

}  // namespace

void element_forces(MaterialModel model, const ElementInput& in, double* energy, Vec12* force,
                    Mat12* stiffness) {
  const Mat3 F = detail::deformation_gradient(in);  // F = Ds Dm⁻¹
  const Mat43 G = shape_gradients(*in.Dm_inv);
  switch (model) {
    case MaterialModel::linear:
      linear_kernel(F, G, in.volume, in.lambda, in.mu, energy, force, stiffness);
      return;
    case MaterialModel::stvk:
      stvk_kernel(F, G, in.volume, in.lambda, in.mu, energy, force, stiffness);
      return;
    case MaterialModel::corotational:
      corotational_kernel(F, G, in.volume, in.lambda, in.mu, energy, force, stiffness);
      return;
    case MaterialModel::neohookean:
      detail::neohookean_kernel(F, G, in.volume, in.lambda, in.mu, detail::Tangent::projected,
                                energy, force, stiffness);
      return;
  }
}

}  // namespace substruct
