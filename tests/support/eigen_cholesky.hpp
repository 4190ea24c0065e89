// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A sparse Cholesky through the LinearSolver interface (Eigen's SimplicialLLT), counting analyses
// and factorizations: the integrator's tests solve with it without the solver plugins.
#include <Eigen/SparseCholesky>

#include "substruct/core/error.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct::testing {

class EigenCholesky : public LinearSolver {
 public:
  void analyze(const SparseMatrix& A, const MatrixProperties&) override {
    llt_.analyzePattern(A);
    ++analyses;
  }
  void factorize(const SparseMatrix& A) override {
    llt_.factorize(A);
    if (llt_.info() != Eigen::Success) throw Error("test solver: not positive definite");
    ++factorizations;
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const override { x = llt_.solve(b); }
  FactorizationInfo info() const override { return {0, "Eigen SimplicialLLT"}; }

  int analyses = 0;
  int factorizations = 0;

 private:
  Eigen::SimplicialLLT<SparseMatrix> llt_;
};

}  // namespace substruct::testing
