// SPDX-License-Identifier: GPL-3.0-or-later
// The invertible compressible neo-Hookean element.
//
// Energy (Bonet & Wood's compressible neo-Hookean, as Vega's IsotropicHyperelasticFEM):
//   Ψ(F) = μ/2 (tr(FᵀF) − 3) − μ ln J + λ/2 (ln J)²,   J = det F.
// It is isotropic, so it is a function of the principal stretches of F = U Σ Vᵀ, taken from the
// rotation-variant SVD (det U = det V = +1, σ₃ < 0 for an inverted element; Irving et al. 2004):
//   Ψ̂(σ) = μ/2 (Σ σ_i² − 3) − μ L + λ/2 L²,   L = Σ ℓ(σ_i),
// with ℓ = ln above the threshold ε and its second-order Taylor polynomial at ε below it. So Ψ̂ is
// C² everywhere, equal to neo-Hookean while every σ_i ≥ ε, finite for flat and inverted elements,
// and −ℓ is convex and decreasing below ε: an inverted element's energy grows as its σ₃ goes
// negative, and its force pushes it back through the flat state (the energy-based form of Irving
// et al.'s clamped stretches, as in Teran et al. 2005 / Stomakhin et al. 2012).
//
// Stress (Irving et al. 2004, Eq. 2): P = U P̂ Vᵀ, P̂ = diag(∂Ψ̂/∂σ_i),
//   ∂Ψ̂/∂σ_i = μ σ_i + (λL − μ) ℓ'(σ_i).
// Tangent (Teran et al. 2005, §5): in the rotated frame, dP̂ = ∂P̂/∂F̂ [dF̂], dF̂ = Uᵀ dF V, is
// block diagonal: a 3×3 block A_ij = ∂²Ψ̂/∂σ_i∂σ_j on (F̂₁₁, F̂₂₂, F̂₃₃) and for each pair i < j a
// 2×2 block on (F̂_ij, F̂_ji) with eigenvalues
//   e₁ = (Ψ̂_i − Ψ̂_j)/(σ_i − σ_j) = μ + (λL − μ) (ℓ'_i − ℓ'_j)/(σ_i − σ_j)   (on F̂_ij + F̂_ji)
//   e₂ = (Ψ̂_i + Ψ̂_j)/(σ_i + σ_j) = μ + (λL − μ) (ℓ'_i + ℓ'_j)/(σ_i + σ_j)   (on F̂_ij − F̂_ji),
// both quotients evaluated in closed form, so repeated stretches are exact. The projected tangent
// clamps A's eigenvalues and e₁, e₂ at 0: each element's K is then positive semi-definite
// (Teran et al. 2005, §5), and M + γK is positive definite for Newton's solves.
#include "detail/neohookean_kernel.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

