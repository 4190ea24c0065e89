// SPDX-License-Identifier: GPL-3.0-or-later
// The slepc eigen-solver plugin against Eigen's dense generalized symmetric solver on FEM
// matrices: a clamped and a free-floating box, and the beam of share/meshes.
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <Eigen/Dense>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/dof_map.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/solvers/eigen_solver.hpp"
#include "support/eigen_problem.hpp"
#include "support/eigen_solver_test.hpp"
#include "support/shared_data.hpp"

namespace substruct {
namespace {

using testing::dense_eigensolve;
using testing::eigen_problem_of;
using testing::eigen_test_box;
using testing::error_message;
using testing::m_cosine;
using testing::m_orthonormality_error;
using Problem = testing::EigenProblem;

class SlepcTest : public testing::EigenSolverTest {
 protected:
  std::unique_ptr<EigenSolver> make(std::vector<Setting> settings = {}) {
    return make_solver("slepc", std::move(settings));
  }

  static void expect_match(const EigenPairs& pairs, int first, int count,
                           const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>& dense,
                           int dense_first, const SparseMatrix& M, const std::string& what) {
    testing::expect_eigenpairs_match(pairs, first, count, dense, dense_first, M, what);
  }
};

TEST_F(SlepcTest, ClampedBoxMatchesTheDenseSolverWithEveryFactorization) {
  const TetMesh mesh = eigen_test_box();
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  ASSERT_EQ(p.K.rows(), 3 * (mesh.num_vertices() - 12));
  const auto dense = dense_eigensolve(p);
  // Simple eigenvalues: the vectors are comparable up to sign.
  for (int i = 0; i < 6; ++i)
    ASSERT_GT(dense.eigenvalues()[i + 1] - dense.eigenvalues()[i], 1e-3 * dense.eigenvalues()[i]);

  for (const std::string factorization : {"auto", "mumps", "petsc", "cholmod"}) {
    const EigenPairs pairs =
        make({{"slepc.factorization", factorization, "test"}})->solve(p.K, p.M, 6, 0.0);
    ASSERT_EQ(pairs.values.size(), 6);
    ASSERT_EQ(pairs.vectors.rows(), p.K.rows());
    ASSERT_EQ(pairs.vectors.cols(), 6);
    expect_match(pairs, 0, 6, dense, 0, p.M, factorization);
    EXPECT_LT(m_orthonormality_error(pairs.vectors, p.M), 1e-10) << factorization;
    for (int i = 0; i < 6; ++i) {
      if (i > 0) {
        EXPECT_LT(pairs.values[i - 1], pairs.values[i]);
      }
      // Deterministic sign: the largest-magnitude entry is positive.
      Eigen::Index largest = 0;
      pairs.vectors.col(i).cwiseAbs().maxCoeff(&largest);
      EXPECT_GT(pairs.vectors(largest, i), 0) << factorization << ", eigenvector " << i;
    }
  }
}

TEST_F(SlepcTest, FreeFloatingBoxGivesSixRigidModesThenTheElasticOnes) {
  const TetMesh mesh = eigen_test_box();
  const Problem p = eigen_problem_of(mesh, {});
  const auto dense = dense_eigensolve(p);
  const double lambda7 = dense.eigenvalues()[6];
  for (int i = 6; i < 12; ++i)
    ASSERT_GT(dense.eigenvalues()[i + 1] - dense.eigenvalues()[i], 1e-3 * dense.eigenvalues()[i]);

  // Rigid motions of the free DOFs (all of them): three translations and three rotations.
  Eigen::MatrixXd rigid = Eigen::MatrixXd::Zero(p.K.rows(), 6);
  for (Index v = 0; v < mesh.num_vertices(); ++v) {
    const Vec3 x = mesh.vertices.row(v).transpose();
    for (int a = 0; a < 3; ++a) {
      rigid(3 * v + a, a) = 1;
      rigid.block<3, 1>(3 * v, 3 + a) = Vec3::Unit(a).cross(x);
    }
  }

  // An explicit shift below zero (K − σM is then SPD), and the automatic one (NaN).
  for (const double shift : {-1.0, std::numeric_limits<double>::quiet_NaN()}) {
    const std::string what = std::isnan(shift) ? "automatic shift" : "shift −1";
    const EigenPairs pairs = make()->solve(p.K, p.M, 12, shift);
    for (int i = 0; i < 6; ++i) EXPECT_LE(std::abs(pairs.values[i]), 1e-8 * lambda7) << what;
    expect_match(pairs, 6, 6, dense, 6, p.M, what);
    EXPECT_LT(m_orthonormality_error(pairs.vectors, p.M), 1e-10) << what;
    // The six near-zero modes span the rigid motions: R = Φ (ΦᵀMR) exactly.
    const Eigen::MatrixXd Phi = pairs.vectors.leftCols(6);
    const Eigen::MatrixXd residual = rigid - Phi * (Phi.transpose() * (p.M * rigid));
    EXPECT_LT(residual.norm(), 1e-8 * rigid.norm()) << what;
  }
}

TEST_F(SlepcTest, ConfiguredShiftReplacesTheCallersShift) {
  const TetMesh mesh = eigen_test_box();
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  const auto dense = dense_eigensolve(p);
  // σ just above λ₁₀: the three nearest are λ₉, λ₁₀ and λ₁₁ (0-based 8, 9, 10), whatever the
  // caller asks for; K − σM is indefinite.
  const Eigen::VectorXd& lambda = dense.eigenvalues();
  const double sigma = lambda[9] + 0.1 * (lambda[10] - lambda[9]);
  ASSERT_LT(std::max(sigma - lambda[8], lambda[10] - sigma),
            std::min(sigma - lambda[7], lambda[11] - sigma));
  const std::string shift = fmt::format("{:.17g}", sigma);
  for (const std::string factorization : {"mumps", "petsc"}) {
    const EigenPairs pairs =
        make({{"slepc.shift", shift, "test"}, {"slepc.factorization", factorization, "test"}})
            ->solve(p.K, p.M, 3, 0.0);
    expect_match(pairs, 0, 3, dense, 8, p.M, "slepc.shift, " + factorization);
  }
  // CHOLMOD's LLᵀ cannot factor the indefinite K − σM; the error says what to use instead.
  const std::string message = error_message([&] {
    make({{"slepc.shift", shift, "test"}, {"slepc.factorization", "cholmod", "test"}})
        ->solve(p.K, p.M, 3, 0.0);
  });
  EXPECT_NE(message.find("CHOLMOD needs K − σM positive definite"), std::string::npos) << message;
  // Without slepc.shift, the caller's shift counts.
  const EigenPairs lowest = make()->solve(p.K, p.M, 3, 0.0);
  expect_match(lowest, 0, 3, dense, 0, p.M, "caller's shift");
}

TEST_F(SlepcTest, AutomaticFactorizationFallsBackToMumpsWhenNotPositiveDefinite) {
  const TetMesh mesh = eigen_test_box();
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  const auto dense = dense_eigensolve(p);
  // K' = K − cM with λ₁ < c < λ₂ is indefinite, so is K' − σM for σ = 0: CHOLMOD, tried first
  // for σ ≤ 0, fails; MUMPS then finds λ₁ − c < 0 < λ₂ − c.
  const Eigen::VectorXd& lambda = dense.eigenvalues();
  const double c = lambda[0] + 0.3 * (lambda[1] - lambda[0]);
  const SparseMatrix shifted_k = p.K - c * p.M;
  const EigenPairs pairs = make()->solve(shifted_k, p.M, 2, 0.0);
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(pairs.values[i], lambda[i] - c, 1e-8 * lambda[i]) << "eigenvalue " << i;
    EXPECT_GE(m_cosine(pairs.vectors.col(i), dense.eigenvectors().col(i), p.M), 1 - 1e-8);
  }
}

TEST_F(SlepcTest, ReadsEitherTriangleAndRejectsNonSymmetricMatrices) {
  const TetMesh mesh = eigen_test_box();
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  auto solver = make();
  const EigenPairs full = solver->solve(p.K, p.M, 4, 0.0);
  const EigenPairs lower = solver->solve(SparseMatrix(p.K.triangularView<Eigen::Lower>()),
                                         SparseMatrix(p.M.triangularView<Eigen::Lower>()), 4, 0.0);
  const EigenPairs upper = solver->solve(SparseMatrix(p.K.triangularView<Eigen::Upper>()),
                                         SparseMatrix(p.M.triangularView<Eigen::Upper>()), 4, 0.0);
  EXPECT_LT((lower.values - full.values).cwiseAbs().maxCoeff(), 1e-10 * full.values[0]);
  EXPECT_LT((upper.values - full.values).cwiseAbs().maxCoeff(), 1e-10 * full.values[0]);

  SparseMatrix skewed = p.K;
  skewed.coeffRef(0, 1) += 1e-3 * std::abs(p.K.coeff(0, 0));
  const std::string message = error_message([&] { solver->solve(skewed, p.M, 4, 0.0); });
  EXPECT_NE(message.find("K is not symmetric"), std::string::npos) << message;
}

TEST_F(SlepcTest, RepeatedSolvesAndNewHostsGiveBitIdenticalResults) {
  const TetMesh mesh = eigen_test_box();
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  // Each host loads the plugin and unloads it when it goes; SLEPc, initialised by the first
  // solve, stays usable for the next host's solves.
  const auto solve_with_own_host = [&](int times) {
    PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
    const Config config = Config::from_settings({{"solvers.eigen", "slepc", "test"}}, dir(), host);
    auto solver =
        host.create<EigenSolver>("slepc", PluginKind::eigen_solver, PluginContext{config});
    std::vector<EigenPairs> results;
    for (int i = 0; i < times; ++i) results.push_back(solver->solve(p.K, p.M, 5, 0.0));
    return results;
  };
  const std::vector<EigenPairs> first = solve_with_own_host(2);
  const std::vector<EigenPairs> second = solve_with_own_host(1);
  for (const EigenPairs* other : {&first[1], &second[0]}) {
    EXPECT_EQ(first[0].values, other->values);
    EXPECT_EQ(first[0].vectors, other->vectors);
  }
}

TEST_F(SlepcTest, TooManyEigenpairsIsAnError) {
  const TetMesh mesh = eigen_test_box();
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  auto solver = make();
  const auto n = static_cast<int>(p.K.rows());
  std::string message = error_message([&] { solver->solve(p.K, p.M, n + 1, 0.0); });
  EXPECT_NE(
      message.find(fmt::format("{} eigenpairs requested of a problem with {} DOFs", n + 1, n)),
      std::string::npos)
      << message;
  message = error_message([&] { solver->solve(p.K, p.M, 0, 0.0); });
  EXPECT_NE(message.find("ask for 1 to"), std::string::npos) << message;
  message = error_message(
      [&] { solver->solve(p.K, SparseMatrix(p.M.topLeftCorner(n - 3, n - 3)), 4, 0.0); });
  EXPECT_NE(message.find("must be square and of one size"), std::string::npos) << message;
}

TEST_F(SlepcTest, NonConvergenceSaysHowManyConvergedAndWhatToChange) {
  const TetMesh mesh = eigen_test_box();
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  // One restart of a 7-vector subspace for 6 pairs to 1e-14: too little.
  auto solver = make({{"slepc.max_iterations", "1", "test"},
                      {"slepc.ncv", "7", "test"},
                      {"slepc.tolerance", "1e-14", "test"}});
  const std::string message = error_message([&] { solver->solve(p.K, p.M, 6, 0.0); });
  EXPECT_NE(message.find("of the 6 eigenpairs nearest σ = 0 converged in 1 Krylov–Schur"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("raise slepc.max_iterations"), std::string::npos) << message;
}

TEST_F(SlepcTest, InvalidSettingsAreErrorsNamingTheKey) {
  EXPECT_NE(
      error_message([&] {
        make({{"slepc.factorization", "lu", "test"}});
      }).find("test: [slepc] factorization = 'lu': expected one of auto, mumps, petsc, cholmod"),
      std::string::npos);
  EXPECT_NE(error_message([&] {
              make({{"slepc.tolerance", "0", "test"}});
            }).find("[slepc] tolerance = '0': expected a finite number in (0, 1)"),
            std::string::npos);
  EXPECT_NE(error_message([&] {
              make({{"slepc.max_iterations", "0", "test"}});
            }).find("[slepc] max_iterations = '0': expected an integer ≥ 1"),
            std::string::npos);
  const TetMesh mesh = eigen_test_box();
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  EXPECT_NE(error_message([&] {
              make({{"slepc.ncv", "6", "test"}})->solve(p.K, p.M, 6, 0.0);
            }).find("slepc.ncv = 6 must be 0 (automatic) or in (6, "),
            std::string::npos);
}

TEST_F(SlepcTest, Beam3LowestFrequenciesMatchTheDenseSolver) {
  const std::filesystem::path meshes = testing::share_dir() / "meshes";
  const TetMesh mesh = read_tet_mesh(meshes / "beam3_tet.veg");
  const std::vector<Index> fixed = read_bou(meshes / "beam3.bou", mesh.num_vertices());
  ASSERT_EQ(mesh.num_vertices(), 208);
  // StVK's tangent stiffness at rest.
  const Problem p = eigen_problem_of(mesh, fixed, MaterialModel::stvk);
  const auto dense = dense_eigensolve(p);
  const EigenPairs pairs = make()->solve(p.K, p.M, 10, 0.0);
  for (int i = 0; i < 10; ++i) {
    const double expected = dense.eigenvalues()[i];
    EXPECT_NEAR(pairs.values[i], expected, 1e-8 * expected) << "eigenvalue " << i;
    const double f = std::sqrt(pairs.values[i]) / (2 * std::numbers::pi);
    const double f_dense = std::sqrt(expected) / (2 * std::numbers::pi);
    std::cout << "beam3 mode " << i << ": f = " << fmt::format("{:.6f}", f) << " Hz (dense "
              << fmt::format("{:.6f}", f_dense) << " Hz)\n";
  }
  const double f0 = std::sqrt(dense.eigenvalues()[0]) / (2 * std::numbers::pi);
  EXPECT_NEAR(std::sqrt(pairs.values[0]) / (2 * std::numbers::pi), f0, 1e-8 * f0);
}

}  // namespace
}  // namespace substruct
