// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// UMFPACK's sparse LU factorization P A Q = L U of a square matrix (unsymmetric or symmetric
// indefinite): one symbolic analysis, any number of numeric factorizations with that pattern.
#include <string>

#include <suitesparse/umfpack.h>

#include "ordering.hpp"
#include "substruct/core/types.hpp"

namespace substruct::cholmod_plugin {

class LuFactor {
 public:
  explicit LuFactor(Ordering ordering);
  ~LuFactor();
  LuFactor(const LuFactor&) = delete;
  LuFactor& operator=(const LuFactor&) = delete;

  /// A is square and compressed, every entry stored (both triangles of a symmetric matrix).
  void analyze(const SparseMatrix& A);
  /// Throws Error when A is singular.
  void factorize(const SparseMatrix& A);
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;

  long factor_nonzeros() const { return factor_nonzeros_; }
  std::string method() const;  // e.g. "UMFPACK LU, AMD ordering"

 private:
  void free_numeric();

  Ordering ordering_;
  double control_[UMFPACK_CONTROL];
  void* symbolic_ = nullptr;
  void* numeric_ = nullptr;
  SparseMatrix A_;  // the factored matrix, kept for iterative refinement in solve()
  long factor_nonzeros_ = 0;
};

}  // namespace substruct::cholmod_plugin
