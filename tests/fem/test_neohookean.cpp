// SPDX-License-Identifier: GPL-3.0-or-later
// The invertible neo-Hookean element (MaterialModel::neohookean): its force and exact tangent
// against finite differences (also for flat and inverted elements), its projected tangent
// positive semi-definite under strong compression and inversion where StVK's and the exact one
// are indefinite, linear elasticity at rest, and an inverted element that recovers where StVK's
// stays inverted.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/LU>

#include "../../framework/src/fem/detail/neohookean_kernel.hpp"
#include "substruct/fem/element_kernels.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/mesh/tet_mesh.hpp"
#include "support/affine_tet.hpp"

namespace substruct {
namespace {

using Mat43 = Eigen::Matrix<double, 4, 3>;
constexpr auto kModel = MaterialModel::neohookean;

// One rest tet (edges of unit size, not right-angled) of rubber (E = 1e6 Pa, ν = 0.45).
struct Tet : testing::RestTet {
  Mat43 G;

  Tet()
      : RestTet(
            (Vec12() << 0.0, 0.0, 0.0, 1.1, 0.2, -0.1, 0.2, 1.0, 0.1, 0.1, 0.3, 0.9).finished()),
        G(shape_gradients(Dm_inv)) {}
  Mat3 F(const Vec12& x) const {
    Mat3 Ds;
    for (int c = 0; c < 3; ++c) Ds.col(c) = x.segment<3>(3 * (c + 1)) - x.segment<3>(0);
    return Ds * Dm_inv;
  }
  // The kernel through the public entry point (projected tangent) or with the exact Hessian.
  void eval(MaterialModel model, const Vec12& x, double* E, Vec12* f, Mat12* K) const {
    element_forces(model, input(x), E, f, K);
  }
  double energy(const Vec12& x) const {
    double E = 0;
    eval(kModel, x, &E, nullptr, nullptr);
    return E;
  }
  Vec12 force(const Vec12& x) const {
    Vec12 f;
    eval(kModel, x, nullptr, &f, nullptr);
    return f;
  }
  Mat12 tangent(const Vec12& x, detail::Tangent t) const {
    Mat12 K;
    detail::neohookean_kernel(F(x), G, V, lambda, mu, t, nullptr, nullptr, &K);
    return K;
  }
};

using testing::Deformation;
using testing::rotation;

// x = F X with F = Q₁ diag(σ) Q₂ᵀ.
Vec12 stretched(const Tet& tet, const Vec3& sigma, double a1 = 0.7, double a2 = -1.9) {
  const Mat3 F = rotation(a1, Vec3(-1, 0.5, 2)) * sigma.asDiagonal() *
                 rotation(a2, Vec3(0.3, 1, -0.2)).transpose();
  return tet.affine(F, Vec3(0.1, 0.2, 0.3));
}

// Every regime of the energy: plain neo-Hookean (σ ≥ ε = 0.1), one or two stretches below ε,
// repeated stretches, nearly flat and inverted (σ₃ < 0).
std::vector<Deformation> states(const Tet& tet) {
  Vec12 noise;  // a fixed perturbation of every coordinate, |n_i| ≤ 1
  noise << 0.3, -0.8, 0.5, 0.9, 0.1, -0.4, -0.6, 0.7, 0.2, -0.2, -0.9, 0.6;
  return {{"moderate strain", tet.X + 0.15 * noise},
          {"large rotation and stretch", stretched(tet, Vec3(1.4, 1.1, 0.7), 2.5, 1.0)},
          {"strong compression", stretched(tet, Vec3(0.6, 0.3, 0.15))},
          {"one stretch below the threshold", stretched(tet, Vec3(1.2, 0.7, 0.04))},
          {"two stretches below the threshold", stretched(tet, Vec3(0.9, 0.08, 0.05))},
          {"repeated stretches", stretched(tet, Vec3(0.5, 0.5, 0.5))},
          {"nearly flat", stretched(tet, Vec3(1.2, 0.9, 5e-4))},
          {"inverted", stretched(tet, Vec3(1.3, 0.8, -0.4))},
          {"inverted below the threshold", stretched(tet, Vec3(0.9, 0.06, -0.03))}};
}

// Central differences with h = 1e-7 on unit edges: truncation O(h² · Ψ''') and rounding
// O(ε_mach Ψ/h), both below 1e-6 relative (the energy is C² with bounded third derivatives, the
// stiffest state being the one below the threshold with ℓ'' = −1/ε² = −100).
constexpr double kStep = 1e-7;
constexpr double kTolerance = 1e-6;

TEST(NeoHookean, ForceIsTheEnergyGradient) {
  const Tet tet;
  for (const auto& [name, x] : states(tet)) {
    SCOPED_TRACE(name);
    Vec12 fd;
    for (int i = 0; i < 12; ++i) {
      Vec12 xp = x, xm = x;
      xp[i] += kStep;
      xm[i] -= kStep;
      fd[i] = (tet.energy(xp) - tet.energy(xm)) / (2 * kStep);
    }
    const Vec12 f = tet.force(x);
    ASSERT_GT(f.norm(), 0);
    EXPECT_LE((f - fd).norm(), kTolerance * f.norm());
  }
}

TEST(NeoHookean, ExactTangentIsTheForceJacobian) {
  const Tet tet;
  for (const auto& [name, x] : states(tet)) {
    SCOPED_TRACE(name);
    Mat12 fd;
    for (int i = 0; i < 12; ++i) {
      Vec12 xp = x, xm = x;
      xp[i] += kStep;
      xm[i] -= kStep;
      fd.col(i) = (tet.force(xp) - tet.force(xm)) / (2 * kStep);
    }
    const Mat12 K = tet.tangent(x, detail::Tangent::exact);
    EXPECT_LE((K - fd).norm(), kTolerance * K.norm());
  }
}

TEST(NeoHookean, ElementForcesReturnsTheProjectedTangentAndAllOutputsAtOnce) {
  const Tet tet;
  for (const auto& [name, x] : states(tet)) {
    SCOPED_TRACE(name);
    double E;
    Vec12 f;
    Mat12 K;
    tet.eval(kModel, x, &E, &f, &K);
    EXPECT_EQ(E, tet.energy(x));
    EXPECT_EQ(f, tet.force(x));
    EXPECT_EQ(K, tet.tangent(x, detail::Tangent::projected));
    EXPECT_EQ(K, K.transpose());
  }
}

TEST(NeoHookean, AtRestItIsLinearElasticity) {
  // Ψ̂'s Hessian at σ = 1 is 2μ I + λ 11ᵀ, e₁ = 2μ, e₂ = 0: the small-strain tensor, already
  // semi-definite, so the projection leaves it alone.
  const Tet tet;
  Mat12 K_linear, K;
  tet.eval(MaterialModel::linear, tet.X, nullptr, nullptr, &K_linear);
  tet.eval(kModel, tet.X, nullptr, nullptr, &K);
  EXPECT_LE((K - K_linear).norm(), 1e-12 * K_linear.norm());
  EXPECT_LE(std::abs(tet.energy(tet.X)), 1e-24 * tet.V * tet.lambda);
  EXPECT_LE(tet.force(tet.X).norm(), 1e-12 * tet.V * tet.lambda);
  // A rigid motion is stress-free, and the energy is frame-indifferent.
  const Mat3 R = rotation(2.0, Vec3(0.3, -1, 0.6));
  EXPECT_LE(std::abs(tet.energy(tet.affine(R, Vec3(4, -2, 1)))), 1e-24 * tet.V * tet.lambda);
  for (const auto& [name, x] : states(tet)) {
    Vec12 Rx;
    for (int a = 0; a < 4; ++a) Rx.segment<3>(3 * a) = R * x.segment<3>(3 * a);
    EXPECT_NEAR(tet.energy(Rx), tet.energy(x), 1e-12 * tet.energy(x)) << name;
  }
}

TEST(NeoHookean, ClosedFormEnergyAboveTheThreshold) {
  // F = diag(s₁, s₂, s₃): Ψ = μ/2 (Σ s_i² − 3) − μ ln J + λ/2 (ln J)².
  const Tet tet;
  const Vec3 s(1.3, 0.6, 0.25);
  const double lnJ = std::log(s.prod());
  const double expected =
      tet.V * (tet.mu / 2 * (s.squaredNorm() - 3) - tet.mu * lnJ + tet.lambda / 2 * lnJ * lnJ);
  EXPECT_NEAR(tet.energy(tet.affine(s.asDiagonal().toDenseMatrix())), expected, 1e-13 * expected);
}

TEST(NeoHookean, ProjectedTangentIsSemidefiniteUnderStrongCompressionAndInversion) {
  // Random stretches in [0.02, 0.5], a third of them inverted: the projected element stiffness
  // has no eigenvalue below −1e-12 of its largest, while the exact Hessian and StVK's tangent
  // are indefinite in most of these states.
  const Tet tet;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> stretch(0.02, 0.5), angle(-3, 3);
  int exact_indefinite = 0, stvk_indefinite = 0;
  const int samples = 60;
  for (int k = 0; k < samples; ++k) {
    Vec3 s(stretch(rng), stretch(rng), stretch(rng));
    if (k % 3 == 0) s[2] = -s[2];
    const Vec12 x = stretched(tet, s, angle(rng), angle(rng));
    const Mat12 K = tet.tangent(x, detail::Tangent::projected);
    const auto lowest = [](const Mat12& A) {
      const Eigen::Matrix<double, 12, 1> e = Eigen::SelfAdjointEigenSolver<Mat12>(A).eigenvalues();
      return e[0] / e[11];
    };
    EXPECT_GE(lowest(K), -1e-12) << "σ = " << s.transpose();
    if (lowest(tet.tangent(x, detail::Tangent::exact)) < -1e-6) ++exact_indefinite;
    Mat12 K_stvk;
    tet.eval(MaterialModel::stvk, x, nullptr, nullptr, &K_stvk);
    if (lowest(K_stvk) < -1e-6) ++stvk_indefinite;
  }
  std::printf(
      "[ neohookean ] %d of %d strongly compressed states: exact Hessian indefinite in %d, "
      "StVK's tangent in %d, the projected tangent in none\n",
      samples, samples, exact_indefinite, stvk_indefinite);
  EXPECT_GT(exact_indefinite, samples / 2);
  EXPECT_GT(stvk_indefinite, samples / 2);
}

TEST(NeoHookean, InvertedElementRecovers) {
  // Vertices 0, 1, 2 held, vertex 3 reflected through the plane of the other three: the element
  // is the mirror image of its rest shape. StVK cannot tell (FᵀF = I: no energy, no force), so it
  // stays inverted; the neo-Hookean energy is large there and Newton's method on vertex 3 with
  // the projected tangent (positive definite: a Cholesky factor exists at every iterate) and a
  // backtracking line search brings it back to rest.
  const Tet tet;
  const Vec3 p0 = tet.X.segment<3>(0), p3 = tet.X.segment<3>(9);
  const Vec3 n = (tet.X.segment<3>(3) - p0).cross(tet.X.segment<3>(6) - p0).normalized();
  Vec12 x = tet.X;
  x.segment<3>(9) = p3 - 2 * n.dot(p3 - p0) * n;
  ASSERT_LT(tet.F(x).determinant(), -0.99);

  double E_stvk;
  Vec12 f_stvk;
  tet.eval(MaterialModel::stvk, x, &E_stvk, &f_stvk, nullptr);
  EXPECT_LE(E_stvk, 1e-24 * tet.V * tet.lambda);
  EXPECT_LE(f_stvk.norm(), 1e-10 * tet.V * tet.lambda);
  const double E_inverted = tet.energy(x);
  EXPECT_GT(E_inverted, tet.V * tet.lambda);

  int iterations = 0;
  for (; iterations < 100; ++iterations) {
    double E;
    Vec12 f;
    Mat12 K;
    tet.eval(kModel, x, &E, &f, &K);
    const Vec3 g = f.segment<3>(9);
    if (g.norm() < 1e-10 * tet.V * tet.lambda) break;
    const Eigen::LLT<Mat3> llt(K.block<3, 3>(9, 9));
    ASSERT_EQ(llt.info(), Eigen::Success) << "iteration " << iterations;
    const Vec3 step = -llt.solve(g);
    double t = 1;
    Vec12 trial = x;
    for (int cut = 0; cut < 60; ++cut, t /= 2) {
      trial.segment<3>(9) = x.segment<3>(9) + t * step;
      if (tet.energy(trial) < E) break;
    }
    x = trial;
  }
  std::printf(
      "[ neohookean ] inverted element: energy %.4g J (StVK: %.2g J), back at rest after "
      "%d Newton iterations\n",
      E_inverted, E_stvk, iterations);
  EXPECT_LT(iterations, 100);
  EXPECT_GT(tet.F(x).determinant(), 0);
  EXPECT_LE((x.segment<3>(9) - p3).norm(), 1e-8);
  EXPECT_LE(tet.energy(x), 1e-12 * E_inverted);
}

}  // namespace
}  // namespace substruct
