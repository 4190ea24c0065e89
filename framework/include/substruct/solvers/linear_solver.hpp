// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The interface of linear-solver plugins (sparse direct: CHOLMOD; block-sparse Cholesky…).
#include <string>
#include <utility>
#include <vector>

#include "substruct/core/error.hpp"
#include "substruct/core/types.hpp"
#include "substruct/plugin/component.hpp"

namespace substruct {

/// The block structure of A (e.g. one block per domain, [offsets[i], offsets[i+1])), and which
/// blocks couple. Block solvers order and factor by it; others ignore it.
struct BlockStructure {
  std::vector<Index> offsets;
  std::vector<std::pair<int, int>> couplings;
  bool empty() const { return offsets.empty(); }
};

/// What the caller knows about A: symmetry, definiteness and, for a system of domain blocks
/// coupled along the domain graph, its blocks (a block solver needs them; empty otherwise).
struct MatrixProperties {
  bool symmetric = true;
  bool positive_definite = true;
  BlockStructure blocks;
};

struct FactorizationInfo {
  long factor_nonzeros = 0;
  std::string method;  // e.g. "CHOLMOD supernodal LLᵀ, AMD ordering"
};

class LinearSolver : public Component {
 public:
  /// Symbolic analysis (ordering, elimination tree) of A's pattern; kept while the pattern of
  /// the matrices passed to factorize() stays the same.
  virtual void analyze(const SparseMatrix& A, const MatrixProperties& properties) = 0;
  /// Numeric factorization. Throws Error when A is singular or, for a Cholesky solver, not
  /// positive definite.
  virtual void factorize(const SparseMatrix& A) = 0;
  /// x = A⁻¹ b with the last factorization.
  virtual void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const = 0;
  /// X = A⁻¹ B, every column of B, with the last factorization: one solve() per column unless
  /// the solver solves many right-hand sides together (mumps does, in one pass over its factor).
  virtual void solve_columns(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const {
    X.resize(B.rows(), B.cols());
    Eigen::VectorXd x;
    for (Eigen::Index c = 0; c < B.cols(); ++c) {
      solve(B.col(c), x);
      X.col(c) = x;
    }
  }
  virtual FactorizationInfo info() const = 0;

  /// In a job an MPI launcher started, whether analyze(), factorize() and solve() are each one
  /// computation over every rank of the job: every rank calls them with the same matrix and
  /// right-hand side, the factor is distributed over the ranks, and every rank gets the whole
  /// solution. False (the default) for a solver of one process.
  virtual bool shared() const { return false; }
  /// Asks for shared solves (before analyze()). A solver of one process throws Error.
  virtual void set_shared(bool shared) {
    if (shared) throw Error("this linear solver solves on one process; it cannot share a solve");
  }
};

}  // namespace substruct
