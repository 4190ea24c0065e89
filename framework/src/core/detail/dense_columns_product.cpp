// SPDX-License-Identifier: GPL-3.0-or-later
#include "dense_columns_product.hpp"

#include "kernel_dispatch.hpp"
#include "simd.hpp"

namespace substruct::detail {

namespace {

// Rows i … i + 4K of y = A x: K × C independent accumulators, column c going to phase c mod C
// (K C ≥ 8 chains hide the multiply-add latency), the phases summed at the end.
template <int K, int C>
[[gnu::always_inline]] inline void row_block(std::size_t i, std::size_t cols, const double* A,
                                             std::size_t lda, const double* x, double* y) {
  v4d s[C][K];
  for (auto& phase : s)
    for (v4d& v : phase) v = SPLAT4(0);
  const double* a = A + i;
  std::size_t c = 0;
  for (; c + C <= cols; c += C, a += C * lda)
    for (int p = 0; p < C; ++p) {
      const v4d xc = SPLAT4(x[c + p]);
      for (int k = 0; k < K; ++k) s[p][k] += xc * at4(a + p * lda + 4 * k);
    }
  for (; c < cols; ++c, a += lda) {
    const v4d xc = SPLAT4(x[c]);
    for (int k = 0; k < K; ++k) s[0][k] += xc * at4(a + 4 * k);
  }
  for (int k = 0; k < K; ++k) {
    v4d sum = s[0][k];
    for (int p = 1; p < C; ++p) sum += s[p][k];
    at4(y + i + 4 * k) = sum;
  }
}

}  // namespace

// Rows in blocks of 32 (eight accumulators), then 16 (two phases of four), 8 (four phases of
// two) and 4 (four phases of one); every element of A is read once.
SUBSTRUCT_KERNEL
void dense_columns_product(std::size_t rows, std::size_t cols, const double* A, std::size_t lda,
                           const double* x, double* y) {
  std::size_t i = 0;
  for (; i + 32 <= rows; i += 32) row_block<8, 1>(i, cols, A, lda, x, y);
  for (; i + 16 <= rows; i += 16) row_block<4, 2>(i, cols, A, lda, x, y);
  for (; i + 8 <= rows; i += 8) row_block<2, 4>(i, cols, A, lda, x, y);
  for (; i < rows; i += 4) row_block<1, 4>(i, cols, A, lda, x, y);
}

}  // namespace substruct::detail
