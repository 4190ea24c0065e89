// SPDX-License-Identifier: GPL-3.0-or-later
// The block-cholesky linear-solver plugin on random block-sparse systems over chain, star, tree,
// ring and grid block graphs, against Eigen's dense factorizations and the cholmod plugin, with
// the fill of each block ordering.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/solvers/linear_solver.hpp"
#include "substruct/solvers/solver_provider.hpp"
#include "support/block_systems.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using namespace substruct::testing;

struct Shape {
  std::string name;
  Couplings couplings;
  bool forest;
};

std::vector<Shape> shapes() {
  std::mt19937 rng(7);
  return {{"chain", chain_graph(7), true},
          {"star", star_graph(9), true},
          {"tree", random_tree_graph(15, rng), true},
          {"ring", ring_graph(8), false},
          {"grid", grid_graph(4, 3), false}};
}

// Blocks of 1 to 6 unknowns.
BlockStructure random_blocks(const Couplings& couplings, std::mt19937& rng) {
  int d = 0;
  for (const auto& [a, b] : couplings) d = std::max({d, a + 1, b + 1});
  std::vector<Index> sizes(d);
  for (Index& n : sizes) n = std::uniform_int_distribution<Index>(1, 6)(rng);
  return block_structure(sizes, couplings);
}

Eigen::VectorXd random_vector(Index n, std::mt19937& rng) {
  std::normal_distribution<double> normal;
  Eigen::VectorXd v(n);
  for (Index i = 0; i < n; ++i) v[i] = normal(rng);
  return v;
}

struct Problem {
  BlockStructure blocks;
  SparseMatrix A;
  Eigen::VectorXd b;
};

Problem random_problem(const Shape& shape, bool symmetric, std::mt19937& rng) {
  Problem p;
  p.blocks = random_blocks(shape.couplings, rng);
  p.A = random_block_matrix(p.blocks, symmetric, rng);
  p.b = random_vector(p.A.rows(), rng);
  return p;
}

double relative_error(const Eigen::VectorXd& x, const Eigen::VectorXd& reference) {
  return (x - reference).norm() / reference.norm();
}

MatrixProperties with_blocks(MatrixProperties properties, const BlockStructure& blocks) {
  properties.blocks = blocks;
  return properties;
}

class BlockCholeskyTest : public ::testing::Test {
 protected:
  // A solver chosen the way scenes choose it: [solvers] linear = NAME.
  std::unique_ptr<LinearSolver> make(const std::string& linear,
                                     const std::string& ordering = "auto") const {
    const Config config = Config::from_settings(
        {{"solvers.linear", linear, "test"}, {"block-cholesky.ordering", ordering, "test"}},
        std::filesystem::temp_directory_path(), host_);
    return SolverProvider(host_, config).linear();
  }

  std::unique_ptr<LinearSolver> block_solver(const BlockStructure& blocks, const SparseMatrix& A,
                                             const MatrixProperties& properties,
                                             const std::string& ordering = "auto") const {
    auto solver = make("block-cholesky", ordering);
    solver->analyze(A, with_blocks(properties, blocks));
    solver->factorize(A);
    return solver;
  }

