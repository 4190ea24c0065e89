// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/reduced_stvk.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>

#include "substruct/core/error.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"
#include "support/thread_process_group.hpp"

namespace substruct {
namespace {

struct Domain {
  TetMesh mesh;
  std::vector<Index> fixed;
  double size = 0;  // bounding-box diagonal
};

double bounding_diagonal(const TetMesh& mesh) {
  return (mesh.vertices.colwise().maxCoeff() - mesh.vertices.colwise().minCoeff()).norm();
}

Domain beam3() {
  const std::filesystem::path dir = testing::share_dir() / "meshes";
  Domain d;
  d.mesh = read_tet_mesh(dir / "beam3_tet.veg");
  d.fixed = read_bou(dir / "beam3.bou", d.mesh.num_vertices());
  d.size = bounding_diagonal(d.mesh);
  return d;
}

// A 4×2×2-cell box (96 tets) clamped at x = 0, every third element of a stiffer material.
Domain box() {
  Domain d;
  d.mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.1, 0.1), 4, 2, 2);
  Material stiff;
  stiff.name = "stiff";
  stiff.youngs_modulus = 4e6;
  stiff.poisson_ratio = 0.3;
  d.mesh.materials.push_back(stiff);
  for (Index e = 0; e < d.mesh.num_elements(); e += 3)
    d.mesh.element_material[static_cast<std::size_t>(e)] = 1;
  d.fixed = d.mesh.vertex_sets.at("xmin");
  d.size = bounding_diagonal(d.mesh);
  return d;
}

// A random 3N×r basis, zero at the fixed vertices, made mass-orthonormal: with UᵀMU = LLᵀ,
// U ← U L⁻ᵀ.
Eigen::MatrixXd random_basis(const Domain& d, int r, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd U(3 * d.mesh.num_vertices(), r);
  for (auto& x : U.reshaped()) x = normal(rng);
  for (Index v : d.fixed) U.middleRows<3>(3 * v).setZero();
  const SparseMatrix M = consistent_mass(d.mesh);
  const Eigen::MatrixXd G = U.transpose() * (M * U);
  const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(G).matrixL();
  U = L.triangularView<Eigen::Lower>().solve(U.transpose()).transpose();
  EXPECT_LT((U.transpose() * (M * U) - Eigen::MatrixXd::Identity(r, r)).norm(), 1e-12);
  return U;
}

// Reduced coordinates whose largest vertex displacement |U q|_v is `amplitude`.
Eigen::VectorXd random_coordinates(const Eigen::MatrixXd& U, double amplitude, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Eigen::VectorXd q(U.cols());
  for (auto& x : q) x = normal(rng);
  const Eigen::VectorXd u = U * q;
  double largest = 0;
  for (Eigen::Index v = 0; v < u.size() / 3; ++v)
    largest = std::max(largest, u.segment<3>(3 * v).norm());
  return q * (amplitude / largest);
}

double relative(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).norm() / b.norm();
}

// The polynomial against the full model at the same displacement u = U q.
void expect_matches_full_model(const Domain& d, int r, unsigned seed) {
  const Eigen::MatrixXd U = random_basis(d, r, seed);
  const ReducedStVKPolynomial poly(d.mesh, U);
  const ElasticForceModel full(d.mesh, MaterialModel::stvk);
  EXPECT_EQ(poly.r(), r);
  EXPECT_GT(poly.precompute_seconds(), 0.0);
  // From 1e-5 (linear regime) to 0.3 of the size (the cubic and quartic terms dominate).
  for (double fraction : {1e-5, 1e-2, 0.1, 0.3}) {
    const Eigen::VectorXd q = random_coordinates(U, fraction * d.size, seed + 7);
    const Eigen::VectorXd u = U * q;
    double W_full = 0;
    Eigen::VectorXd f_full;
    SparseMatrix K_full;
    full.evaluate(u, &W_full, &f_full, &K_full);
    double W = 0;
    Eigen::VectorXd f;
    Eigen::MatrixXd K;
    poly.evaluate(q, &W, &f, &K);
    const Eigen::VectorXd f_expected = U.transpose() * f_full;
    const Eigen::MatrixXd K_expected = U.transpose() * (K_full * U);
    SCOPED_TRACE("amplitude " + std::to_string(fraction) + " of the size");
    std::printf("r = %d, amplitude %.0e of the size: relative error f %.1e, K %.1e, W %.1e\n", r,
                fraction, relative(f, f_expected), relative(K, K_expected),
                std::abs(W - W_full) / std::abs(W_full));
    EXPECT_LT(relative(f, f_expected), 1e-10);
    EXPECT_LT(relative(K, K_expected), 1e-10);
    EXPECT_LT(std::abs(W - W_full), 1e-10 * std::abs(W_full));
    EXPECT_EQ(K, K.transpose());
    // The single-output calls agree with the combined one.
    EXPECT_EQ(poly.force(q), f);
    EXPECT_EQ(poly.stiffness(q), K);
    EXPECT_EQ(poly.energy(q), W);
  }
}

