// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CHOLMOD's sparse Cholesky factorization A = P L Lᵀ Pᵀ of a symmetric positive definite matrix:
// one symbolic analysis (ordering, elimination tree, supernodes), any number of numeric
// factorizations of matrices with that pattern.
#include <string>

#include <suitesparse/cholmod.h>

#include "ordering.hpp"
#include "substruct/core/types.hpp"

namespace substruct::cholmod_plugin {

enum class Factorization { automatic, simplicial, supernodal };

class CholeskyFactor {
 public:
  CholeskyFactor(Ordering ordering, Factorization factorization);
  ~CholeskyFactor();
  CholeskyFactor(const CholeskyFactor&) = delete;
  CholeskyFactor& operator=(const CholeskyFactor&) = delete;

  /// A is square, compressed, symmetric; only its lower triangle is read when it stores one,
  /// else its upper triangle.
  void analyze(const SparseMatrix& A);
  /// Throws Error when A is not positive definite, naming the column where it failed.
  void factorize(const SparseMatrix& A);
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;

  long factor_nonzeros() const { return factor_nonzeros_; }
  /// e.g. "CHOLMOD supernodal LLᵀ, AMD ordering".
  std::string method() const;

 private:
  cholmod_sparse view(const SparseMatrix& A) const;

  Ordering ordering_;
  Factorization factorization_;
  int stype_ = -1;  // −1: lower triangle, +1: upper
  long factor_nonzeros_ = 0;
  mutable cholmod_common common_;
  cholmod_factor* L_ = nullptr;
  mutable cholmod_dense* X_ = nullptr;  // reused solve workspace
  mutable cholmod_dense* Y_ = nullptr;
  mutable cholmod_dense* E_ = nullptr;
};

}  // namespace substruct::cholmod_plugin