  // Solves A x = b with block-cholesky; checks the residual and the agreement with the dense
  // solution and with the cholmod plugin's (CHOLMOD, or UMFPACK when not SPD).
  FactorizationInfo check_solve(const Problem& problem, const MatrixProperties& properties,
                                const std::string& ordering, const Eigen::VectorXd& x_dense) const {
    auto cholmod = make("cholmod");
    cholmod->analyze(problem.A, properties);
    cholmod->factorize(problem.A);
    Eigen::VectorXd x_cholmod, x;
    cholmod->solve(problem.b, x_cholmod);
    auto solver = block_solver(problem.blocks, problem.A, properties, ordering);
    solver->solve(problem.b, x);
    const FactorizationInfo info = solver->info();
    EXPECT_LE((problem.A * x - problem.b).norm() / problem.b.norm(), 1e-12) << info.method;
    EXPECT_LT(relative_error(x, x_dense), 1e-12) << info.method;
    EXPECT_LT(relative_error(x, x_cholmod), 1e-12) << info.method;
    return info;
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

TEST_F(BlockCholeskyTest, SolvesSpdSystemsOnEveryGraphWithEveryOrdering) {
  std::mt19937 rng(1);
  for (const Shape& shape : shapes()) {
    const Problem problem = random_problem(shape, true, rng);
    const BlockStructure& blocks = problem.blocks;
    const Eigen::VectorXd x_dense = Eigen::MatrixXd(problem.A).llt().solve(problem.b);
    for (const std::string ordering : {"auto", "tree", "min-degree", "natural"}) {
      if (ordering == "tree" && !shape.forest) continue;  // an error, tested below
      SCOPED_TRACE(shape.name + ", " + ordering);
      const FactorizationInfo info = check_solve(problem, MatrixProperties{}, ordering, x_dense);
      EXPECT_NE(info.method.find("block Cholesky, " + std::to_string(blocks.offsets.size() - 1) +
                                 " blocks"),
                std::string::npos)
          << info.method;
      EXPECT_GE(info.factor_nonzeros, lower_block_nonzeros(blocks)) << info.method;
      if (shape.forest && (ordering == "auto" || ordering == "tree")) {
        EXPECT_NE(info.method.find("leaves-first order, no fill"), std::string::npos)
            << info.method;
        EXPECT_EQ(info.factor_nonzeros, lower_block_nonzeros(blocks));
      }
      if (!shape.forest && ordering == "auto") {
        EXPECT_NE(info.method.find("minimum-degree order"), std::string::npos) << info.method;
      }
    }
  }
}

TEST_F(BlockCholeskyTest, TreeOrderingOnAGraphWithALoopIsAnErrorNamingTheLoop) {
  std::mt19937 rng(2);
  const BlockStructure blocks = random_blocks(ring_graph(8), rng);
  const SparseMatrix A = random_block_matrix(blocks, true, rng);
  auto solver = make("block-cholesky", "tree");
  const std::string message = error_message([&] {
    solver->analyze(A, MatrixProperties{true, true, blocks});
  });
  EXPECT_NE(message.find("without loops"), std::string::npos) << message;
  EXPECT_NE(message.find("0 – 1 – 2 – 3 – 4 – 5 – 6 – 7 – 0"), std::string::npos) << message;
}

// The paper's point (§4.3, Fig. 4): eliminating the domains leaves first creates no fill.
TEST_F(BlockCholeskyTest, LeavesFirstHasNoFillAndHubFirstFills) {
  // A star of 6 blocks of 4 unknowns, hub 0: A's lower block triangle holds 6·10 + 5·16 = 140
  // scalars. Eliminating the hub first joins the 5 leaves pairwise: 10 fill blocks, 160 more.
  const BlockStructure star = block_structure(std::vector<Index>(6, 4), star_graph(6));
  std::mt19937 rng(3);
  const SparseMatrix A = random_block_matrix(star, true, rng);
  ASSERT_EQ(lower_block_nonzeros(star), 140);
  const auto info = [&](const std::string& ordering) {
    return block_solver(star, A, MatrixProperties{}, ordering)->info();
  };
  EXPECT_EQ(info("natural").factor_nonzeros, 300);
  EXPECT_EQ(info("natural").method, "block Cholesky, 6 blocks, natural order, 10 fill blocks");
  EXPECT_EQ(info("tree").factor_nonzeros, 140);
  EXPECT_EQ(info("tree").method, "block Cholesky, 6 blocks, leaves-first order, no fill");
  EXPECT_EQ(info("auto").factor_nonzeros, 140);
  EXPECT_EQ(info("min-degree").factor_nonzeros, 140);
  EXPECT_EQ(info("min-degree").method, "block Cholesky, 6 blocks, minimum-degree order, no fill");

  // A ring of 8 blocks of 3: minimum degree closes the loop with 8 − 3 = 5 fill blocks,
  // 8·6 + (8 + 5)·9 = 165 scalars.
  const BlockStructure ring = block_structure(std::vector<Index>(8, 3), ring_graph(8));
  const SparseMatrix R = random_block_matrix(ring, true, rng);
  const FactorizationInfo ring_info = block_solver(ring, R, MatrixProperties{})->info();
  EXPECT_EQ(ring_info.factor_nonzeros, 165);
  EXPECT_EQ(ring_info.method, "block Cholesky, 8 blocks, minimum-degree order, 5 fill blocks");

  // On a grid, minimum degree fills less than the natural (row by row) order.
  const BlockStructure grid = block_structure(std::vector<Index>(16, 2), grid_graph(4, 4));
  const SparseMatrix G = random_block_matrix(grid, true, rng);
  EXPECT_LT(block_solver(grid, G, MatrixProperties{}, "min-degree")->info().factor_nonzeros,
            block_solver(grid, G, MatrixProperties{}, "natural")->info().factor_nonzeros);
}

TEST_F(BlockCholeskyTest, UnsymmetricSystemsUseBlockLu) {
  std::mt19937 rng(4);
  for (const Shape& shape : shapes()) {
    const Problem problem = random_problem(shape, false, rng);
    const BlockStructure& blocks = problem.blocks;
    const Eigen::VectorXd x_dense = Eigen::MatrixXd(problem.A).partialPivLu().solve(problem.b);
    for (const std::string ordering : {"auto", "min-degree", "natural"}) {
      SCOPED_TRACE(shape.name + ", " + ordering);
      const FactorizationInfo info =
          check_solve(problem, MatrixProperties{false, false, {}}, ordering, x_dense);
      EXPECT_NE(info.method.find("block LU"), std::string::npos) << info.method;
      if (shape.forest && ordering == "auto") {
        // No fill: the blocks of A, diagonal blocks fully (unit L below, U on and above).
        long diagonal = 0, below = lower_block_nonzeros(blocks);
        for (std::size_t k = 0; k + 1 < blocks.offsets.size(); ++k) {
          const long n = blocks.offsets[k + 1] - blocks.offsets[k];
          diagonal += n * n;
          below -= n * (n + 1) / 2;
        }
        EXPECT_EQ(info.factor_nonzeros, diagonal + 2 * below);
      }
    }
  }
}

TEST_F(BlockCholeskyTest, ReadsOneTriangleOfASymmetricMatrix) {
  std::mt19937 rng(5);
  const BlockStructure blocks = random_blocks(grid_graph(3, 3), rng);
  const SparseMatrix A = random_block_matrix(blocks, true, rng);
  const Eigen::VectorXd b = random_vector(A.rows(), rng);
  const Eigen::VectorXd x_dense = Eigen::MatrixXd(A).llt().solve(b);
  for (const SparseMatrix& half : {SparseMatrix(A.triangularView<Eigen::Lower>()),
                                   SparseMatrix(A.triangularView<Eigen::Upper>())}) {
    for (const std::string ordering : {"auto", "natural"}) {
      Eigen::VectorXd x;
      block_solver(blocks, half, MatrixProperties{}, ordering)->solve(b, x);
      EXPECT_LT(relative_error(x, x_dense), 1e-12) << ordering;
    }
  }
  // Symmetric but not positive definite (here negative definite): Cholesky refuses it, block LU
  // of the mirrored triangle solves it.
  const SparseMatrix N = -A;
  const SparseMatrix lower = N.triangularView<Eigen::Lower>();
  auto cholesky = make("block-cholesky");
  cholesky->analyze(lower, MatrixProperties{true, true, blocks});
  EXPECT_THROW(cholesky->factorize(lower), Error);
  Eigen::VectorXd x;
  block_solver(blocks, lower, MatrixProperties{true, false, {}})->solve(b, x);
  EXPECT_LT(relative_error(x, -x_dense), 1e-12);
}

TEST_F(BlockCholeskyTest, NotPositiveDefiniteIsAnErrorNamingTheBlock) {
  std::mt19937 rng(6);
  const BlockStructure blocks = random_blocks(chain_graph(7), rng);
  SparseMatrix A = random_block_matrix(blocks, true, rng);
  const Index i = blocks.offsets[3];  // in block 3
  A.coeffRef(i, i) = -1e3;
  // The blocks eliminated before block 3 form a positive definite principal submatrix, whatever
  // the order: the failure is in block 3.
  for (const std::string ordering : {"auto", "min-degree", "natural"}) {
    auto solver = make("block-cholesky", ordering);
    solver->analyze(A, MatrixProperties{true, true, blocks});
    const std::string message = error_message([&] { solver->factorize(A); });
    EXPECT_NE(message.find("not positive definite"), std::string::npos) << message;
    EXPECT_NE(message.find("in block 3 "), std::string::npos) << message;
    Eigen::VectorXd x;
    EXPECT_THROW(solver->solve(Eigen::VectorXd::Ones(A.rows()), x), Error);
  }
}

TEST_F(BlockCholeskyTest, SingularPivotBlockInLuIsAnErrorNamingTheBlock) {
  std::mt19937 rng(7);
  const BlockStructure blocks = random_blocks(chain_graph(5), rng);
  SparseMatrix A = random_block_matrix(blocks, false, rng);
  for (int col = blocks.offsets[0]; col < blocks.offsets[1]; ++col)
    for (SparseMatrix::InnerIterator it(A, col); it; ++it)
      if (it.row() < blocks.offsets[1]) it.valueRef() = 0;  // block (0, 0) = 0
  auto solver = make("block-cholesky", "natural");
  solver->analyze(A, MatrixProperties{false, false, blocks});
  const std::string message = error_message([&] { solver->factorize(A); });
  EXPECT_NE(message.find("pivot block of block 0 "), std::string::npos) << message;
  EXPECT_NE(message.find("singular"), std::string::npos) << message;
}

TEST_F(BlockCholeskyTest, EntriesOutsideTheDeclaredCouplingsAreAnError) {
  std::mt19937 rng(8);
  const BlockStructure blocks = random_blocks(chain_graph(5), rng);
  const SparseMatrix A = random_block_matrix(blocks, true, rng);
  SparseMatrix B = A;
  const Index r = blocks.offsets[4], c = blocks.offsets[0];  // blocks 4 and 0: not coupled
  B.coeffRef(r, c) = 0.5;
  B.coeffRef(c, r) = 0.5;
  B.makeCompressed();
  auto solver = make("block-cholesky");
  const std::string expected =
      "entry at (" + std::to_string(r) + ", " + std::to_string(c) + ") in block (4, 0)";
  std::string message = error_message([&] {
    solver->analyze(B, MatrixProperties{true, true, blocks});
  });
  EXPECT_NE(message.find(expected), std::string::npos) << message;
  EXPECT_NE(message.find("blocks 4 and 0 are not coupled"), std::string::npos) << message;
  // The same when a matrix with another pattern comes to factorize().
  solver->analyze(A, MatrixProperties{true, true, blocks});
  message = error_message([&] { solver->factorize(B); });
  EXPECT_NE(message.find(expected), std::string::npos) << message;
}

TEST_F(BlockCholeskyTest, NeedsAValidBlockStructure) {
  std::mt19937 rng(9);
  const BlockStructure blocks = random_blocks(chain_graph(4), rng);
  const SparseMatrix A = random_block_matrix(blocks, true, rng);
  auto solver = make("block-cholesky");
  std::string message = error_message([&] { solver->analyze(A, MatrixProperties{}); });
  EXPECT_NE(message.find("MatrixProperties::blocks"), std::string::npos) << message;

  const auto rejected = [&](BlockStructure s, const std::string& what) {
    const std::string m = error_message([&] {
      solver->analyze(A, MatrixProperties{true, true, s});
    });
    EXPECT_NE(m.find(what), std::string::npos) << m;
  };
  BlockStructure shifted = blocks;
  shifted.offsets.front() = 1;
  rejected(shifted, "must start at 0");
  BlockStructure empty = blocks;
  empty.offsets.insert(empty.offsets.begin() + 2, empty.offsets[2]);
  rejected(empty, "block 2 is empty");
  rejected(block_structure({2, 3}, {{0, 2}}), "out of range");
  rejected(block_structure({2, 3}, {{1, 1}}), "with itself");
  BlockStructure short_blocks = blocks;
  short_blocks.offsets.pop_back();
  short_blocks.couplings.pop_back();
  rejected(short_blocks, "hold " + std::to_string(short_blocks.offsets.back()) + " unknowns");
}

// One analysis, several factorizations: new values, and a pattern that changes within the
// declared blocks (it only needs a new scatter of A into the blocks).
TEST_F(BlockCholeskyTest, RefactorsWithTheSameAnalysis) {
  std::mt19937 rng(10);
  const BlockStructure blocks = random_blocks(grid_graph(3, 4), rng);
  auto solver = make("block-cholesky");
  Eigen::VectorXd x;
  EXPECT_THROW(solver->factorize(random_block_matrix(blocks, true, rng)), Error);  // no analysis
  solver->analyze(random_block_matrix(blocks, true, rng), MatrixProperties{true, true, blocks});
  const FactorizationInfo analysed = solver->info();
  EXPECT_THROW(solver->solve(Eigen::VectorXd::Ones(blocks.offsets.back()), x), Error);
  for (int k = 0; k < 3; ++k) {
    SparseMatrix A = random_block_matrix(blocks, true, rng);
    if (k == 2)  // drop some coupling entries: still block diagonally dominant
      A.prune([](int row, int col, double) { return row == col || (row + col) % 5 != 1; });
    const Eigen::VectorXd b = random_vector(A.rows(), rng);
    solver->factorize(A);
    solver->solve(b, x);
    EXPECT_LT(relative_error(x, Eigen::MatrixXd(A).llt().solve(b)), 1e-12) << k;
    EXPECT_EQ(solver->info().factor_nonzeros, analysed.factor_nonzeros);
  }
  EXPECT_THROW(solver->solve(Eigen::VectorXd::Ones(3), x), Error);
}

TEST_F(BlockCholeskyTest, IsALinearSolverPluginWithOneOption) {
  EXPECT_THROW(make("block-cholesky", "amd"), Error);
  const PluginDescriptor& d = host_.find("block-cholesky", PluginKind::linear_solver);
  const auto options = d.options().description();
  std::vector<std::string> keys;
  for (const auto& option : options.options()) keys.push_back(option->long_name());
  EXPECT_EQ(keys, std::vector<std::string>{"block-cholesky.ordering"});
  EXPECT_EQ(make("block-cholesky")->info().method, "not analysed");
}

}  // namespace
}  // namespace substruct