TEST(ReducedStVKPolynomial, MatchesFullModelOnBeam3) {
  const Domain d = beam3();
  ASSERT_EQ(d.mesh.num_elements(), 450);
  expect_matches_full_model(d, 10, 1);
}

TEST(ReducedStVKPolynomial, MatchesFullModelOnBoxWithTwoMaterials) {
  const Domain d = box();
  // r ≤ 16 evaluates the expanded Hessian, larger r the one-pass kernel over the unique
  // coefficients (its storage differs for r a multiple of 4 and not; r odd pads one column).
  for (int r : {1, 7, 8, 16, 17, 18, 20})
    expect_matches_full_model(d, r, 2 + static_cast<unsigned>(r));
}

TEST(ReducedStVKPolynomial, AtRestIsTheProjectedLinearStiffness) {
  const Domain d = box();
  const Eigen::MatrixXd U = random_basis(d, 6, 4);
  const ReducedStVKPolynomial poly(d.mesh, U);
  const ElasticForceModel full(d.mesh, MaterialModel::stvk);
  double W = 1;
  Eigen::VectorXd f;
  Eigen::MatrixXd K;
  poly.evaluate(Eigen::VectorXd::Zero(6), &W, &f, &K);
  EXPECT_EQ(W, 0.0);
  EXPECT_EQ(f, Eigen::VectorXd::Zero(6));
  const Eigen::MatrixXd K0 = U.transpose() * (full.stiffness(Eigen::VectorXd::Zero(U.rows())) * U);
  EXPECT_LT(relative(K, K0), 1e-12);
  // The first r(r+1)/2 coefficients are K₀'s upper triangle, row by row.
  EXPECT_DOUBLE_EQ(poly.coefficients()[1], K(0, 1));
  EXPECT_DOUBLE_EQ(poly.coefficients()[6], K(1, 1));
}

// f is a cubic polynomial, so the central difference (f(q + h e_i) − f(q − h e_i)) / 2h differs
// from K e_i by h² f'''/6 only; likewise the energy's central difference from f.
TEST(ReducedStVKPolynomial, StiffnessAndForceAreDerivatives) {
  const Domain d = box();
  const Eigen::MatrixXd U = random_basis(d, 5, 5);
  const ReducedStVKPolynomial poly(d.mesh, U);
  const Eigen::VectorXd q = random_coordinates(U, 0.2 * d.size, 6);
  const Eigen::MatrixXd K = poly.stiffness(q);
  const Eigen::VectorXd f = poly.force(q);
  const double h = 1e-4 * q.norm();
  Eigen::MatrixXd K_fd(5, 5);
  Eigen::VectorXd f_fd(5);
  for (int i = 0; i < 5; ++i) {
    Eigen::VectorXd plus = q, minus = q;
    plus[i] += h;
    minus[i] -= h;
    K_fd.col(i) = (poly.force(plus) - poly.force(minus)) / (2 * h);
    f_fd[i] = (poly.energy(plus) - poly.energy(minus)) / (2 * h);
  }
  EXPECT_LT(relative(K_fd, K), 1e-7);
  EXPECT_LT(relative(f_fd, f), 1e-7);
}

