// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/solvers/automatic_shift.hpp"

#include <cmath>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

double trace(const SparseMatrix& A) {
  double t = 0;
  for (Eigen::Index i = 0; i < A.rows(); ++i) t += A.coeff(i, i);
  return t;
}

double automatic_shift(const SparseMatrix& K, const SparseMatrix& M, const char* solver) {
  const double trace_k = trace(K), trace_m = trace(M);
  if (!(trace_m > 0) || !std::isfinite(trace_k))
    throw Error(fmt::format(
        "{}: cannot choose a shift: tr(K) = {}, tr(M) = {} (M must be positive definite)", solver,
        trace_k, trace_m));
  return -1e-6 * std::abs(trace_k) / trace_m;
}

}  // namespace substruct
