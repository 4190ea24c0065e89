#include "dense_cholesky.hpp"

#include <cmath>
#include <cstddef>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SUBSTRUCT_KERNEL __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SUBSTRUCT_KERNEL
#endif

namespace substruct::detail {

// Left-looking: for each column j, a_j[j:] −= Σ_{k<j} L_jk L[j:, k] (contiguous column axpys),
// then L_jj = √a_jj and L[j+1:, j] = a_j[j+1:] / L_jj.
SUBSTRUCT_KERNEL
bool cholesky_factor(double* A, int n, int lda) {
  const auto ld = static_cast<std::ptrdiff_t>(lda);
  for (int j = 0; j < n; ++j) {
    double* __restrict a = A + j * ld;
    for (int k = 0; k < j; ++k) {
      const double* __restrict l = A + k * ld;
      const double ljk = l[j];
      for (int i = j; i < n; ++i) a[i] -= ljk * l[i];
    }
    const double d = a[j];
    if (!(d > 0) || !std::isfinite(d)) return false;
    const double pivot = std::sqrt(d), inverse = 1 / pivot;
    a[j] = pivot;
    for (int i = j + 1; i < n; ++i) a[i] *= inverse;
  }
  return true;
}

// L y = b by columns (y_j = b_j / L_jj, b[j+1:] −= y_j L[j+1:, j]), then Lᵀ x = y by columns
// (x_j = (y_j − L[j+1:, j] · x[j+1:]) / L_jj).
SUBSTRUCT_KERNEL
void cholesky_solve(const double* L, int n, int lda, double* b) {
  const auto ld = static_cast<std::ptrdiff_t>(lda);
  for (int j = 0; j < n; ++j) {
    const double* __restrict l = L + j * ld;
    const double y = b[j] / l[j];
    b[j] = y;
    for (int i = j + 1; i < n; ++i) b[i] -= y * l[i];
  }
  for (int j = n - 1; j >= 0; --j) {
    const double* __restrict l = L + j * ld;
    double s = b[j];
    for (int i = j + 1; i < n; ++i) s -= l[i] * b[i];
    b[j] = s / l[j];
  }
}

}  // namespace substruct::detail