TEST(ReducedStVKPolynomial, TermsSharedOverRanksGiveOneProcesssCoefficients) {
  // Each rank accumulates its rows of the quartic and cubic terms; every rank ends with all of
  // them, equal to one process's up to the order of the sums.
  const Domain d = box();
  const int r = 9;
  const Eigen::MatrixXd U = random_basis(d, r, 5);
  const ReducedStVKPolynomial serial(d.mesh, U);
  const std::vector<double>& expected = serial.coefficients();
  double largest = 0;
  for (double c : expected) largest = std::max(largest, std::abs(c));
  for (int ranks : {2, 3, 5}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    std::vector<std::vector<double>> got(static_cast<std::size_t>(ranks));
    testing::run_on_ranks(ranks, [&](ProcessGroup& group) {
      got[static_cast<std::size_t>(group.rank())] =
          ReducedStVKPolynomial(d.mesh, U, nullptr, &group).coefficients();
    });
    for (const std::vector<double>& coefficients : got) {
      EXPECT_EQ(coefficients, got[0]);  // the same bits on every rank
      ASSERT_EQ(coefficients.size(), expected.size());
      double difference = 0;
      for (std::size_t t = 0; t < expected.size(); ++t)
        difference = std::max(difference, std::abs(coefficients[t] - expected[t]));
      EXPECT_LT(difference, 1e-12 * largest);
    }
  }
}

TEST(ReducedStVKPolynomial, StoredCoefficientsGiveTheSameModel) {
  const Domain d = box();
  const Eigen::MatrixXd U = random_basis(d, 6, 8);
  const ReducedStVKPolynomial poly(d.mesh, U);
  EXPECT_EQ(poly.coefficients().size(), ReducedStVKPolynomial::coefficient_count(6));
  const ReducedStVKPolynomial again(d.mesh, U);
  EXPECT_EQ(again.coefficients(), poly.coefficients());  // deterministic, bit for bit
  const ReducedStVKPolynomial stored(6, poly.coefficients());
  EXPECT_EQ(stored.precompute_seconds(), 0.0);
  const Eigen::VectorXd q = random_coordinates(U, 0.1 * d.size, 9);
  double W1 = 0, W2 = 0;
  Eigen::VectorXd f1, f2;
  Eigen::MatrixXd K1, K2;
  poly.evaluate(q, &W1, &f1, &K1);
  stored.evaluate(q, &W2, &f2, &K2);
  EXPECT_EQ(W1, W2);
  EXPECT_EQ(f1, f2);
  EXPECT_EQ(K1, K2);
}

TEST(ReducedStVKPolynomial, CoefficientCounts) {
  EXPECT_EQ(ReducedStVKPolynomial::coefficient_count(0), 0u);
  EXPECT_EQ(ReducedStVKPolynomial::coefficient_count(1), 3u);
  EXPECT_EQ(ReducedStVKPolynomial::coefficient_count(2), 3u + 4u + 5u);
  EXPECT_EQ(ReducedStVKPolynomial::coefficient_count(10), 55u + 220u + 715u);
  EXPECT_EQ(ReducedStVKPolynomial::coefficient_count(40), 820u + 11480u + 123410u);
}

