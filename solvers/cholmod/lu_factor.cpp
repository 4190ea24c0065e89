// SPDX-License-Identifier: GPL-3.0-or-later
#include "lu_factor.hpp"

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::cholmod_plugin {
namespace {

std::string status_text(int status) {
  switch (status) {
    case UMFPACK_WARNING_singular_matrix:
      return "the matrix is singular";
    case UMFPACK_ERROR_out_of_memory:
      return "out of memory";
    case UMFPACK_ERROR_invalid_matrix:
      return "invalid matrix";
    case UMFPACK_ERROR_different_pattern:
      return "the pattern differs from the analysed one";
    case UMFPACK_ERROR_ordering_failed:
      return "the ordering failed";
    default:
      return fmt::format("UMFPACK status {}", status);
  }
}

}  // namespace

LuFactor::LuFactor(Ordering ordering) : ordering_(ordering) {
  umfpack_di_defaults(control_);
  control_[UMFPACK_ORDERING] = ordering == Ordering::amd     ? UMFPACK_ORDERING_AMD
                               : ordering == Ordering::metis ? UMFPACK_ORDERING_METIS
                                                             : UMFPACK_ORDERING_NONE;
}

LuFactor::~LuFactor() {
  free_numeric();
  if (symbolic_ != nullptr) umfpack_di_free_symbolic(&symbolic_);
}

void LuFactor::free_numeric() {
  if (numeric_ != nullptr) umfpack_di_free_numeric(&numeric_);
}

void LuFactor::analyze(const SparseMatrix& A) {
  free_numeric();
  if (symbolic_ != nullptr) umfpack_di_free_symbolic(&symbolic_);
  double info[UMFPACK_INFO];
  const int status =
      umfpack_di_symbolic(static_cast<int>(A.rows()), static_cast<int>(A.cols()), A.outerIndexPtr(),
                          A.innerIndexPtr(), A.valuePtr(), &symbolic_, control_, info);
  if (status != UMFPACK_OK)
    throw Error(
        fmt::format("cholmod (UMFPACK): the symbolic analysis of the {}×{} matrix "
                    "failed: {}",
                    A.rows(), A.cols(), status_text(status)));
}

void LuFactor::factorize(const SparseMatrix& A) {
  free_numeric();
  double info[UMFPACK_INFO];
  const int status = umfpack_di_numeric(A.outerIndexPtr(), A.innerIndexPtr(), A.valuePtr(),
                                        symbolic_, &numeric_, control_, info);
  if (status != UMFPACK_OK) {
    free_numeric();
    throw Error(
        fmt::format("cholmod (UMFPACK): the LU factorization failed: {}", status_text(status)));
  }
  A_ = A;
  int lnz = 0, unz = 0, rows = 0, cols = 0, diagonal = 0;
  umfpack_di_get_lunz(&lnz, &unz, &rows, &cols, &diagonal, numeric_);
  factor_nonzeros_ = static_cast<long>(lnz) + unz;
}

void LuFactor::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  x.resize(b.size());
  double info[UMFPACK_INFO];
  const int status = umfpack_di_solve(UMFPACK_A, A_.outerIndexPtr(), A_.innerIndexPtr(),
                                      A_.valuePtr(), x.data(), b.data(), numeric_, control_, info);
  if (status != UMFPACK_OK)
    throw Error(fmt::format("cholmod (UMFPACK): the solve failed: {}", status_text(status)));
}

std::string LuFactor::method() const {
  return fmt::format("UMFPACK LU, {} ordering", to_string(ordering_));
}

}  // namespace substruct::cholmod_plugin
