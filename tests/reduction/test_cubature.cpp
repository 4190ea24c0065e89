// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/cubature.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "../../framework/src/reduction/detail/nnls.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using detail::nnls;
using detail::nnls_normal;

Eigen::MatrixXd random_matrix(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd A(rows, cols);
  for (auto& x : A.reshaped()) x = normal(rng);
  return A;
}

// ---------------------------------------------------------------------------------------------
// Non-negative least squares.

// A problem whose solution x* has zeros where the constraint is active: with multipliers μ > 0
// there and 0 elsewhere, b = A x* − A (AᵀA)⁻¹ μ gives Aᵀ(Ax* − b) = μ, the KKT conditions of
// min ‖Ax − b‖ s.t. x ≥ 0 (μ ≥ 0, μᵀx* = 0), so x* is the unique solution (A has full rank).
TEST(Nnls, FindsKnownSolutionWithActiveConstraints) {
  const Eigen::MatrixXd A = random_matrix(40, 12, 1);
  Eigen::VectorXd x_star(12), mu = Eigen::VectorXd::Zero(12);
  x_star << 0.5, 0, 1.5, 2, 0, 0.25, 3, 0, 1, 0.75, 0, 2.5;
  for (int j = 0; j < 12; ++j)
    if (x_star[j] == 0) mu[j] = 0.3 + 0.1 * j;
  const Eigen::VectorXd b = A * x_star - A * (A.transpose() * A).ldlt().solve(mu);
  detail::NnlsReport report;
  const Eigen::VectorXd x = nnls(A, b, &report);
  EXPECT_TRUE(report.converged);
  EXPECT_LT((x - x_star).norm(), 1e-10 * x_star.norm());
  EXPECT_TRUE((x.array() >= 0).all());
  // The multipliers come back as the gradient on the active set.
  const Eigen::VectorXd gradient = A.transpose() * (A * x - b);
  EXPECT_LT((gradient - mu).norm(), 1e-9 * mu.norm());
}

TEST(Nnls, PositiveLeastSquaresSolutionIsTheAnswer) {
  const Eigen::MatrixXd A = random_matrix(30, 8, 2);
  const Eigen::VectorXd x_star = Eigen::VectorXd::LinSpaced(8, 1, 4.5);
  const Eigen::VectorXd b = A * x_star + 0.01 * random_matrix(30, 1, 3);
  const Eigen::VectorXd ls = A.colPivHouseholderQr().solve(b);
  ASSERT_TRUE((ls.array() > 0).all());
  EXPECT_LT((nnls(A, b) - ls).norm(), 1e-12 * ls.norm());
}

TEST(Nnls, ZeroWhenNoColumnHelps) {
  const Eigen::MatrixXd A = random_matrix(20, 5, 4).cwiseAbs();
  const Eigen::VectorXd b = -Eigen::VectorXd::Ones(20);  // Aᵀb < 0: every x > 0 makes it worse
  detail::NnlsReport report;
  EXPECT_EQ(nnls(A, b, &report), Eigen::VectorXd::Zero(5));
  EXPECT_TRUE(report.converged);
  EXPECT_EQ(report.iterations, 0);
}

TEST(Nnls, WarmStartGivesTheSameSolution) {
  const Eigen::MatrixXd A = random_matrix(50, 15, 5);
  const Eigen::VectorXd b = random_matrix(50, 1, 6);
  const Eigen::VectorXd cold = nnls(A, b);
  const Eigen::MatrixXd G = A.transpose() * A;
  const Eigen::VectorXd h = A.transpose() * b;
  // From the solution of the problem without the last column, as the greedy cubature fit does.
  Eigen::VectorXd x = nnls(A.leftCols(14), b);
  x.conservativeResize(15);
  x[14] = 0;
  const detail::NnlsReport report = nnls_normal(G, h, x);
  EXPECT_TRUE(report.converged);
  EXPECT_LT((x - cold).norm(), 1e-10 * cold.norm());
  // From an arbitrary feasible point.
  Eigen::VectorXd y = Eigen::VectorXd::Ones(15);
  nnls_normal(G, h, y);
  EXPECT_LT((y - cold).norm(), 1e-10 * cold.norm());
}

