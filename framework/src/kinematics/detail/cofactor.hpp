// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cofactor matrix of a 3×3 matrix: X⁻ᵀ = cof(X) / det X and det X = X.row(0) · cof(X).row(0).
// For a Mat3, or for a matrix of four lanes (polar_rotation_rates_batch.cpp): any type with
// X(r, c) entries. Always inlined, so that it is compiled with the kernel that calls it.
#include "substruct/core/types.hpp"

namespace substruct::detail {

template <class Matrix>
[[gnu::always_inline]] inline Matrix cofactor(const Matrix& X) {
  Matrix c;
  c(0, 0) = X(1, 1) * X(2, 2) - X(1, 2) * X(2, 1);
  c(0, 1) = X(1, 2) * X(2, 0) - X(1, 0) * X(2, 2);
  c(0, 2) = X(1, 0) * X(2, 1) - X(1, 1) * X(2, 0);
  c(1, 0) = X(0, 2) * X(2, 1) - X(0, 1) * X(2, 2);
  c(1, 1) = X(0, 0) * X(2, 2) - X(0, 2) * X(2, 0);
  c(1, 2) = X(0, 1) * X(2, 0) - X(0, 0) * X(2, 1);
  c(2, 0) = X(0, 1) * X(1, 2) - X(0, 2) * X(1, 1);
  c(2, 1) = X(0, 2) * X(1, 0) - X(0, 0) * X(1, 2);
  c(2, 2) = X(0, 0) * X(1, 1) - X(0, 1) * X(1, 0);
  return c;
}

}  // namespace substruct::detail
