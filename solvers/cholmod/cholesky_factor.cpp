// SPDX-License-Identifier: GPL-3.0-or-later
#include "cholesky_factor.hpp"

#include <cstring>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::cholmod_plugin {
namespace {

std::string status_text(int status) {
  switch (status) {
    case CHOLMOD_OUT_OF_MEMORY:
      return "out of memory";
    case CHOLMOD_TOO_LARGE:
      return "the problem is too large";
    case CHOLMOD_INVALID:
      return "invalid input";
    case CHOLMOD_NOT_INSTALLED:
      return "a CHOLMOD module this needs is not installed";
    default:
      return fmt::format("CHOLMOD status {}", status);
  }
}

}  // namespace

CholeskyFactor::CholeskyFactor(Ordering ordering, Factorization factorization)
    : ordering_(ordering), factorization_(factorization) {
  cholmod_start(&common_);
  common_.print = 0;  // failures are reported as Errors, not printed
  common_.error_handler = nullptr;
  // One ordering, no trial of alternatives; the natural one is kept as given (no postorder).
  common_.nmethods = 1;
  common_.method[0].ordering = ordering == Ordering::amd     ? CHOLMOD_AMD
                               : ordering == Ordering::metis ? CHOLMOD_METIS
                                                             : CHOLMOD_NATURAL;
  common_.postorder = ordering != Ordering::natural;
  common_.supernodal = factorization == Factorization::simplicial   ? CHOLMOD_SIMPLICIAL
                       : factorization == Factorization::supernodal ? CHOLMOD_SUPERNODAL
                                                                    : CHOLMOD_AUTO;
  // LLᵀ in both forms (a simplicial factorization would otherwise be LDLᵀ).
  common_.final_asis = false;
  common_.final_ll = true;
  common_.final_super = true;
}

CholeskyFactor::~CholeskyFactor() {
  cholmod_free_factor(&L_, &common_);
  cholmod_free_dense(&X_, &common_);
  cholmod_free_dense(&Y_, &common_);
  cholmod_free_dense(&E_, &common_);
  cholmod_finish(&common_);
}

cholmod_sparse CholeskyFactor::view(const SparseMatrix& A) const {
  cholmod_sparse s;
  std::memset(&s, 0, sizeof s);
  s.nrow = static_cast<size_t>(A.rows());
  s.ncol = static_cast<size_t>(A.cols());
  s.nzmax = static_cast<size_t>(A.nonZeros());
  // CHOLMOD reads but does not write its input.
  s.p = const_cast<int*>(A.outerIndexPtr());
  s.i = const_cast<int*>(A.innerIndexPtr());
  s.x = const_cast<double*>(A.valuePtr());
  s.stype = stype_;
  s.itype = CHOLMOD_INT;
  s.xtype = CHOLMOD_REAL;
  s.dtype = CHOLMOD_DOUBLE;
  s.sorted = true;
  s.packed = true;
  return s;
}

void CholeskyFactor::analyze(const SparseMatrix& A) {
  // Read the lower triangle when A stores one, else the upper.
  bool has_lower = false;
  for (int col = 0; col < A.outerSize() && !has_lower; ++col)
    for (SparseMatrix::InnerIterator it(A, col); it; ++it)
      if (it.row() > col) {
        has_lower = true;
        break;
      }
  stype_ = has_lower ? -1 : 1;
  cholmod_free_factor(&L_, &common_);
  cholmod_sparse a = view(A);
  L_ = cholmod_analyze(&a, &common_);
  if (L_ == nullptr)
    throw Error(fmt::format("cholmod: the symbolic analysis of the {}×{} matrix failed: {}",
                            A.rows(), A.cols(), status_text(common_.status)));
  factor_nonzeros_ = static_cast<long>(common_.lnz);
}

void CholeskyFactor::factorize(const SparseMatrix& A) {
  cholmod_sparse a = view(A);
  const int ok = cholmod_factorize(&a, L_, &common_);
  if (common_.status == CHOLMOD_NOT_POSDEF || (ok && L_->minor < L_->n)) {
    const size_t k = L_->minor;
    const long column =
        L_->Perm != nullptr ? static_cast<const int*>(L_->Perm)[k] : static_cast<long>(k);
    throw Error(
        fmt::format("cholmod: the matrix is not positive definite: the Cholesky "
                    "factorization failed at column {} (pivot {} of {} in the "
                    "fill-reducing order); an indefinite or unsymmetric matrix needs "
                    "positive_definite = false (LU)",
                    column, k, L_->n));
  }
  if (!ok || common_.status < CHOLMOD_OK)
    throw Error(
        fmt::format("cholmod: the numeric factorization failed: {}", status_text(common_.status)));
}

void CholeskyFactor::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  cholmod_dense rhs;
  std::memset(&rhs, 0, sizeof rhs);
  rhs.nrow = L_->n;
  rhs.ncol = 1;
  rhs.nzmax = L_->n;
  rhs.d = L_->n;
  rhs.x = const_cast<double*>(b.data());
  rhs.xtype = CHOLMOD_REAL;
  rhs.dtype = CHOLMOD_DOUBLE;
  if (!cholmod_solve2(CHOLMOD_A, L_, &rhs, nullptr, &X_, nullptr, &Y_, &E_, &common_))
    throw Error(fmt::format("cholmod: the solve failed: {}", status_text(common_.status)));
  x = Eigen::Map<const Eigen::VectorXd>(static_cast<const double*>(X_->x),
                                        static_cast<Eigen::Index>(L_->n));
}

std::string CholeskyFactor::method() const {
  const bool super =
      L_ != nullptr ? L_->is_super != 0 : factorization_ == Factorization::supernodal;
  return fmt::format("CHOLMOD {} LLᵀ, {} ordering", super ? "supernodal" : "simplicial",
                     to_string(ordering_));
}

}  // namespace substruct::cholmod_plugin