TEST(Nnls, DependentColumnsStillMinimise) {
  Eigen::MatrixXd A = random_matrix(25, 6, 7);
  A.col(5) = A.col(1);  // a repeated column: G is singular
  const Eigen::VectorXd b = A.leftCols(5) * Eigen::VectorXd::LinSpaced(5, 1, 2);
  const Eigen::VectorXd x = nnls(A, b);
  EXPECT_TRUE((x.array() >= 0).all());
  EXPECT_LT((A * x - b).norm(), 1e-10 * b.norm());
}

TEST(Nnls, RejectsInconsistentInput) {
  using testing::error_message;
  Eigen::VectorXd x;
  EXPECT_NE(error_message([&] {
              nnls_normal(Eigen::MatrixXd::Identity(3, 3), Eigen::VectorXd::Ones(2), x);
            }).find("expected n×n"),
            std::string::npos);
  Eigen::VectorXd negative = -Eigen::VectorXd::Ones(3);
  EXPECT_NE(error_message([&] {
              nnls_normal(Eigen::MatrixXd::Identity(3, 3), Eigen::VectorXd::Ones(3), negative);
            }).find("negative"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Cubature.

struct Domain {
  TetMesh mesh;
  std::vector<Index> fixed;
};

Domain beam3() {
  const std::filesystem::path dir = testing::share_dir() / "meshes";
  Domain d;
  d.mesh = read_tet_mesh(dir / "beam3_tet.veg");
  d.fixed = read_bou(dir / "beam3.bou", d.mesh.num_vertices());
  return d;
}

Domain box() {
  Domain d;
  d.mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(0.3, 0.1, 0.1), 3, 1, 1);
  d.fixed = d.mesh.vertex_sets.at("xmin");
  return d;
}

// The lowest `r` linear modes of the clamped domain (K φ = λ M φ on the free DOFs, dense),
// M-orthonormal, zero at the fixed vertices: a smooth basis, as a simulation would use.
Eigen::MatrixXd linear_modes(const Domain& d, int r) {
  const Index n = 3 * d.mesh.num_vertices();
  std::vector<char> fixed(static_cast<std::size_t>(n), 0);
  for (Index v : d.fixed)
    for (int k = 0; k < 3; ++k) fixed[static_cast<std::size_t>(3 * v + k)] = 1;
  std::vector<Index> free;
  for (Index i = 0; i < n; ++i)
    if (!fixed[static_cast<std::size_t>(i)]) free.push_back(i);
  const Eigen::MatrixXd K =
      ElasticForceModel(d.mesh, MaterialModel::stvk).stiffness(Eigen::VectorXd::Zero(n));
  const Eigen::MatrixXd M = consistent_mass(d.mesh);
  const auto m = static_cast<Eigen::Index>(free.size());
  Eigen::MatrixXd Kf(m, m), Mf(m, m);
  for (Eigen::Index a = 0; a < m; ++a)
    for (Eigen::Index b = 0; b < m; ++b) {
      Kf(a, b) = K(free[a], free[b]);
      Mf(a, b) = M(free[a], free[b]);
    }
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> solver(Kf, Mf);
  Eigen::MatrixXd U = Eigen::MatrixXd::Zero(n, r);
  for (Eigen::Index a = 0; a < m; ++a) U.row(free[a]) = solver.eigenvectors().row(a).head(r);
  return U;
}

// beam3's 10 lowest modes, computed once.
const Eigen::MatrixXd& beam3_modes() {
  static const Eigen::MatrixXd U = linear_modes(beam3(), 10);
  return U;
}

double relative(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).norm() / b.norm();
}

// With every element at weight 1 the cubature is the full model, for any material.
TEST(CubatureForceModel, AllElementsAtUnitWeightIsTheFullModel) {
  const Domain d = box();
  const Eigen::MatrixXd U = linear_modes(d, 5);
  std::vector<Index> all(static_cast<std::size_t>(d.mesh.num_elements()));
  for (Index e = 0; e < d.mesh.num_elements(); ++e) all[static_cast<std::size_t>(e)] = e;
  const Eigen::VectorXd q = (Eigen::VectorXd(5) << 0.02, -0.01, 0.015, 0.005, -0.008).finished();
  for (MaterialModel model :
       {MaterialModel::stvk, MaterialModel::corotational, MaterialModel::neohookean}) {
    const CubatureForceModel cubature(d.mesh, U, all, std::vector<double>(all.size(), 1.0), model);
    const ElasticForceModel full(d.mesh, model);
    const Eigen::VectorXd u = U * q;
    double W = 0, W_full = 0;
    Eigen::VectorXd f, f_full;
    Eigen::MatrixXd K;
    SparseMatrix K_full;
    cubature.evaluate(q, &W, &f, &K);
    full.evaluate(u, &W_full, &f_full, &K_full);
    SCOPED_TRACE(std::string(to_string(model)));
    EXPECT_LT(std::abs(W - W_full), 1e-12 * W_full);
    EXPECT_LT(relative(f, U.transpose() * f_full), 1e-12);
    EXPECT_LT(relative(K, U.transpose() * (K_full * U)), 1e-12);
    EXPECT_EQ(K, K.transpose());
    EXPECT_NEAR(cubature.relative_error(d.mesh, U, {q, 2 * q}), 0.0, 1e-12);
    // K is the derivative of f: central differences, error O(h²). (Not for the neo-Hookean
    // tangent, made semi-definite per element: Uᵀ K U above is what it must equal.)
    if (model == MaterialModel::neohookean) continue;
    const double h = 1e-6;
    Eigen::MatrixXd K_fd(5, 5);
    for (int i = 0; i < 5; ++i) {
      Eigen::VectorXd plus = q, minus = q;
      plus[i] += h;
      minus[i] -= h;
      K_fd.col(i) = (cubature.force(plus) - cubature.force(minus)) / (2 * h);
    }
    EXPECT_LT(relative(K_fd, K), 1e-6);
  }
}

void report(const char* what, const CubatureForceModel& model, double held_out) {
  std::printf("%s: %zu elements, training error %.2f %%, held-out error %.2f %%, %.2f s\n", what,
              model.elements().size(), 100 * model.training_error(), 100 * held_out,
              model.training_seconds());
}

// beam3 (450 tets), 10 linear modes, 100 training poses up to 0.2 × the beam's size. Measured
// (held-out: 100 poses of another seed): a 1 % training tolerance is met with 52 elements and
// gives 1.2 % held-out error; 0.2 % with 75 elements gives 0.4 %; the error falls to 1e-6 near
// 250 elements (the reduced StVK force is a cubic polynomial: a finite-dimensional fit). An et
// al. (2008) and Wu et al. (2015, Fig. 5) report errors of a few percent with tens to hundreds
// of elements. The bounds: the training error is the tolerance (the fit stops there), the held-out
// error at most 2.5× it.
TEST(CubatureForceModel, TrainsOnBeam3) {
  const Domain d = beam3();
  const Eigen::MatrixXd& U = beam3_modes();
  CubatureSettings settings;
  settings.max_elements = 120;
  settings.training_poses = 100;
  settings.tolerance = 0.01;
  const CubatureForceModel model = CubatureForceModel::train(d.mesh, U, settings);
  const std::vector<Eigen::VectorXd> held_out =
      CubatureForceModel::sample_poses(d.mesh, U, 100, 12345, settings);
  const double error = model.relative_error(d.mesh, U, held_out);
  report("beam3, r = 10, StVK, tolerance 1 %", model, error);
  EXPECT_LT(model.elements().size(), 120u);  // stopped by the tolerance
  EXPECT_LE(model.training_error(), 0.01);
  EXPECT_LT(error, 0.025);
  for (double w : model.weights()) EXPECT_GT(w, 0);

  CubatureSettings tight = settings;
  tight.tolerance = 0.002;
  const CubatureForceModel finer = CubatureForceModel::train(d.mesh, U, tight);
  const double finer_error = finer.relative_error(d.mesh, U, held_out);
  report("beam3, r = 10, StVK, tolerance 0.2 %", finer, finer_error);
  EXPECT_LT(finer.elements().size(), 120u);
  EXPECT_GT(finer.elements().size(), model.elements().size());
  EXPECT_LE(finer.training_error(), 0.002);
  EXPECT_LT(finer_error, 0.005);

  // Deterministic, and the elements and weights are the whole model.
  const CubatureForceModel again = CubatureForceModel::train(d.mesh, U, settings);
  EXPECT_EQ(again.elements(), model.elements());
  EXPECT_EQ(again.weights(), model.weights());
  const CubatureForceModel stored(d.mesh, U, model.elements(), model.weights());
  EXPECT_TRUE(std::isnan(stored.training_error()));
  const Eigen::VectorXd& q = held_out[7];
  EXPECT_EQ(stored.force(q), model.force(q));
  EXPECT_EQ(stored.stiffness(q), model.stiffness(q));
  EXPECT_EQ(stored.energy(q), model.energy(q));
}

// Cubature is not tied to StVK: the same fit for the corotational and neo-Hookean materials.
TEST(CubatureForceModel, TrainsForOtherMaterials) {
  const Domain d = beam3();
  const Eigen::MatrixXd& U = beam3_modes();
  for (MaterialModel material : {MaterialModel::corotational, MaterialModel::neohookean}) {
    SCOPED_TRACE(std::string(to_string(material)));
    CubatureSettings settings;
    settings.max_elements = 120;
    settings.material = material;
    const CubatureForceModel model = CubatureForceModel::train(d.mesh, U, settings);
    EXPECT_EQ(model.material(), material);
    const double error = model.relative_error(
        d.mesh, U, CubatureForceModel::sample_poses(d.mesh, U, 100, 777, settings));
    report(fmt::format("beam3, r = 10, {}, tolerance 1 %", to_string(material)).c_str(), model,
           error);
    EXPECT_LE(model.training_error(), 0.01);
    EXPECT_LT(error, 0.025);
  }
}

TEST(CubatureForceModel, SamplesPosesOfTheRequestedSize) {
  const Domain d = box();
  const Eigen::MatrixXd U = linear_modes(d, 4);
  CubatureSettings settings;
  settings.min_amplitude = 0.01;
  settings.max_amplitude = 0.1;
  const auto poses = CubatureForceModel::sample_poses(d.mesh, U, 40, 3, settings);
  ASSERT_EQ(poses.size(), 40u);
  const double size =
      (d.mesh.vertices.colwise().maxCoeff() - d.mesh.vertices.colwise().minCoeff()).norm();
  double smallest = 1e300, largest = 0;
  for (const Eigen::VectorXd& q : poses) {
    const Eigen::VectorXd u = U * q;
    double m = 0;
    for (Eigen::Index v = 0; v < u.size() / 3; ++v) m = std::max(m, u.segment<3>(3 * v).norm());
    smallest = std::min(smallest, m / size);
    largest = std::max(largest, m / size);
  }
  EXPECT_GE(smallest, 0.01 * (1 - 1e-12));
  EXPECT_LE(largest, 0.1 * (1 + 1e-12));
  EXPECT_LT(smallest, 0.02);  // log-uniform: both ends are reached
  EXPECT_GT(largest, 0.05);
  EXPECT_EQ(CubatureForceModel::sample_poses(d.mesh, U, 40, 3, settings), poses);
  EXPECT_NE(CubatureForceModel::sample_poses(d.mesh, U, 40, 4, settings), poses);
}

TEST(CubatureForceModel, RejectsInconsistentInput) {
  const Domain d = box();
  const Eigen::MatrixXd U = linear_modes(d, 2);
  using testing::error_message;
  EXPECT_NE(error_message([&] {
              CubatureForceModel(d.mesh, U, {0, 1}, {1.0});
            }).find("2 elements but 1 weights"),
            std::string::npos);
  EXPECT_NE(error_message([&] {
              CubatureForceModel(d.mesh, U, {0, 0}, {1.0, 1.0});
            }).find("listed twice"),
            std::string::npos);
  EXPECT_NE(error_message([&] { CubatureForceModel(d.mesh, U, {99}, {1.0}); }).find("out of range"),
            std::string::npos);
  EXPECT_NE(error_message([&] { CubatureForceModel(d.mesh, U, {1}, {-1.0}); }).find("weight"),
            std::string::npos);
  EXPECT_NE(error_message([&] {
              CubatureForceModel(d.mesh, U.topRows(6), {1}, {1.0});
            }).find("expected 3N"),
            std::string::npos);
  CubatureSettings bad;
  bad.max_amplitude = bad.min_amplitude / 2;
  EXPECT_NE(error_message([&] {
              CubatureForceModel::train(d.mesh, U, bad);
            }).find("min_amplitude ≤ max_amplitude"),
            std::string::npos);
  bad = CubatureSettings{};
  bad.training_poses = 0;
  EXPECT_NE(
      error_message([&] { CubatureForceModel::train(d.mesh, U, bad); }).find("training_poses ≥ 1"),
      std::string::npos);
}

}  // namespace
}  // namespace substruct
