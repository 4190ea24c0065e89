// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/dense_rows_product.hpp"

#include "detail/kernel_dispatch.hpp"
#include "detail/simd.hpp"

namespace substruct {

namespace {

using detail::at4;
using detail::v4d;

// Rows i … i + K − 1 against N vectors (1 or 2): K·N accumulators of four lanes over the
// columns, the last cols mod 4 columns one by one.
template <int K, int N>
[[gnu::always_inline]] inline void rows_block(std::size_t i, std::size_t cols, const double* A,
                                              const double* const* x, double* const* y) {
  v4d s[K][N];
  for (auto& row : s)
    for (v4d& v : row) v = SPLAT4(0);
  const std::size_t full = cols - cols % 4;
  for (std::size_t c = 0; c < full; c += 4) {
    v4d xv[N];
    for (int n = 0; n < N; ++n) xv[n] = at4(x[n] + c);
    for (int k = 0; k < K; ++k) {
      const v4d a = at4(A + (i + k) * cols + c);
      for (int n = 0; n < N; ++n) s[k][n] += a * xv[n];
    }
  }
  for (int k = 0; k < K; ++k) {
    const double* a = A + (i + k) * cols;
    for (int n = 0; n < N; ++n) {
      double t = 0;
      for (std::size_t c = full; c < cols; ++c) t += a[c] * x[n][c];
      y[n][i + k] = ((s[k][n][0] + s[k][n][1]) + (s[k][n][2] + s[k][n][3])) + t;
    }
  }
}

template <int N>
[[gnu::always_inline]] inline void rows(std::size_t rows, std::size_t cols, const double* A,
                                        const double* const* x, double* const* y) {
  std::size_t i = 0;
  for (; i + 3 <= rows; i += 3) rows_block<3, N>(i, cols, A, x, y);  // a vertex's xyz rows
  for (; i < rows; ++i) rows_block<1, N>(i, cols, A, x, y);
}

}  // namespace

SUBSTRUCT_KERNEL
void dense_rows_product(std::size_t rows_, std::size_t cols, const double* A, const double* x1,
                        const double* x2, double* y1, double* y2) {
  const double* x[2] = {x1, x2};
  double* y[2] = {y1, y2};
  if (x2 != nullptr && y2 != nullptr)
    rows<2>(rows_, cols, A, x, y);
  else
    rows<1>(rows_, cols, A, x, y);
}

}  // namespace substruct