namespace substruct::detail {

namespace {

constexpr double kEps = kInversionThreshold;

// ℓ(σ) = ln σ for σ ≥ ε; ℓ(σ) = ln ε + (σ − ε)/ε − (σ − ε)²/(2ε²) below: value, ℓ', ℓ''.
struct ExtendedLog {
  double value, d1, d2;
};

ExtendedLog extended_log(double s) {
  if (s >= kEps) return {std::log1p(s - 1), 1 / s, -1 / (s * s)};  // log1p: exact near σ = 1
  const double t = s - kEps;
  return {std::log(kEps) + t / kEps - t * t / (2 * kEps * kEps), (2 * kEps - s) / (kEps * kEps),
          -1 / (kEps * kEps)};
}

// (ℓ'(a) − ℓ'(b)) / (a − b) without cancellation: −1/(ab) above ε, −1/ε² below, and across ε
// (p = a − ε, q = ε − b) the weighted mean −(p/(aε) + q/ε²)/(p + q) of the two.
double difference_quotient(double a, double b) {
  if (a < b) std::swap(a, b);
  if (b >= kEps) return -1 / (a * b);
  if (a <= kEps) return -1 / (kEps * kEps);
  const double p = a - kEps, q = kEps - b;
  return -(p / (a * kEps) + q / (kEps * kEps)) / (p + q);
}

// (ℓ'(a) + ℓ'(b)) / (a + b): 1/(ab) above ε. a + b vanishes only for an inverted element with
// σ₃ = −σ₂ (where the rotation-variant SVD is not unique); it is clamped to ±1e-6 there.
double sum_quotient(double a, double b) {
  if (a >= kEps && b >= kEps) return 1 / (a * b);
  double sum = a + b;
  if (std::abs(sum) < 1e-6) sum = sum < 0 ? -1e-6 : 1e-6;
  return (extended_log(a).d1 + extended_log(b).d1) / sum;
}

// A symmetric 3×3 block with its negative eigenvalues replaced by 0.
Mat3 clamp_to_semidefinite(const Mat3& A) {
  if (Eigen::LLT<Mat3>(A).info() == Eigen::Success) return A;
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(A);
  const Vec3 values = eig.eigenvalues().cwiseMax(0.0);
  return eig.eigenvectors() * values.asDiagonal() * eig.eigenvectors().transpose();
}

}  // namespace

void neohookean_kernel(const Mat3& F, const Mat43& G, double V, double lambda, double mu,
                       Tangent tangent, double* energy, Vec12* force, Mat12* K) {
  const SignedSvd svd = signed_svd(F);
  const Vec3& s = svd.sigma;
  ExtendedLog l[3];
  double L = 0;  // L = Σ ℓ(σ_i) (= ln J above ε)
  for (int i = 0; i < 3; ++i) {
    l[i] = extended_log(s[i]);
    L += l[i].value;
  }
  const double c = lambda * L - mu;
  if (energy) {
    // μ/2 (Σσ² − 3) − μL = μ Σ (d − ℓ + d²/2), d = σ − 1: no cancellation of O(μ) terms, so a
    // rest or rigid state (d ~ 1e-16) has an energy of O(μ d²), not O(μ d).
    double sum = 0;
    for (int i = 0; i < 3; ++i) {
      const double d = s[i] - 1;
      sum += d - l[i].value + 0.5 * d * d;
    }
    *energy = V * (mu * sum + 0.5 * lambda * L * L);
  }
  if (force) {
    Vec3 dpsi;  // ∂Ψ̂/∂σ_i = μ σ_i + (λL − μ) ℓ'(σ_i)
    for (int i = 0; i < 3; ++i) dpsi[i] = mu * s[i] + c * l[i].d1;
    nodal_forces(svd.U * dpsi.asDiagonal() * svd.V.transpose(), G, V, *force);
  }
  if (!K) return;

  // A_ij = ∂²Ψ̂/∂σ_i∂σ_j = λ ℓ'_i ℓ'_j + δ_ij (μ + (λL − μ) ℓ''_i).
  Mat3 A;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i)
      A(i, j) = lambda * l[i].d1 * l[j].d1 + (i == j ? mu + c * l[i].d2 : 0);
  if (tangent == Tangent::projected) A = clamp_to_semidefinite(A);
  // Ĥ: ∂vec(P̂)/∂vec(F̂), entry F̂(r, c) at r + 3c.
  Eigen::Matrix<double, 9, 9> H = Eigen::Matrix<double, 9, 9>::Zero();
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) H(4 * i, 4 * j) = A(i, j);
  constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (const auto& [i, j] : kPairs) {
    double e1 = mu + c * difference_quotient(s[i], s[j]);
    double e2 = mu + c * sum_quotient(s[i], s[j]);
    if (tangent == Tangent::projected) {
      e1 = std::max(e1, 0.0);
      e2 = std::max(e2, 0.0);
    }
    const int ij = i + 3 * j, ji = j + 3 * i;
    H(ij, ij) = H(ji, ji) = 0.5 * (e1 + e2);
    H(ij, ji) = H(ji, ij) = 0.5 * (e1 - e2);
  }
  // dF̂ = Uᵀ dF V with dF = Σ_a δx_a ∇N_aᵀ: dF̂(r, c) = Σ_a,i U(i, r) (G V)(a, c) δx_ai = (B
  // δx)_{r+3c}, and δf_ai = V Σ_rc U(i, r) (G V)(a, c) dP̂(r, c): K = V Bᵀ Ĥ B.
  const Mat43 GV = G * svd.V;
  Eigen::Matrix<double, 9, 12> B;
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      for (int cc = 0; cc < 3; ++cc)
        for (int r = 0; r < 3; ++r) B(r + 3 * cc, 3 * a + i) = svd.U(i, r) * GV(a, cc);
  const Eigen::Matrix<double, 9, 12> HB = H * B;
  K->noalias() = V * (B.transpose() * HB);
  mirror_lower(*K);
}

}  // namespace substruct::detail
