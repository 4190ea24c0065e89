#include "dense_columns_product.hpp"

#include "kernel_dispatch.hpp"
#include "simd.hpp"

namespace substruct::detail {

namespace {

// Rows i … i + 4K of y = A x: K independent accumulators over every column.
template <int K>
[[gnu::always_inline]] inline void row_block(std::size_t i, std::size_t cols, const double* A,
                                             std::size_t lda, const double* x, double* y) {
  v4d s[K];
  for (v4d& v : s) v = SPLAT4(0);
  const double* a = A + i;
  for (std::size_t c = 0; c < cols; ++c, a += lda) {
    const v4d xc = SPLAT4(x[c]);
    for (int k = 0; k < K; ++k) s[k] += xc * at4(a + 4 * k);
  }
  for (int k = 0; k < K; ++k) at4(y + i + 4 * k) = s[k];
}

}  // namespace

// Rows in blocks of 32 (eight independent accumulators: enough to hide the multiply-add
// latency), then 16, then 4 (four accumulators over interleaved columns); every element of A is
// read once.
SUBSTRUCT_KERNEL
void dense_columns_product(std::size_t rows, std::size_t cols, const double* A, std::size_t lda,
                           const double* x, double* y) {
  std::size_t i = 0;
  for (; i + 32 <= rows; i += 32) row_block<8>(i, cols, A, lda, x, y);
  for (; i + 16 <= rows; i += 16) row_block<4>(i, cols, A, lda, x, y);
  for (; i < rows; i += 4) {
    v4d s[4];
    for (v4d& v : s) v = SPLAT4(0);
    const double* a = A + i;
    std::size_t c = 0;
    for (; c + 4 <= cols; c += 4, a += 4 * lda)
      for (int k = 0; k < 4; ++k) s[k] += SPLAT4(x[c + k]) * at4(a + k * lda);
    for (; c < cols; ++c, a += lda) s[0] += SPLAT4(x[c]) * at4(a);
    at4(y + i) = (s[0] + s[1]) + (s[2] + s[3]);
  }
}

}  // namespace substruct::detail
