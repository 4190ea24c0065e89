// SPDX-License-Identifier: GPL-3.0-or-later
// The cholmod linear-solver plugin against Eigen's factorizations on FEM matrices.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/dof_map.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct {
namespace {

class CholmodTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // A clamped 20×4×4 box beam: K(0) + (1/(β dt²)) M on the free DOFs, the matrix the implicit
    // integrators factor, and a load vector.
    Material material;
    material.youngs_modulus = 2e6;
    material.poisson_ratio = 0.3;
    material.density = 1100;
    const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 0.2, 0.2), 20, 4, 4, material);
    const ElasticForceModel model(mesh, MaterialModel::stvk);
    const DofMap dofs =
        DofMap::for_fixed_vertices(mesh.num_vertices(), mesh.vertex_sets.at("xmin"));
    K_ = new SparseMatrix(
        dofs.restrict_matrix(model.stiffness(Eigen::VectorXd::Zero(3 * mesh.num_vertices()))));
    M_ = new SparseMatrix(dofs.restrict_matrix(consistent_mass(mesh)));
    const double dt = 1e-3;
    A_ = new SparseMatrix(*K_ + (4 / (dt * dt)) * *M_);
    A_->makeCompressed();
    b_ = new Eigen::VectorXd(A_->rows());
    for (Eigen::Index i = 0; i < b_->size(); ++i) (*b_)[i] = std::sin(0.37 * double(i)) + 0.1;
  }
  static void TearDownTestSuite() {
    delete K_;
    delete M_;
    delete A_;
    delete b_;
  }

  std::unique_ptr<LinearSolver> make(const std::string& ordering = "amd",
                                     const std::string& factorization = "auto") {
    const Config config = Config::from_settings({{"solvers.linear", "cholmod", "test"},
                                                 {"cholmod.ordering", ordering, "test"},
                                                 {"cholmod.factorization", factorization, "test"}},
                                                std::filesystem::temp_directory_path(), host_);
    return host_.create<LinearSolver>("cholmod", PluginKind::linear_solver, PluginContext{config});
  }

  static double relative_error(const Eigen::VectorXd& x, const Eigen::VectorXd& reference) {
    return (x - reference).norm() / reference.norm();
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  static SparseMatrix* K_;
  static SparseMatrix* M_;
  static SparseMatrix* A_;
  static Eigen::VectorXd* b_;
};

SparseMatrix* CholmodTest::K_ = nullptr;
SparseMatrix* CholmodTest::M_ = nullptr;
SparseMatrix* CholmodTest::A_ = nullptr;
Eigen::VectorXd* CholmodTest::b_ = nullptr;

TEST_F(CholmodTest, MatchesEigenLdltForEveryOrderingAndForm) {
  Eigen::SimplicialLDLT<SparseMatrix> reference(*A_);
  ASSERT_EQ(reference.info(), Eigen::Success);
  const Eigen::VectorXd x_ref = reference.solve(*b_);
  for (const std::string ordering : {"amd", "metis", "natural"})
    for (const std::string form : {"auto", "simplicial", "supernodal"}) {
      auto solver = make(ordering, form);
      solver->analyze(*A_, MatrixProperties{});
      solver->factorize(*A_);
      Eigen::VectorXd x;
      solver->solve(*b_, x);
      const FactorizationInfo info = solver->info();
      EXPECT_LT(relative_error(x, x_ref), 1e-10) << ordering << ", " << form << ": " << info.method;
      EXPECT_NE(info.method.find("CHOLMOD"), std::string::npos);
      if (form != "auto") {
        EXPECT_NE(info.method.find(form), std::string::npos) << info.method;
      }
      // L has at least the lower triangle of A.
      const long lower = (A_->nonZeros() + A_->rows()) / 2;
      EXPECT_GE(info.factor_nonzeros, lower) << info.method;
    }
}

TEST_F(CholmodTest, FillReducingOrderingsBeatTheNaturalOne) {
  auto natural = make("natural", "simplicial");
  auto amd = make("amd", "simplicial");
  natural->analyze(*A_, MatrixProperties{});
  amd->analyze(*A_, MatrixProperties{});
  EXPECT_LT(amd->info().factor_nonzeros, natural->info().factor_nonzeros);
}

TEST_F(CholmodTest, ReadsEitherTriangleOfASymmetricMatrix) {
  const Eigen::VectorXd x_ref = Eigen::SimplicialLDLT<SparseMatrix>(*A_).solve(*b_);
  for (const SparseMatrix& half : {SparseMatrix(A_->triangularView<Eigen::Lower>()),
                                   SparseMatrix(A_->triangularView<Eigen::Upper>())}) {
    auto solver = make();
    solver->analyze(half, MatrixProperties{});
    solver->factorize(half);
    Eigen::VectorXd x;
    solver->solve(*b_, x);
    EXPECT_LT(relative_error(x, x_ref), 1e-10);
  }
}

