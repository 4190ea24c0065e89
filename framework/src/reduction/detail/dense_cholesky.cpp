// SPDX-License-Identifier: GPL-3.0-or-later
#include "dense_cholesky.hpp"

#include <cmath>
#include <cstddef>

#include "../../core/detail/kernel_dispatch.hpp"
#include "../../core/detail/simd.hpp"

namespace substruct::detail {

namespace {

// n ≤ kSmall: the loops unrolled for each n (the time of a small factorisation is its branches
// and its division chain, not its multiply-adds). Right-looking: the trailing lower triangle
// takes −= a_k a_i / d with column j's entries a (not yet scaled) and pivot d = a_jj, so that the
// next column waits on one division, not on √d and a division after it; column j is scaled by
// 1/√d after its updates, off that chain. (L_kj L_ij = a_k a_i / d.)
constexpr int kSmall = 12;

template <int N>
[[gnu::always_inline]] inline bool small_factor(double* A, std::ptrdiff_t ld, double* inverse) {
#pragma GCC unroll 16
  for (int j = 0; j < N; ++j) {
    double* __restrict a = A + j * ld;
    const double d = a[j];
    if (!(d > 0) || !std::isfinite(d)) return false;
    const double inverse_pivot = 1 / d;
#pragma GCC unroll 16
    for (int k = j + 1; k < N; ++k) {
      double* __restrict c = A + k * ld;
      const double t = a[k] * inverse_pivot;
#pragma GCC unroll 16
      for (int i = k; i < N; ++i) c[i] -= t * a[i];
    }
    const double pivot = std::sqrt(d), inv = 1 / pivot;
    a[j] = pivot;
    inverse[j] = inv;
#pragma GCC unroll 16
    for (int i = j + 1; i < N; ++i) a[i] *= inv;
  }
  return true;
}

template <int N>
[[gnu::always_inline]] inline void small_solve(const double* L, std::ptrdiff_t ld,
                                               const double* inverse, double* b) {
#pragma GCC unroll 16
  for (int j = 0; j < N; ++j) {
    const double y = b[j] * inverse[j];
    b[j] = y;
#pragma GCC unroll 16
    for (int i = j + 1; i < N; ++i) b[i] -= y * L[j * ld + i];
  }
#pragma GCC unroll 16
  for (int j = N - 1; j >= 0; --j) {
    double s = b[j];
#pragma GCC unroll 16
    for (int i = j + 1; i < N; ++i) s -= L[j * ld + i] * b[i];
    b[j] = s * inverse[j];
  }
}

// f.template operator()<N>() for the n in 1 … kSmall.
template <class F>
[[gnu::always_inline]] inline auto small_case(int n, F&& f) {
  switch (n) {
    case 1:
      return f.template operator()<1>();
    case 2:
      return f.template operator()<2>();
    case 3:
      return f.template operator()<3>();
    case 4:
      return f.template operator()<4>();
    case 5:
      return f.template operator()<5>();
    case 6:
      return f.template operator()<6>();
    case 7:
      return f.template operator()<7>();
    case 8:
      return f.template operator()<8>();
    case 9:
      return f.template operator()<9>();
    case 10:
      return f.template operator()<10>();
    case 11:
      return f.template operator()<11>();
    default:
      return f.template operator()<12>();
  }
}

}  // namespace

// Larger n: left-looking, four columns at a time: the panel of columns j…j+3 (rows ≥ j) takes
// −= L[·, k] L[j…j+3, k]ᵀ for every earlier column k (four rows of the panel at a time), then
// is factored on its own: each column takes the updates of the panel's earlier columns (as
// a_s a_sᵀ / d_s, not yet scaled), and then L_jj = √a_jj, L[j+1:, j] = a_j[j+1:] / L_jj.
SUBSTRUCT_KERNEL
bool cholesky_factor(double* A, int n, int lda, double* inverse_diagonal) {
  const auto ld = static_cast<std::ptrdiff_t>(lda);
  if (n >= 1 && n <= kSmall)
    return small_case(n, [&]<int N>() { return small_factor<N>(A, ld, inverse_diagonal); });
  for (int j = 0; j < n; j += 4) {
    const int nb = n - j < 4 ? n - j : 4;
    double* __restrict a0 = A + j * ld;
    if (nb == 4) {
      // Rows from j (those above a column's diagonal are scratch) four at a time: the four
      // columns' sums over k stay in registers (two partial sums each, for shorter dependency
      // chains) and are stored once. (−c l is added: the lanes of the portable fallback have no
      // subtraction.)
      int i = j;
      for (; i + 4 <= n; i += 4) {
        v4d s0 = at4(a0 + i), s1 = at4(a0 + ld + i), s2 = at4(a0 + 2 * ld + i),
            s3 = at4(a0 + 3 * ld + i);
        v4d t0 = SPLAT4(0), t1 = t0, t2 = t0, t3 = t0;
        for (int k = 0; k < j; k += 2) {  // j is a multiple of 4
          const double* l = A + k * ld;
          const double* m = l + ld;
          const v4d li = at4(l + i), mi = at4(m + i);
          s0 += SPLAT4(-l[j]) * li;
          s1 += SPLAT4(-l[j + 1]) * li;
          s2 += SPLAT4(-l[j + 2]) * li;
          s3 += SPLAT4(-l[j + 3]) * li;
          t0 += SPLAT4(-m[j]) * mi;
          t1 += SPLAT4(-m[j + 1]) * mi;
          t2 += SPLAT4(-m[j + 2]) * mi;
          t3 += SPLAT4(-m[j + 3]) * mi;
        }
        at4(a0 + i) = s0 + t0;
        at4(a0 + ld + i) = s1 + t1;
        at4(a0 + 2 * ld + i) = s2 + t2;
        at4(a0 + 3 * ld + i) = s3 + t3;
      }
      double* __restrict a1 = a0 + ld;
      double* __restrict a2 = a1 + ld;
      double* __restrict a3 = a2 + ld;
      for (int k = 0; k < j; ++k) {  // the last rows, fewer than four
        const double* __restrict l = A + k * ld;
        const double c0 = l[j], c1 = l[j + 1], c2 = l[j + 2], c3 = l[j + 3];
        for (int row = i; row < n; ++row) {
          const double li = l[row];
          a0[row] -= c0 * li;
          a1[row] -= c1 * li;
          a2[row] -= c2 * li;
          a3[row] -= c3 * li;
        }
      }
    } else {
      for (int t = 0; t < nb; ++t) {
        double* __restrict a = a0 + t * ld;
        for (int k = 0; k < j; ++k) {
          const double* __restrict l = A + k * ld;
          const double c = l[j + t];
          for (int i = j; i < n; ++i) a[i] -= c * l[i];
        }
      }
    }
    // The panel's columns one after the other, updated with the earlier ones not yet scaled
    // (L_{jt,s} L_{i,s} = a_s[jt] a_s[i] / d_s), so that a column waits on one division, not on
    // a square root and a division; each is scaled by 1/√d once the panel is done.
    double inverse_pivot[4];
    for (int t = 0; t < nb; ++t) {
      const int jt = j + t;
      double* __restrict a = A + jt * ld;
      for (int s = 0; s < t; ++s) {
        const double* __restrict l = A + (j + s) * ld;
        const double c = l[jt] * inverse_pivot[s];
        for (int i = jt; i < n; ++i) a[i] -= c * l[i];
      }
      const double d = a[jt];
      if (!(d > 0) || !std::isfinite(d)) return false;
      inverse_pivot[t] = 1 / d;
    }
    for (int t = 0; t < nb; ++t) {
      const int jt = j + t;
      double* __restrict a = A + jt * ld;
      const double pivot = std::sqrt(a[jt]), inverse = 1 / pivot;
      a[jt] = pivot;
      inverse_diagonal[jt] = inverse;
      for (int i = jt + 1; i < n; ++i) a[i] *= inverse;
    }
  }
  return true;
}

// L y = b by columns (y_j = b_j / L_jj, b[j+1:] −= y_j L[j+1:, j]), then Lᵀ x = y by columns
// (x_j = (y_j − L[j+1:, j] · x[j+1:]) / L_jj), the divisions as products with the inverses;
// above kSmall, in blocks of four columns.
SUBSTRUCT_KERNEL
void cholesky_solve(const double* L, const double* inverse_diagonal, int n, int lda, double* b) {
  const auto ld = static_cast<std::ptrdiff_t>(lda);
  if (n >= 1 && n <= kSmall)
    return small_case(n, [&]<int N>() { small_solve<N>(L, ld, inverse_diagonal, b); });
  // L y = b, four columns at a time: the block's four unknowns one after the other, then the
  // rows below take −= L[i, j…j+3] y[j…j+3] (four rows at a time, one store each).
  const double* d = inverse_diagonal;
  int j = 0;
  for (; j + 4 <= n; j += 4) {
    const double *l0 = L + j * ld, *l1 = l0 + ld, *l2 = l1 + ld, *l3 = l2 + ld;
    const double y0 = b[j] * d[j];
    const double y1 = (b[j + 1] - y0 * l0[j + 1]) * d[j + 1];
    const double y2 = (b[j + 2] - y0 * l0[j + 2] - y1 * l1[j + 2]) * d[j + 2];
    const double y3 = (b[j + 3] - y0 * l0[j + 3] - y1 * l1[j + 3] - y2 * l2[j + 3]) * d[j + 3];
    b[j] = y0;
    b[j + 1] = y1;
    b[j + 2] = y2;
    b[j + 3] = y3;
    const v4d m0 = SPLAT4(-y0), m1 = SPLAT4(-y1), m2 = SPLAT4(-y2), m3 = SPLAT4(-y3);
    int i = j + 4;
    for (; i + 4 <= n; i += 4)
      at4(b + i) += (m0 * at4(l0 + i) + m1 * at4(l1 + i)) + (m2 * at4(l2 + i) + m3 * at4(l3 + i));
    for (; i < n; ++i) b[i] -= (y0 * l0[i] + y1 * l1[i]) + (y2 * l2[i] + y3 * l3[i]);
  }
  for (; j < n; ++j) {
    const double* __restrict l = L + j * ld;
    const double y = b[j] * d[j];
    b[j] = y;
    for (int i = j + 1; i < n; ++i) b[i] -= y * l[i];
  }
  // Lᵀ x = y, four unknowns at a time from the last: the block's columns' products with the
  // unknowns below it (four rows at a time, four sums at once), then the block one after the
  // other; the first n mod 4 unknowns one at a time.
  for (j = n - 4; j >= 0; j -= 4) {
    const double *l0 = L + j * ld, *l1 = l0 + ld, *l2 = l1 + ld, *l3 = l2 + ld;
    v4d e0 = SPLAT4(0), e1 = e0, e2 = e0, e3 = e0;
    for (int i = j + 4; i < n; i += 4) {  // n − j is a multiple of 4
      const v4d x = at4(b + i);
      e0 += at4(l0 + i) * x;
      e1 += at4(l1 + i) * x;
      e2 += at4(l2 + i) * x;
      e3 += at4(l3 + i) * x;
    }
    v4d s;
    lane_sums(e0, e1, e2, e3, s);
    const double x3 = (b[j + 3] - s[3]) * d[j + 3];
    const double x2 = (b[j + 2] - s[2] - l2[j + 3] * x3) * d[j + 2];
    const double x1 = (b[j + 1] - s[1] - l1[j + 2] * x2 - l1[j + 3] * x3) * d[j + 1];
    const double x0 = (b[j] - s[0] - l0[j + 1] * x1 - l0[j + 2] * x2 - l0[j + 3] * x3) * d[j];
    at4(b + j) = v4d{x0, x1, x2, x3};
  }
  for (j = j + 3; j >= 0; --j) {
    const double* __restrict l = L + j * ld;
    double s0 = b[j], s1 = 0;  // two partial sums: a shorter dependency chain
    int i = j + 1;
    for (; i + 1 < n; i += 2) {
      s0 -= l[i] * b[i];
      s1 -= l[i + 1] * b[i + 1];
    }
    if (i < n) s0 -= l[i] * b[i];
    b[j] = (s0 + s1) * d[j];
  }
}

}  // namespace substruct::detail
