// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The interface of eigen-solver plugins: generalized symmetric problems K x = λ M x.
#include "substruct/core/types.hpp"
#include "substruct/plugin/component.hpp"

namespace substruct {

struct EigenPairs {
  Eigen::VectorXd values;   // λ₀ ≤ λ₁ ≤ …
  Eigen::MatrixXd vectors;  // columns, M-orthonormal
};

class EigenSolver : public Component {
 public:
  /// The `count` eigenpairs of K x = λ M x with λ closest to `shift` (K, M symmetric, M SPD;
  /// constrained DOFs already removed by the caller). Throws Error when it does not converge.
  virtual EigenPairs solve(const SparseMatrix& K, const SparseMatrix& M, int count,
                           double shift) = 0;
  /// In a job an MPI launcher started: whether solve() is one solve shared by every rank (each
  /// passes the same K and M) or this process's own. Solvers that cannot share a solve ignore it.
  virtual void set_shared(bool shared) { (void)shared; }
};

}  // namespace substruct