// One analysis, several numeric factorizations of matrices with the same pattern (as in Newton
// iterations with a changing dt or stiffness).
TEST_F(CholmodTest, RefactorsWithTheSameAnalysis) {
  auto solver = make("metis", "supernodal");
  solver->analyze(*A_, MatrixProperties{});
  const long nonzeros = solver->info().factor_nonzeros;
  for (double c : {4e6, 1e4, 37.0}) {
    SparseMatrix A = *K_ + c * *M_;
    A.makeCompressed();
    ASSERT_EQ(A.nonZeros(), A_->nonZeros());
    solver->factorize(A);
    Eigen::VectorXd x;
    solver->solve(*b_, x);
    const Eigen::VectorXd x_ref = Eigen::SimplicialLDLT<SparseMatrix>(A).solve(*b_);
    EXPECT_LT(relative_error(x, x_ref), 1e-10) << "c = " << c;
    EXPECT_EQ(solver->info().factor_nonzeros, nonzeros);
  }
  // Another pattern needs another analysis, and says so.
  SparseMatrix diagonal(A_->rows(), A_->cols());
  diagonal.setIdentity();
  try {
    solver->factorize(diagonal);
    FAIL() << "a matrix with another pattern was factored";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("analyze"), std::string::npos) << e.what();
  }
  // A failed factorization leaves no factor to solve with.
  Eigen::VectorXd x;
  EXPECT_THROW(solver->solve(*b_, x), Error);
}

TEST_F(CholmodTest, NotPositiveDefiniteIsAnErrorNamingTheColumn) {
  const int j = 123;
  SparseMatrix A = *A_;
  A.coeffRef(j, j) = -A.coeff(j, j);  // e_jᵀ A e_j < 0
  for (const std::string ordering : {"amd", "natural"})
    for (const std::string form : {"simplicial", "supernodal"}) {
      auto solver = make(ordering, form);
      solver->analyze(A, MatrixProperties{});
      try {
        solver->factorize(A);
        FAIL() << "an indefinite matrix was factored (" << ordering << ", " << form << ")";
      } catch (const Error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("not positive definite"), std::string::npos) << message;
        // Every pivot before column j comes from a positive definite principal submatrix.
        EXPECT_NE(message.find("column 123 "), std::string::npos) << message;
      }
    }
}

// Matrices that are not SPD go to UMFPACK's LU.
TEST_F(CholmodTest, UnsymmetricAndIndefiniteMatricesUseLu) {
  // Unsymmetric: A plus a skew-symmetric coupling on its pattern.
  SparseMatrix U = *A_;
  for (int col = 0; col < U.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(U, col); it; ++it)
      if (it.row() != col) it.valueRef() *= it.row() < col ? 1.3 : 0.6;
  Eigen::SparseLU<SparseMatrix> lu(U);
  ASSERT_EQ(lu.info(), Eigen::Success);
  for (const std::string ordering : {"amd", "metis", "natural"}) {
    auto solver = make(ordering);
    solver->analyze(U, MatrixProperties{false, false, {}});
    solver->factorize(U);
    Eigen::VectorXd x;
    solver->solve(*b_, x);
    EXPECT_LT(relative_error(x, lu.solve(*b_)), 1e-10) << ordering;
    EXPECT_NE(solver->info().method.find("UMFPACK LU"), std::string::npos);
    EXPECT_GT(solver->info().factor_nonzeros, 0);
  }

  // Symmetric indefinite (K − σM with σ above the lowest eigenvalues), given as its lower
  // triangle.
  SparseMatrix S = *K_ - 2e5 * *M_;
  S.makeCompressed();
  Eigen::SparseLU<SparseMatrix> reference(S);
  ASSERT_EQ(reference.info(), Eigen::Success);
  auto solver = make();
  const SparseMatrix lower = S.triangularView<Eigen::Lower>();
  solver->analyze(lower, MatrixProperties{true, false, {}});
  solver->factorize(lower);
  Eigen::VectorXd x;
  solver->solve(*b_, x);
  EXPECT_LT(relative_error(x, reference.solve(*b_)), 1e-9);
  // CHOLMOD refuses it.
  auto cholesky = make();
  cholesky->analyze(S, MatrixProperties{});
  EXPECT_THROW(cholesky->factorize(S), Error);
}

TEST_F(CholmodTest, SingularMatrixIsAnError) {
  SparseMatrix A = *A_;
  const int j = 10;
  for (int col = 0; col < A.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(A, col); it; ++it)
      if (it.row() == j) it.valueRef() = 0;  // row j is zero
  auto solver = make();
  solver->analyze(A, MatrixProperties{false, false, {}});
  try {
    solver->factorize(A);
    FAIL() << "a singular matrix was factored";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("singular"), std::string::npos) << e.what();
  }
}

TEST_F(CholmodTest, RejectsBadOptionsAndMisuse) {
  EXPECT_THROW(make("colamd"), Error);
  EXPECT_THROW(make("amd", "multifrontal"), Error);
  auto solver = make();
  EXPECT_THROW(solver->factorize(*A_), Error);  // before analyze()
  EXPECT_THROW(solver->analyze(SparseMatrix(3, 4), MatrixProperties{}), Error);
  solver->analyze(*A_, MatrixProperties{});
  solver->factorize(*A_);
  Eigen::VectorXd x;
  EXPECT_THROW(solver->solve(Eigen::VectorXd::Ones(5), x), Error);

  const PluginDescriptor& d = host_.find("cholmod", PluginKind::linear_solver);
  const auto options = d.options().description();
  std::vector<std::string> keys;
  for (const auto& option : options.options()) keys.push_back(option->long_name());
  EXPECT_EQ(keys, (std::vector<std::string>{"cholmod.ordering", "cholmod.factorization"}));
}

}  // namespace
}  // namespace substruct