// The implicit step's terms in one call (f, K x and the lower triangle of s K) against
// evaluate(), for every evaluation layout: the expanded Hessian (r ≤ 16), the one-pass kernel
// with groups of four columns (r a multiple of 4) and of two (r even, r odd).
TEST(ReducedStVKPolynomial, ImplicitStepTermsAgreeWithEvaluate) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (int r : {1, 5, 8, 16, 17, 18, 20, 21, 30}) {
    std::vector<double> coefficients(ReducedStVKPolynomial::coefficient_count(r));
    for (double& c : coefficients) c = uniform(rng);
    const ReducedStVKPolynomial poly(r, coefficients);
    Eigen::VectorXd q(r), x(r);
    for (auto& v : q) v = 0.3 * uniform(rng);
    for (auto& v : x) v = uniform(rng);
    Eigen::VectorXd f_expected;
    Eigen::MatrixXd K;
    poly.evaluate(q, nullptr, &f_expected, &K);
    const double s = 1.7;
    Eigen::VectorXd f, Kx;
    Eigen::MatrixXd sK = Eigen::MatrixXd::Constant(r, r, 42.0);
    poly.implicit_step_terms(q, x, s, f, Kx, sK);
    SCOPED_TRACE("r = " + std::to_string(r));
    const Eigen::MatrixXd sK_expected = s * K;
    EXPECT_LT((f - f_expected).norm(), 1e-13 * f_expected.norm());
    EXPECT_LT((Kx - K * x).norm(), 1e-13 * (K * x).norm());
    for (int b = 0; b < r; ++b)  // the lower triangle, diagonal included
      for (int a = b; a < r; ++a)
        EXPECT_NEAR(sK(a, b), sK_expected(a, b), 1e-13 * sK_expected.norm());
    // The base class's version (evaluate, then the product and the triangle) agrees too.
    Eigen::VectorXd f_base, Kx_base;
    Eigen::MatrixXd sK_base = sK;
    poly.ReducedForceModel::implicit_step_terms(q, x, s, f_base, Kx_base, sK_base);
    EXPECT_EQ(f_base, f_expected);
    EXPECT_LT((Kx_base - Kx).norm(), 1e-13 * Kx.norm());
    const Eigen::MatrixXd lower = sK.triangularView<Eigen::Lower>();
    const Eigen::MatrixXd lower_base = sK_base.triangularView<Eigen::Lower>();
    EXPECT_LT((lower_base - lower).norm(), 1e-13 * lower.norm());
  }
  const ReducedStVKPolynomial poly(2, std::vector<double>(12, 1.0));
  Eigen::VectorXd f, Kx;
  Eigen::MatrixXd sK;
  EXPECT_NE(testing::error_message([&] {
              poly.implicit_step_terms(Eigen::VectorXd::Zero(2), Eigen::VectorXd::Zero(3), 1, f, Kx,
                                       sK);
            }).find("3 entries"),
            std::string::npos);
}

TEST(ReducedStVKPolynomial, RigidDomainHasNoCoordinates) {
  const Domain d = box();
  const ReducedStVKPolynomial poly(d.mesh, Eigen::MatrixXd(3 * d.mesh.num_vertices(), 0));
  EXPECT_EQ(poly.r(), 0);
  EXPECT_TRUE(poly.coefficients().empty());
  double W = 1;
  Eigen::VectorXd f(3);
  Eigen::MatrixXd K(2, 2);
  poly.evaluate(Eigen::VectorXd(), &W, &f, &K);
  EXPECT_EQ(W, 0.0);
  EXPECT_EQ(f.size(), 0);
  EXPECT_EQ(K.size(), 0);
}

TEST(ReducedStVKPolynomial, RejectsInconsistentInput) {
  const Domain d = box();
  using testing::error_message;
  EXPECT_NE(error_message([&] {
              ReducedStVKPolynomial(d.mesh, Eigen::MatrixXd::Zero(12, 3));
            }).find("expected 3N = 135"),
            std::string::npos);
  EXPECT_NE(error_message([] {
              ReducedStVKPolynomial(2, std::vector<double>(11, 0.0));
            }).find("11 stored coefficients, expected 12"),
            std::string::npos);
  std::vector<double> bad(12, 0.0);
  bad[5] = std::nan("");
  EXPECT_NE(error_message([&] { ReducedStVKPolynomial(2, bad); }).find("coefficient 5 is nan"),
            std::string::npos);
  const ReducedStVKPolynomial poly(2, std::vector<double>(12, 0.0));
  EXPECT_NE(error_message([&] { poly.force(Eigen::VectorXd::Zero(3)); }).find("3 entries"),
            std::string::npos);
  TetMesh soft = d.mesh;
  soft.materials[0].poisson_ratio = 0.5;
  EXPECT_NE(error_message([&] { ReducedStVKPolynomial(soft, Eigen::MatrixXd::Zero(135, 1)); }),
            "(no error)");
}

}  // namespace
}  // namespace substruct
