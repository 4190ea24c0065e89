// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/fem/element_kernels.hpp"

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "substruct/core/error.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "support/affine_tet.hpp"

namespace substruct {
namespace {

constexpr MaterialModel kModels[] = {MaterialModel::linear, MaterialModel::stvk,
                                     MaterialModel::corotational};

// A general (not right-angled) rest tet with unit-size edges, and a rubber-like material
// (E = 1e6 Pa, ν = 0.45: λ ≈ 3.1e6, μ ≈ 3.4e5; the errors below are relative, so scale-free).
struct Element : testing::RestTet {
  Element()
      : RestTet((Vec12() << 0.1, -0.2, 0.0,  //
                 1.2, 0.1, -0.1,             //
                 0.3, 0.9, 0.2,              //
                 0.2, 0.1, 1.1)
                    .finished()) {}

  double energy(MaterialModel m, const Vec12& x) const {
    double E = 0;
    element_forces(m, input(x), &E, nullptr, nullptr);
    return E;
  }
  Vec12 force(MaterialModel m, const Vec12& x) const {
    Vec12 f;
    element_forces(m, input(x), nullptr, &f, nullptr);
    return f;
  }
  Mat12 stiffness(MaterialModel m, const Vec12& x) const {
    Mat12 K;
    element_forces(m, input(x), nullptr, nullptr, &K);
    return K;
  }
};

using testing::Deformation;
using testing::rotation;

// Random moderate strain, a large rotation of a strained element, an inverted element
// x = F X with F = Q₁ diag(1.3, 0.8, −0.4) Q₂ᵀ (det F < 0; for the corotational model
// tr S − σ_i = 0.4, 0.9, 2.1 stay away from the non-differentiable set), and a nearly flat one.
std::vector<Deformation> deformations(const Element& el) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> uniform(-1, 1);
  Vec12 noise;
  for (auto& n : noise) n = uniform(rng);
  Mat3 A;
  for (auto& a : A.reshaped()) a = uniform(rng);
  std::vector<Deformation> d;
  d.push_back({"moderate strain", el.X + 0.2 * noise});
  d.push_back(
      {"large rotation",
       el.affine(rotation(2.5, Vec3(1, 2, 3)) * (Mat3::Identity() + 0.25 * A), Vec3(0.5, -1, 2)) +
           0.05 * noise});
  const Mat3 F = rotation(0.7, Vec3(-1, 0.5, 2)) * Vec3(1.3, 0.8, -0.4).asDiagonal() *
                 rotation(-1.9, Vec3(0.3, 1, -0.2)).transpose();
  d.push_back({"inverted", el.affine(F, Vec3(0.1, 0.2, 0.3))});
  // Nearly flat but not inverted: σ = (1.2, 0.9, 5e-4).
  const Mat3 flat = rotation(-0.4, Vec3(2, 1, 0)) * Vec3(1.2, 0.9, 5e-4).asDiagonal() *
                    rotation(1.1, Vec3(0, 1, 1)).transpose();
  d.push_back({"nearly flat", el.affine(flat)});
  return d;
}

// Central differences with h = 1e-6 (edges are O(1)): truncation O(h²) ≈ 1e-12 relative,
// rounding O(ε/h) ≈ 1e-10 relative, both far below the 1e-6 asserted.
constexpr double kStep = 1e-6;
constexpr double kFdTolerance = 1e-6;

TEST(ElementKernels, ForceIsTheEnergyGradient) {
  const Element el;
  for (MaterialModel model : kModels)
    for (const auto& [name, x] : deformations(el)) {
      SCOPED_TRACE(std::string(to_string(model)) + ", " + name);
      Vec12 fd;
      for (int i = 0; i < 12; ++i) {
        Vec12 xp = x, xm = x;
        xp[i] += kStep;
        xm[i] -= kStep;
        fd[i] = (el.energy(model, xp) - el.energy(model, xm)) / (2 * kStep);
      }
      const Vec12 f = el.force(model, x);
      ASSERT_GT(f.norm(), 0);
      EXPECT_LE((f - fd).norm(), kFdTolerance * f.norm());
    }
}

TEST(ElementKernels, StiffnessIsTheForceJacobian) {
  const Element el;
  for (MaterialModel model : kModels)
    for (const auto& [name, x] : deformations(el)) {
      SCOPED_TRACE(std::string(to_string(model)) + ", " + name);
      Mat12 fd;
      for (int i = 0; i < 12; ++i) {
        Vec12 xp = x, xm = x;
        xp[i] += kStep;
        xm[i] -= kStep;
        fd.col(i) = (el.force(model, xp) - el.force(model, xm)) / (2 * kStep);
      }
      const Mat12 K = el.stiffness(model, x);
      EXPECT_LE((K - fd).norm(), kFdTolerance * K.norm());
    }
}

TEST(ElementKernels, StiffnessIsExactlySymmetric) {
  const Element el;
  for (MaterialModel model : kModels)
    for (const auto& [name, x] : deformations(el)) {
      SCOPED_TRACE(std::string(to_string(model)) + ", " + name);
      const Mat12 K = el.stiffness(model, x);
      EXPECT_EQ(K, K.transpose());
    }
}

TEST(ElementKernels, OneCallGivesAllOutputs) {
  const Element el;
  for (MaterialModel model : kModels)
    for (const auto& [name, x] : deformations(el)) {
      SCOPED_TRACE(std::string(to_string(model)) + ", " + name);
      double E;
      Vec12 f;
      Mat12 K;
      element_forces(model, el.input(x), &E, &f, &K);
      EXPECT_EQ(E, el.energy(model, x));
      EXPECT_EQ(f, el.force(model, x));
      EXPECT_EQ(K, el.stiffness(model, x));
    }
}

TEST(ElementKernels, ZeroEnergyAndForceAtRest) {
  const Element el;
  // F = Dm Dm⁻¹ = I up to rounding (1e-16): the strain is O(1e-16), the energy O(1e-32) V λ, the
  // force O(1e-16) V λ/h.
  const double force_scale = el.V * el.lambda;
  for (MaterialModel model : kModels) {
    SCOPED_TRACE(to_string(model));
    EXPECT_LE(std::abs(el.energy(model, el.X)), 1e-24 * el.V * el.lambda);
    EXPECT_LE(el.force(model, el.X).norm(), 1e-12 * force_scale);
  }
}

TEST(ElementKernels, RigidMotionIsStressFreeForNonlinearModels) {
  const Element el;
  const double force_scale = el.V * el.lambda;
  const Vec12 x = el.affine(rotation(2.0, Vec3(0.3, -1, 0.6)), Vec3(4, -2, 1));
  for (MaterialModel model : {MaterialModel::stvk, MaterialModel::corotational}) {
    SCOPED_TRACE(to_string(model));
    EXPECT_LE(std::abs(el.energy(model, x)), 1e-24 * el.V * el.lambda);
    EXPECT_LE(el.force(model, x).norm(), 1e-12 * force_scale);
  }
  // Small-strain elasticity is not rotation invariant: ε = sym(R) − I ≠ 0.
  EXPECT_GT(el.energy(MaterialModel::linear, x), 0.1 * el.V * el.mu);
}

TEST(ElementKernels, NonlinearModelsAreFrameIndifferent) {
  // E(Qx) = E(x) and f(Qx) = Q f(x); differentiating, K (ω × x) = ω × f.
  const Element el;
  const Mat3 Q = rotation(-2.2, Vec3(1, 1, -0.5));
  const Vec3 omega(0.3, -0.8, 0.5);
  for (MaterialModel model : {MaterialModel::stvk, MaterialModel::corotational})
    for (const auto& [name, x] : deformations(el)) {
      SCOPED_TRACE(std::string(to_string(model)) + ", " + name);
      Vec12 Qx, omega_x, omega_f, Qf;
      const Vec12 f = el.force(model, x);
      for (int a = 0; a < 4; ++a) {
        Qx.segment<3>(3 * a) = Q * x.segment<3>(3 * a);
        omega_x.segment<3>(3 * a) = omega.cross(Vec3(x.segment<3>(3 * a)));
        omega_f.segment<3>(3 * a) = omega.cross(Vec3(f.segment<3>(3 * a)));
        Qf.segment<3>(3 * a) = Q * f.segment<3>(3 * a);
      }
      const double E = el.energy(model, x);
      EXPECT_NEAR(el.energy(model, Qx), E, 1e-12 * E);
      EXPECT_LE((el.force(model, Qx) - Qf).norm(), 1e-12 * f.norm());
      const Mat12 K = el.stiffness(model, x);
      EXPECT_LE((K * omega_x - omega_f).norm(), 1e-12 * K.norm() * omega_x.norm());
    }
}

TEST(ElementKernels, TranslationsAreInTheNullSpace) {
  const Element el;
  for (MaterialModel model : kModels)
    for (const auto& [name, x] : deformations(el)) {
      SCOPED_TRACE(std::string(to_string(model)) + ", " + name);
      const Mat12 K = el.stiffness(model, x);
      const Vec12 f = el.force(model, x);
      for (int axis = 0; axis < 3; ++axis) {
        Vec12 t = Vec12::Zero();
        for (int a = 0; a < 4; ++a) t[3 * a + axis] = 1;
        EXPECT_LE((K * t).norm(), 1e-13 * K.norm());
        EXPECT_LE(std::abs(f.dot(t)), 1e-13 * f.norm());  // Σ_a f_a = 0
      }
    }
}

TEST(ElementKernels, TangentsAtRestAgree) {
  // At F = I the three models linearise to the same small-strain elasticity.
  const Element el;
  const Mat12 K_linear = el.stiffness(MaterialModel::linear, el.X);
  const Mat12 K_stvk = el.stiffness(MaterialModel::stvk, el.X);
  const Mat12 K_corot = el.stiffness(MaterialModel::corotational, el.X);
  EXPECT_LE((K_linear - K_stvk).norm(), 1e-12 * K_linear.norm());
  EXPECT_LE((K_linear - K_corot).norm(), 1e-12 * K_linear.norm());
  // The linear model's stiffness does not depend on the state.
  EXPECT_EQ(el.stiffness(MaterialModel::linear, deformations(el)[1].x), K_linear);
  // K₀ is positive semi-definite with exactly the 6 rigid modes in its null space.
  const Eigen::Matrix<double, 12, 1> eig =
      Eigen::SelfAdjointEigenSolver<Mat12>(K_linear).eigenvalues();
  for (int i = 0; i < 6; ++i) EXPECT_LE(std::abs(eig[i]), 1e-12 * eig[11]) << i;
  EXPECT_GT(eig[6], 1e-3 * eig[11]);
}

TEST(ElementKernels, CorotationalMatchesAnSvdPolarDecomposition) {
  // Reference: F = UΣVᵀ, signs fixed so det U = det V = +1, R = UVᵀ;
  // Ψ = μ ‖F − R‖² + λ/2 tr(RᵀF − I)², P = 2μ (F − R) + λ tr(RᵀF − I) R.
  const Element el;
  for (const auto& [name, x] : deformations(el)) {
    SCOPED_TRACE(name);
    Mat3 Ds;
    for (int c = 0; c < 3; ++c) Ds.col(c) = x.segment<3>(3 * (c + 1)) - x.segment<3>(0);
    const Mat3 F = Ds * el.Dm_inv;
    const Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Mat3 U = svd.matrixU(), V = svd.matrixV();
    if (U.determinant() < 0) U.col(2) *= -1;
    if (V.determinant() < 0) V.col(2) *= -1;
    const Mat3 R = U * V.transpose();
    const double t = (R.transpose() * F - Mat3::Identity()).trace();
    const double energy = el.V * (el.mu * (F - R).squaredNorm() + el.lambda / 2 * t * t);
    const Mat3 P = 2 * el.mu * (F - R) + el.lambda * t * R;
    const Eigen::Matrix<double, 4, 3> G = shape_gradients(el.Dm_inv);
    Vec12 f;
    for (int a = 0; a < 4; ++a) f.segment<3>(3 * a) = el.V * P * G.row(a).transpose();
    // R to rounding (1e-15): energy and force to 1e-12 relative.
    EXPECT_NEAR(el.energy(MaterialModel::corotational, x), energy, 1e-12 * energy);
    EXPECT_LE((el.force(MaterialModel::corotational, x) - f).norm(), 1e-12 * f.norm());
  }
}

TEST(ElementKernels, UniaxialStretchEnergies) {
  // F = diag(1+s, 1, 1):
  //   linear       ε = diag(s,0,0):             Ψ = (μ + λ/2) s²
  //   stvk         E = diag(s + s²/2, 0, 0):    Ψ = (μ + λ/2) (s + s²/2)²
  //   corotational R = I, S = F:                Ψ = (μ + λ/2) s²
  const Element el;
  const double s = 0.3;
  const Vec12 x = el.affine(Vec3(1 + s, 1, 1).asDiagonal().toDenseMatrix());
  const double k = el.mu + el.lambda / 2;
  const double e = s + s * s / 2;
  const double linear = el.V * k * s * s;
  const double stvk = el.V * k * e * e;
  EXPECT_NEAR(el.energy(MaterialModel::linear, x), linear, 1e-13 * linear);
  EXPECT_NEAR(el.energy(MaterialModel::stvk, x), stvk, 1e-13 * stvk);
  EXPECT_NEAR(el.energy(MaterialModel::corotational, x), linear, 1e-13 * linear);
}

TEST(ElementKernels, CorotationalInvertedElementPushesBackTowardsRest) {
  // An element pushed through itself: x = diag(1, 1, −0.5) X. Then R = I, S = diag(1, 1, −0.5)
  // (signed singular values with det R = +1), so Ψ = μ 1.5² + λ/2 (−1.5)²: the inversion costs
  // more than the mirror-image compression diag(1, 1, 0.5), and the internal force opposes the
  // displacement (f · (x − X) > 0).
  const Element el;
  const Vec12 inverted = el.affine(Vec3(1, 1, -0.5).asDiagonal().toDenseMatrix());
  const Vec12 compressed = el.affine(Vec3(1, 1, 0.5).asDiagonal().toDenseMatrix());
  const auto model = MaterialModel::corotational;
  EXPECT_GT(el.force(model, inverted).dot(inverted - el.X), 0);
  EXPECT_GT(el.energy(model, inverted), el.energy(model, compressed));
  const double expected = el.V * (el.mu * 2.25 + el.lambda / 2 * 2.25);
  EXPECT_NEAR(el.energy(model, inverted), expected, 1e-13 * expected);
}

TEST(MaterialModelNames, RoundTripAndUnknownNamesListTheValidOnes) {
  for (MaterialModel model : kModels) EXPECT_EQ(parse_material_model(to_string(model)), model);
  EXPECT_EQ(to_string(MaterialModel::corotational), "corotational");
  EXPECT_EQ(parse_material_model("neohookean"), MaterialModel::neohookean);
  EXPECT_EQ(to_string(MaterialModel::neohookean), "neohookean");
  try {
    parse_material_model("neo-hookean");
    FAIL() << "an unknown model name was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("neo-hookean"), std::string::npos) << what;
    EXPECT_NE(what.find("linear, stvk, corotational"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace substruct
