#pragma once
// The cofactor matrix of a 3×3 matrix: X⁻ᵀ = cof(X) / det X and det X = X.row(0) · cof(X).row(0).
#include "substruct/core/types.hpp"

namespace substruct::detail {

inline Mat3 cofactor(const Mat3& X) {
  Mat3 c;
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
