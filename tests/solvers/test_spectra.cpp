// SPDX-License-Identifier: GPL-3.0-or-later
// The spectra eigen-solver plugin against Eigen's dense generalized symmetric solver and the
// slepc plugin on FEM matrices (a clamped and a free-floating box, a shift inside the spectrum),
// its errors, and `[solvers] eigen = auto`: spectra in a process started alone, slepc under an
// MPI launcher.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
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
#include "substruct/plugin/eigen_plugin_name.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/solvers/eigen_solver.hpp"
#include "support/eigen_problem.hpp"
#include "support/eigen_solver_test.hpp"

namespace substruct {
namespace {

using testing::dense_eigensolve;
using testing::eigen_problem_of;
using testing::eigen_test_box;
using testing::error_message;
using testing::m_cosine;
using testing::m_orthonormality_error;
using Problem = testing::EigenProblem;

class SpectraTest : public testing::EigenSolverTest {
 protected:
  std::unique_ptr<EigenSolver> make(std::vector<Setting> settings = {},
                                    const std::string& plugin = "spectra") {
    return make_solver(plugin, std::move(settings));
  }

  // The dense solver's pairs (expect_eigenpairs_match) and the sign rule: largest entry positive.
  static void expect_match(const EigenPairs& pairs, int first, int count,
                           const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>& dense,
                           int dense_first, const SparseMatrix& M, const std::string& what) {
    testing::expect_eigenpairs_match(pairs, first, count, dense, dense_first, M, what);
    for (int i = first; i < first + count; ++i) {
      Eigen::Index largest = 0;
      pairs.vectors.col(i).cwiseAbs().maxCoeff(&largest);
      EXPECT_GT(pairs.vectors(largest, i), 0) << what << ", eigenvector " << i;
    }
  }
};

TEST_F(SpectraTest, ClampedBoxMatchesTheDenseSolverAndSlepc) {
  const TetMesh mesh = eigen_test_box(8, 3, 2);
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  ASSERT_GT(p.K.rows(), 200);  // Lanczos, not the dense path
  const auto dense = dense_eigensolve(p);
  const EigenPairs pairs = make()->solve(p.K, p.M, 6, 0.0);
  ASSERT_EQ(pairs.values.size(), 6);
  ASSERT_EQ(pairs.vectors.rows(), p.K.rows());
  expect_match(pairs, 0, 6, dense, 0, p.M, "clamped box");
  EXPECT_LT(m_orthonormality_error(pairs.vectors, p.M), 1e-10);
  for (int i = 1; i < 6; ++i) EXPECT_LT(pairs.values[i - 1], pairs.values[i]);
  // slepc on the same problem: the same eigenvalues and, with the same sign rule, vectors.
  const EigenPairs slepc = make({}, "slepc")->solve(p.K, p.M, 6, 0.0);
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(pairs.values[i], slepc.values[i], 1e-9 * slepc.values[i]) << i;
    EXPECT_LT((pairs.vectors.col(i) - slepc.vectors.col(i)).cwiseAbs().maxCoeff(),
              1e-6 * slepc.vectors.col(i).cwiseAbs().maxCoeff())
        << i;
  }
}

TEST_F(SpectraTest, FreeFloatingBoxGivesSixRigidModesThenTheElasticOnes) {
  const TetMesh mesh = eigen_test_box(8, 3, 2);
  const Problem p = eigen_problem_of(mesh, {});
  const auto dense = dense_eigensolve(p);
  const double lambda7 = dense.eigenvalues()[6];
  for (const double shift : {-1.0, std::numeric_limits<double>::quiet_NaN()}) {
    const std::string what = std::isnan(shift) ? "automatic shift" : "shift −1";
    const EigenPairs pairs = make()->solve(p.K, p.M, 12, shift);
    for (int i = 0; i < 6; ++i) EXPECT_LE(std::abs(pairs.values[i]), 1e-8 * lambda7) << what;
    for (int i = 6; i < 12; ++i)
      EXPECT_NEAR(pairs.values[i], dense.eigenvalues()[i], 1e-8 * dense.eigenvalues()[i]) << what;
    EXPECT_LT(m_orthonormality_error(pairs.vectors, p.M), 1e-10) << what;
  }
}

TEST_F(SpectraTest, AShiftInsideTheSpectrumIsFactoredByLu) {
  const TetMesh mesh = eigen_test_box(8, 3, 2);
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  const auto dense = dense_eigensolve(p);
  // σ just above λ₁₀: K − σM is indefinite (CHOLMOD refuses it, UMFPACK's LU factors it); the
  // three nearest are λ₉, λ₁₀, λ₁₁ (0-based 8, 9, 10), whatever the caller asks for.
  const Eigen::VectorXd& lambda = dense.eigenvalues();
  const double sigma = lambda[9] + 0.1 * (lambda[10] - lambda[9]);
  ASSERT_LT(std::max(sigma - lambda[8], lambda[10] - sigma),
            std::min(sigma - lambda[7], lambda[11] - sigma));
  const EigenPairs pairs =
      make({{"spectra.shift", fmt::format("{:.17g}", sigma), "test"}})->solve(p.K, p.M, 3, 0.0);
  expect_match(pairs, 0, 3, dense, 8, p.M, "spectra.shift inside the spectrum");
}

TEST_F(SpectraTest, SmallProblemsAreSolvedDensely) {
  const TetMesh mesh = eigen_test_box(2, 1, 1);
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  ASSERT_LE(p.K.rows(), 200);
  const auto dense = dense_eigensolve(p);
  const int n = static_cast<int>(p.K.rows());
  const EigenPairs all = make()->solve(p.K, p.M, n, 0.0);  // every pair: only a dense solve can
  expect_match(all, 0, n, dense, 0, p.M, "every eigenpair");
}

TEST_F(SpectraTest, RepeatedSolvesGiveBitIdenticalResults) {
  const TetMesh mesh = eigen_test_box(8, 3, 2);
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  const EigenPairs a = make()->solve(p.K, p.M, 5, 0.0);
  const EigenPairs b = make()->solve(p.K, p.M, 5, 0.0);
  EXPECT_EQ(a.values, b.values);
  EXPECT_EQ(a.vectors, b.vectors);
}

TEST_F(SpectraTest, ErrorsSayWhatToChange) {
  const TetMesh mesh = eigen_test_box(8, 3, 2);
  const Problem p = eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"));
  const int n = static_cast<int>(p.K.rows());
  std::string m = error_message([&] { make()->solve(p.K, p.M, n + 1, 0.0); });
  EXPECT_NE(m.find(fmt::format("{} eigenpairs requested of a problem with {} DOFs", n + 1, n)),
            std::string::npos)
      << m;
  m = error_message([&] {
    make({{"spectra.max_iterations", "1", "test"}, {"spectra.ncv", "12", "test"}})
        ->solve(p.K, p.M, 10, 0.0);
  });
  EXPECT_NE(m.find("of the 10 eigenpairs nearest"), std::string::npos) << m;
  EXPECT_NE(m.find("raise spectra.max_iterations or spectra.ncv"), std::string::npos) << m;
  m = error_message([&] { make({{"spectra.ncv", "3", "test"}})->solve(p.K, p.M, 5, 0.0); });
  EXPECT_NE(m.find("spectra.ncv = 3 must be 0 (automatic) or in (5, "), std::string::npos) << m;
  SparseMatrix skewed = p.K;
  skewed.coeffRef(0, 1) += 1e-3 * p.K.coeff(0, 0);
  m = error_message([&] { make()->solve(skewed, p.M, 5, 0.0); });
  EXPECT_NE(m.find("spectra: K is not symmetric"), std::string::npos) << m;
  m = error_message([&] { make({{"spectra.tolerance", "2", "test"}}); });
  EXPECT_NE(m.find("[spectra] tolerance = '2'"), std::string::npos) << m;
}

TEST(EigenPluginName, AutoIsSpectraAloneAndSlepcForSolvesSharedUnderAnMpiLauncher) {
  const PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  EXPECT_EQ(eigen_plugin_name(&host, "slepc"), "slepc");
  EXPECT_EQ(eigen_plugin_name(&host, "spectra"), "spectra");
  for (const char* launcher : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    ASSERT_EQ(std::getenv(launcher), nullptr) << "this test runs without an MPI launcher";
  EXPECT_EQ(eigen_plugin_name(&host, "auto"), "spectra");
  EXPECT_EQ(eigen_plugin_name(nullptr, "auto"), "spectra");
  // A solve that may be shared (a large domain's) is slepc's in one process too, so that its
  // model is the same whether or not the ranks of an MPI job shared it.
  EXPECT_EQ(eigen_plugin_name(&host, "auto", true), "slepc");
  ASSERT_EQ(setenv("OMPI_COMM_WORLD_SIZE", "2", 1), 0);
  EXPECT_EQ(eigen_plugin_name(&host, "auto", true), "slepc");
  EXPECT_EQ(eigen_plugin_name(nullptr, "auto", true), "slepc");
  // A rank's own solves (a domain of a distributed precompute) are those of a process alone, so
  // that its models are those a process alone computes and finds in the cache.
  EXPECT_EQ(eigen_plugin_name(&host, "auto"), "spectra");
  EXPECT_EQ(eigen_plugin_name(nullptr, "auto"), "spectra");
  unsetenv("OMPI_COMM_WORLD_SIZE");
}

}  // namespace
}  // namespace substruct
