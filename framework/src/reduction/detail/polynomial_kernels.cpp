#include "polynomial_kernels.hpp"

#include <algorithm>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SUBSTRUCT_KERNEL __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SUBSTRUCT_KERNEL
#endif

namespace substruct::detail {

namespace {

#if defined(__GNUC__) || defined(__clang__)
// Four and two doubles (one AVX or two SSE2 registers; one SSE2 register), at any double*
// (unaligned, may alias double, as the compilers' own __m256d_u).
typedef double v4d __attribute__((vector_size(32), aligned(8), may_alias));
typedef double v2d __attribute__((vector_size(16), aligned(8), may_alias));
#else
template <int N>  // the same operations, lane by lane
struct Lanes {
  double v[N];
  double operator[](int i) const { return v[i]; }
  friend Lanes operator*(Lanes a, Lanes b) {
    for (int i = 0; i < N; ++i) a.v[i] *= b.v[i];
    return a;
  }
  friend Lanes operator+(Lanes a, Lanes b) {
    for (int i = 0; i < N; ++i) a.v[i] += b.v[i];
    return a;
  }
  Lanes& operator+=(Lanes b) { return *this = *this + b; }
};
using v4d = Lanes<4>;
using v2d = Lanes<2>;
#endif

// (Not templates: a typedef's alignment and aliasing attributes do not survive as a template
// argument.)
inline v4d& at4(double* p) {
  return *reinterpret_cast<v4d*>(p);
}
inline const v4d& at4(const double* p) {
  return *reinterpret_cast<const v4d*>(p);
}
inline v2d& at2(double* p) {
  return *reinterpret_cast<v2d*>(p);
}
inline const v2d& at2(const double* p) {
  return *reinterpret_cast<const v2d*>(p);
}
// The same value in every lane (a macro: a function returning a vector by value would cross
// an ABI boundary between the two compilations).
#define SPLAT4(a) (v4d{(a), (a), (a), (a)})
#define SPLAT2(a) (v2d{(a), (a)})
inline double lane_sum(const v4d& s, const v2d& t) {
  return ((s[0] + s[1]) + (s[2] + s[3])) + (t[0] + t[1]);
}

// One quartic slice, n even: x += a w (when kX), y = b w (kAssign) or y += b w; returns Σ w z.
template <bool kX, bool kAssign>
inline double slice(std::size_t n, const double* w, const double* z, double a, double* x, double b,
                    double* y) {
  const v4d a4 = SPLAT4(a), b4 = SPLAT4(b);
  v4d s0 = SPLAT4(0), s1 = s0;
  std::size_t t = 0;
  for (; t + 8 <= n; t += 8) {
    const v4d w0 = at4(w + t), w1 = at4(w + t + 4);
    if (kX) {
      at4(x + t) += a4 * w0;
      at4(x + t + 4) += a4 * w1;
    }
    if (kAssign) {
      at4(y + t) = b4 * w0;
      at4(y + t + 4) = b4 * w1;
    } else {
      at4(y + t) += b4 * w0;
      at4(y + t + 4) += b4 * w1;
    }
    s0 += w0 * at4(z + t);
    s1 += w1 * at4(z + t + 4);
  }
  if (t + 4 <= n) {
    const v4d w0 = at4(w + t);
    if (kX) at4(x + t) += a4 * w0;
    if (kAssign)
      at4(y + t) = b4 * w0;
    else
      at4(y + t) += b4 * w0;
    s0 += w0 * at4(z + t);
    t += 4;
  }
  v2d s2 = SPLAT2(0);
  if (t < n) {
    const v2d w0 = at2(w + t);
    if (kX) at2(x + t) += SPLAT2(a) * w0;
    if (kAssign)
      at2(y + t) = SPLAT2(b) * w0;
    else
      at2(y + t) += SPLAT2(b) * w0;
    s2 = w0 * at2(z + t);
  }
  return lane_sum(s0 + s1, s2);
}

}  // namespace

// The pass (reduced_stvk.cpp explains the sums):
//   zz = q_k q_l;  quartic, for j, i ≤ j (W the triangle of d_ij··):
//     U_i[rows ≥ j] += q_j W,  U_j += q_i W,  P₄(i, j) += Σ W zz
//   (the first write of each U_j, at i = 0, assigns);
//   then for each m (C the triangle of c_m··):
//     P₃[rows ≥ m] += q_m C,       row m of P₃ += (C + Cᵀ) q,
//     P₄[rows ≥ m] += ½ q_m U_m,   row m of P₄ += (U_m + U_mᵀ) q.
SUBSTRUCT_KERNEL
void stvk_hessian_parts(const PaddedTriangles& L, const double* cubic, const double* quartic,
                        const double* q, double* zz, double* U, double* y, double* P3,
                        double* P4) {
  const int r = L.r(), rp = L.padded_r();
  const std::size_t T0 = L.size(0);
  for (int k = 0; k < r; ++k) {  // the padding of q makes the columns ≥ r zero
    const int c0 = PaddedTriangles::first_column(k);
    double* row = zz + L.row(0, k) - c0;  // indexed by column
    int c = c0;
    for (; c + 4 <= rp; c += 4) at4(row + c) = SPLAT4(q[k]) * at4(q + c);
    if (c < rp) at2(row + c) = SPLAT2(q[k]) * at2(q + c);
    if (c0 < k) row[c0] = 0;
  }
  std::fill(P3, P3 + T0, 0.0);
  std::fill(P4, P4 + T0, 0.0);

  const double* w = quartic;
  for (int j = 0; j < r; ++j) {
    const std::size_t T = L.size(j);
    const double* z = zz + L.row(0, j);
    double* Uj = U + L.nested(j);
    if (j == 0) {
      P4[0] += slice<false, true>(T, w, z, 0, nullptr, 2 * q[0], Uj);
      w += T;
      continue;
    }
    P4[L.at(0, 0, j)] += slice<true, true>(T, w, z, q[j], U + L.row(0, j), q[0], Uj);
    w += T;
    for (int i = 1; i < j; ++i, w += T)
      P4[L.at(0, i, j)] +=
          slice<true, false>(T, w, z, q[j], U + L.nested(i) + L.row(i, j), q[i], Uj);
    P4[L.at(0, j, j)] += slice<false, false>(T, w, z, 0, nullptr, 2 * q[j], Uj);
    w += T;
  }

  // (C q)_k and (Cᵀ q)_l by rows of C: the row sums go to d (by row), the column sums to y (by
  // column, aligned with the rows).
  double* y3 = y;
  double* y4 = y + rp;
  double* d3 = y + 2 * rp;
  double* d4 = d3 + r;
  const double* c = cubic;
  for (int m = 0; m < r; ++m) {
    const double* Um = U + L.nested(m);
    const v4d s3 = SPLAT4(q[m]), s4 = SPLAT4(0.5 * q[m]);
    std::fill(y, y + 2 * rp, 0.0);
    for (int k = m; k < r; ++k) {
      const std::size_t o = L.row(m, k);
      const int c0 = PaddedTriangles::first_column(k);
      const double* C = c + o - c0;  // indexed by column
      const double* Uk = Um + o - c0;
      double* p3 = P3 + L.row(0, k) - c0;
      double* p4 = P4 + L.row(0, k) - c0;
      const v4d qk = SPLAT4(q[k]);
      v4d e3 = SPLAT4(0), e4 = e3;
      int col = c0;
      for (; col + 4 <= rp; col += 4) {
        const v4d cv = at4(C + col), uv = at4(Uk + col), qv = at4(q + col);
        e3 += cv * qv;
        e4 += uv * qv;
        at4(y3 + col) += qk * cv;
        at4(y4 + col) += qk * uv;
        at4(p3 + col) += s3 * cv;
        at4(p4 + col) += s4 * uv;
      }
      v2d f3 = SPLAT2(0), f4 = f3;
      if (col < rp) {
        const v2d cv = at2(C + col), uv = at2(Uk + col), qv = at2(q + col);
        f3 = cv * qv;
        f4 = uv * qv;
        at2(y3 + col) += SPLAT2(q[k]) * cv;
        at2(y4 + col) += SPLAT2(q[k]) * uv;
        at2(p3 + col) += SPLAT2(q[m]) * cv;
        at2(p4 + col) += SPLAT2(0.5 * q[m]) * uv;
      }
      d3[k] = lane_sum(e3, f3);
      d4[k] = lane_sum(e4, f4);
    }
    const int c0 = PaddedTriangles::first_column(m);
    double* p3 = P3 + L.row(0, m) - c0;
    double* p4 = P4 + L.row(0, m) - c0;
    for (int col = c0; col < rp; col += 2) {
      at2(p3 + col) += at2(y3 + col);
      at2(p4 + col) += at2(y4 + col);
    }
    for (int k = m; k < r; ++k) {
      p3[k] += d3[k];
      p4[k] += d4[k];
    }
    c += L.size(m);
  }
}

#undef SPLAT4
#undef SPLAT2

}  // namespace substruct::detail
