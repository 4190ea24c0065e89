// SPDX-License-Identifier: GPL-3.0-or-later
// The mumps linear-solver plugin (MUMPS LDLᵀ through PETSc) against Eigen's factorizations on
// FEM matrices, in one process (its shared factorization over ranks is checked under mpirun by
// tests/cli/mpi/precompute_distributed.sh).
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/solvers/linear_solver.hpp"
#include "support/eigen_problem.hpp"

namespace substruct {
namespace {

class MumpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (host_.try_find("mumps") == nullptr)
      GTEST_SKIP() << "the mumps plugin is not built (it comes with the slepc plugin: SLEPc, "
                      "PETSc and MPI)";
    // A box of 12 × 3 × 3 cells clamped at x = 0: K (StVK at rest) and M on the free DOFs.
    const TetMesh mesh = testing::eigen_test_box(12, 3, 3);
    const testing::EigenProblem p =
        testing::eigen_problem_of(mesh, mesh.vertex_sets.at("xmin"), MaterialModel::stvk);
    K_ = p.K;
    M_ = p.M;
    K_.makeCompressed();
    b_.resize(K_.rows());
    for (Eigen::Index i = 0; i < b_.size(); ++i) b_[i] = std::sin(0.37 * double(i)) + 0.1;
  }

  std::unique_ptr<LinearSolver> make() {
    const Config config = Config::from_settings({{"solvers.linear", "mumps", "test"}},
                                                std::filesystem::temp_directory_path(), host_);
    return host_.create<LinearSolver>("mumps", PluginKind::linear_solver, PluginContext{config});
  }

  static double relative_error(const Eigen::VectorXd& x, const Eigen::VectorXd& reference) {
    return (x - reference).norm() / reference.norm();
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  SparseMatrix K_, M_;
  Eigen::VectorXd b_;
};

TEST_F(MumpsTest, MatchesEigenOnAStiffnessReadFromEitherTriangle) {
  Eigen::SimplicialLDLT<SparseMatrix> reference(K_);
  const Eigen::VectorXd expected = reference.solve(b_);
  for (const char* stored : {"both", "lower", "upper"}) {
    SCOPED_TRACE(stored);
    const SparseMatrix A = std::string(stored) == "both" ? K_
                           : std::string(stored) == "lower"
                               ? SparseMatrix(K_.triangularView<Eigen::Lower>())
                               : SparseMatrix(K_.triangularView<Eigen::Upper>());
    auto solver = make();
    EXPECT_FALSE(solver->shared());
    solver->analyze(A, MatrixProperties{});
    solver->factorize(A);
    Eigen::VectorXd x;
    solver->solve(b_, x);
    EXPECT_LT(relative_error(x, expected), 1e-10);
    EXPECT_EQ(solver->info().method, "MUMPS LDLᵀ over 1 rank");
    EXPECT_GT(solver->info().factor_nonzeros, K_.nonZeros() / 2);
  }
}

TEST_F(MumpsTest, SolvesAnIndefiniteSystemAndRefactors) {
  // K − σM with σ between eigenvalues: symmetric, indefinite (a Cholesky solver refuses it).
  auto solver = make();
  solver->analyze(K_, MatrixProperties{true, false, {}});
  solver->factorize(K_);
  for (const double sigma : {0.0, 5e4, 2e5}) {
    SCOPED_TRACE(sigma);
    SparseMatrix A = K_ - sigma * M_;
    A.makeCompressed();
    if (sigma > 0) {  // indeed indefinite
      Eigen::SimplicialLLT<SparseMatrix> cholesky(A);
      EXPECT_NE(cholesky.info(), Eigen::Success);
    }
    solver->factorize(A);
    Eigen::VectorXd x;
    solver->solve(b_, x);
    EXPECT_LT((A * x - b_).norm() / b_.norm(), 1e-8);
    Eigen::SparseLU<SparseMatrix> lu(A);
    EXPECT_LT(relative_error(x, lu.solve(b_)), 1e-8);
  }
}

TEST_F(MumpsTest, SharedInOneProcessIsAGroupOfOne) {
  auto solver = make();
  solver->set_shared(true);
  EXPECT_TRUE(solver->shared());
  solver->analyze(K_, MatrixProperties{});
  solver->factorize(K_);
  Eigen::VectorXd x;
  solver->solve(b_, x);
  Eigen::SimplicialLDLT<SparseMatrix> reference(K_);
  EXPECT_LT(relative_error(x, reference.solve(b_)), 1e-10);
}

TEST_F(MumpsTest, ManyRightHandSidesTogetherEqualOneByOne) {
  auto solver = make();
  solver->analyze(K_, MatrixProperties{});
  solver->factorize(K_);
  Eigen::MatrixXd B(K_.rows(), 5);
  for (Eigen::Index c = 0; c < B.cols(); ++c)
    for (Eigen::Index i = 0; i < B.rows(); ++i) B(i, c) = std::cos(0.11 * double(i * (c + 1)));
  Eigen::MatrixXd X;
  solver->solve_columns(B, X);
  ASSERT_EQ(X.rows(), B.rows());
  ASSERT_EQ(X.cols(), B.cols());
  Eigen::SimplicialLDLT<SparseMatrix> reference(K_);
  for (Eigen::Index c = 0; c < B.cols(); ++c) {
    Eigen::VectorXd x;
    solver->solve(B.col(c), x);
    EXPECT_LT(relative_error(X.col(c), x), 1e-12) << c;
    EXPECT_LT(relative_error(X.col(c), reference.solve(B.col(c))), 1e-10) << c;
  }
  EXPECT_THROW(solver->solve_columns(Eigen::MatrixXd::Ones(5, 2), X), Error);
}

TEST_F(MumpsTest, SingularMatrixUnsymmetricMatrixAndMisuseAreErrors) {
  SparseMatrix singular = K_;
  for (int col = 0; col < singular.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(singular, col); it; ++it)
      if (it.row() == 10 || it.col() == 10) it.valueRef() = 0;  // row and column 10 zero
  auto solver = make();
  solver->analyze(singular, MatrixProperties{});
  try {
    solver->factorize(singular);
    FAIL() << "a singular matrix was factored";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("could not be factored (is it singular?)"),
              std::string::npos)
        << e.what();
  }
  Eigen::VectorXd x;
  EXPECT_THROW(solver->solve(b_, x), Error);  // nothing factored
  EXPECT_THROW(solver->analyze(K_, MatrixProperties{false, false, {}}), Error);
  EXPECT_THROW(solver->analyze(SparseMatrix(3, 4), MatrixProperties{}), Error);
  solver->analyze(K_, MatrixProperties{});
  solver->factorize(K_);
  EXPECT_THROW(solver->solve(Eigen::VectorXd::Ones(5), x), Error);
  // A solver of one process cannot share a solve.
  const Config config = Config::from_settings({}, std::filesystem::temp_directory_path(), host_);
  auto cholmod =
      host_.create<LinearSolver>("cholmod", PluginKind::linear_solver, PluginContext{config});
  EXPECT_FALSE(cholmod->shared());
  EXPECT_THROW(cholmod->set_shared(true), Error);
}

}  // namespace
}  // namespace substruct
