// SPDX-License-Identifier: GPL-3.0-or-later
#include "polynomial_kernels.hpp"

#include <algorithm>

#include "../../core/detail/kernel_dispatch.hpp"
#include "../../core/detail/simd.hpp"

namespace substruct::detail {

namespace {

// Two quartic slices of one j (n even; w₁ = w, w₂): x₁ += a w₁, x₂ += a w₂,
// y (=, kAssign, or +=) b₁ w₁ + b₂ w₂; Σ w₁ z and Σ w₂ z in the lanes s₁ + e₁ and s₂ + e₂
// (s₁, s₂ added to; e₁, e₂ overwritten).
template <bool kAssign>
[[gnu::always_inline]] inline void slice_pair_lanes(std::size_t n, const double* w,
                                                    const double* w2, const double* z, double a,
                                                    double* x1, double* x2, double b1, double b2,
                                                    double* y, v4d& s1, v4d& s2, v2d& e1, v2d& e2) {
  const v4d a4 = SPLAT4(a), b14 = SPLAT4(b1), b24 = SPLAT4(b2);
  std::size_t t = 0;
  for (; t + 4 <= n; t += 4) {
    const v4d u = at4(w + t), v = at4(w2 + t), zv = at4(z + t);
    at4(x1 + t) += a4 * u;
    at4(x2 + t) += a4 * v;
    if (kAssign)
      at4(y + t) = b14 * u + b24 * v;
    else
      at4(y + t) += b14 * u + b24 * v;
    s1 += u * zv;
    s2 += v * zv;
  }
  e1 = e2 = SPLAT2(0);
  if (t < n) {
    const v2d u = at2(w + t), v = at2(w2 + t), zv = at2(z + t);
    at2(x1 + t) += SPLAT2(a) * u;
    at2(x2 + t) += SPLAT2(a) * v;
    if (kAssign)
      at2(y + t) = SPLAT2(b1) * u + SPLAT2(b2) * v;
    else
      at2(y + t) += SPLAT2(b1) * u + SPLAT2(b2) * v;
    e1 = u * zv;
    e2 = v * zv;
  }
}

// The same, d₁ = Σ w₁ z and d₂ = Σ w₂ z.
template <bool kAssign>
inline void slice_pair(std::size_t n, const double* w, const double* w2, const double* z, double a,
                       double* x1, double* x2, double b1, double b2, double* y, double& d1,
                       double& d2) {
  v4d s1 = SPLAT4(0), s2 = s1;
  v2d e1, e2;
  slice_pair_lanes<kAssign>(n, w, w2, z, a, x1, x2, b1, b2, y, s1, s2, e1, e2);
  d1 = lane_sum(s1, e1);
  d2 = lane_sum(s2, e2);
}

// Two i and two j at once (i, i+1 < j, j+1). W^{ij}, W^{i+1,j} (row j: n0 values, then the rows
// ≥ j+1: n) at wa, wb; W^{i,j+1}, W^{i+1,j+1} (n values) at va, vb; z, xa, xb, y0 from row j
// (the monomials, U_i, U_{i+1}, U_j), y1 = U_{j+1}; qj = (q_j, q_{j+1}), qi = (q_i, q_{i+1}).
//   xa += q_j W^{ij} + q_{j+1} W^{i,j+1},   xb += q_j W^{i+1,j} + q_{j+1} W^{i+1,j+1},
//   y0 (=, kAssign, or +=) q_i W^{ij} + q_{i+1} W^{i+1,j},
//   y1 (=, kAssign, or +=) q_i W^{i,j+1} + q_{i+1} W^{i+1,j+1},
//   d = (Σ W^{ij} z, Σ W^{i+1,j} z, Σ W^{i,j+1} z, Σ W^{i+1,j+1} z).
// Each row of U_i and U_{i+1} below row j is read and written once for two coefficient rows:
// 13 loads and stores per 16 values where two slices of one j at a time take 18.
template <bool kAssign>
inline void slice_block(std::size_t n0, std::size_t n, const double* wa, const double* wb,
                        const double* va, const double* vb, const double* z, const double* qj,
                        const double* qi, double* xa, double* xb, double* y0, double* y1,
                        double* d) {
  // Row j: only the slices of j.
  v4d sa = SPLAT4(0), sb = sa, ta = sa, tb = sa;
  v2d ea, eb, fa = SPLAT2(0), fb = fa;
  slice_pair_lanes<kAssign>(n0, wa, wb, z, qj[0], xa, xb, qi[0], qi[1], y0, sa, sb, ea, eb);
  // The rows ≥ j+1: the four slices.
  const v4d j0 = SPLAT4(qj[0]), j1 = SPLAT4(qj[1]), i0 = SPLAT4(qi[0]), i1 = SPLAT4(qi[1]);
  wa += n0;
  wb += n0;
  z += n0;
  xa += n0;
  xb += n0;
  y0 += n0;
  std::size_t t = 0;
  for (; t + 4 <= n; t += 4) {
    const v4d u = at4(wa + t), v = at4(wb + t), g = at4(va + t), h = at4(vb + t), zv = at4(z + t);
    at4(xa + t) += j0 * u + j1 * g;
    at4(xb + t) += j0 * v + j1 * h;
    if (kAssign) {
      at4(y0 + t) = i0 * u + i1 * v;
      at4(y1 + t) = i0 * g + i1 * h;
    } else {
      at4(y0 + t) += i0 * u + i1 * v;
      at4(y1 + t) += i0 * g + i1 * h;
    }
    sa += u * zv;
    sb += v * zv;
    ta += g * zv;
    tb += h * zv;
  }
  if (t < n) {
    const v2d u = at2(wa + t), v = at2(wb + t), g = at2(va + t), h = at2(vb + t), zv = at2(z + t);
    const v2d a0 = SPLAT2(qj[0]), a1 = SPLAT2(qj[1]), b0 = SPLAT2(qi[0]), b1 = SPLAT2(qi[1]);
    at2(xa + t) += a0 * u + a1 * g;
    at2(xb + t) += a0 * v + a1 * h;
    if (kAssign) {
      at2(y0 + t) = b0 * u + b1 * v;
      at2(y1 + t) = b0 * g + b1 * h;
    } else {
      at2(y0 + t) += b0 * u + b1 * v;
      at2(y1 + t) += b0 * g + b1 * h;
    }
    ea += u * zv;
    eb += v * zv;
    fa = g * zv;
    fb = h * zv;
  }
  d[0] = lane_sum(sa, ea);
  d[1] = lane_sum(sb, eb);
  d[2] = lane_sum(ta, fa);
  d[3] = lane_sum(tb, fb);
}

// The last slice of a j (W = d_jj··, n even): y (=, kAssign, or +=) a w, then p += s y − s² w
// (y's new value); returns Σ w z.
template <bool kAssign>
inline double close_slice(std::size_t n, const double* w, const double* z, double a, double* y,
                          double s, double* p) {
  const v4d a4 = SPLAT4(a), s4 = SPLAT4(s), ss4 = SPLAT4(-s * s);
  v4d d = SPLAT4(0);
  std::size_t t = 0;
  for (; t + 4 <= n; t += 4) {
    const v4d wv = at4(w + t);
    const v4d u = kAssign ? a4 * wv : at4(y + t) + a4 * wv;
    at4(y + t) = u;
    at4(p + t) += s4 * u + ss4 * wv;
    d += wv * at4(z + t);
  }
  v2d e = SPLAT2(0);
  if (t < n) {
    const v2d wv = at2(w + t);
    const v2d u = kAssign ? SPLAT2(a) * wv : at2(y + t) + SPLAT2(a) * wv;
    at2(y + t) = u;
    at2(p + t) += SPLAT2(s) * u + SPLAT2(-s * s) * wv;
    e = wv * at2(z + t);
  }
  return lane_sum(d, e);
}

// The last slices of two j at once: W^{jj} (row j: n0 values, then the rows ≥ j+1: n) at w0,
// W^{j,j+1} and W^{j+1,j+1} (n values) at w1 and w2; z, Uj and p (P₄) from row j, Uj1 = U_{j+1};
// qj = (q_j, q_{j+1}). As close_slice for j (a = 2q_j, s = q_j), then slice for W^{j,j+1}
// (U_j's rows ≥ j+1 += q_{j+1} W, U_{j+1} += q_j W), then close_slice for j+1, in one pass over
// the rows ≥ j+1: U_j, U_{j+1} and P₄ read and written once for three coefficient rows (U_j's
// value after its own last slice is used before W^{j,j+1} is added). d = the three Σ W z.
template <bool kAssign>
inline void close_pair(std::size_t n0, std::size_t n, const double* w0, const double* w1,
                       const double* w2, const double* z, const double* qj, double* Uj, double* Uj1,
                       double* p, double* d) {
  const double s = qj[0], t1 = qj[1];
  d[0] = close_slice<kAssign>(n0, w0, z, 2 * s, Uj, s, p);
  w0 += n0;
  z += n0;
  Uj += n0;
  p += n0;
  const v4d a0 = SPLAT4(2 * s), s0 = SPLAT4(s), ss0 = SPLAT4(-s * s), a1 = SPLAT4(2 * t1),
            s1 = SPLAT4(t1), ss1 = SPLAT4(-t1 * t1);
  v4d e0 = SPLAT4(0), e1 = e0, e2 = e0;
  std::size_t t = 0;
  for (; t + 4 <= n; t += 4) {
    const v4d u = at4(w0 + t), c = at4(w1 + t), v = at4(w2 + t), zv = at4(z + t);
    const v4d yj = kAssign ? a0 * u : at4(Uj + t) + a0 * u;  // U_j after its last slice
    at4(Uj + t) = yj + s1 * c;
    const v4d yj1 = kAssign ? s0 * c + a1 * v : at4(Uj1 + t) + (s0 * c + a1 * v);
    at4(Uj1 + t) = yj1;
    at4(p + t) += (s0 * yj + ss0 * u) + (s1 * yj1 + ss1 * v);
    e0 += u * zv;
    e1 += c * zv;
    e2 += v * zv;
  }
  v2d f0 = SPLAT2(0), f1 = f0, f2 = f0;
  if (t < n) {
    const v2d u = at2(w0 + t), c = at2(w1 + t), v = at2(w2 + t), zv = at2(z + t);
    const v2d yj = kAssign ? SPLAT2(2 * s) * u : at2(Uj + t) + SPLAT2(2 * s) * u;
    at2(Uj + t) = yj + SPLAT2(t1) * c;
    const v2d yj1 = kAssign ? SPLAT2(s) * c + SPLAT2(2 * t1) * v
                            : at2(Uj1 + t) + (SPLAT2(s) * c + SPLAT2(2 * t1) * v);
    at2(Uj1 + t) = yj1;
    at2(p + t) += (SPLAT2(s) * yj + SPLAT2(-s * s) * u) + (SPLAT2(t1) * yj1 + SPLAT2(-t1 * t1) * v);
    f0 = u * zv;
    f1 = c * zv;
    f2 = v * zv;
  }
  d[0] += lane_sum(e0, f0);
  d[1] = lane_sum(e1, f1);
  d[2] = lane_sum(e2, f2);
}

// Four rows u_i of a triangle U_m, the rows c0 … c0+3, on the same len columns (a multiple of 4)
// from column c0: p[c] += Σ_i q_{c0+i} u_i[c] (Uᵀq) and p[i] += u_i · q (U q). q and p are
// indexed from column c0.
[[gnu::always_inline]] inline void row_block4(const double* const* u, std::size_t len,
                                              const double* q, double* p) {
  const v4d b0 = SPLAT4(q[0]), b1 = SPLAT4(q[1]), b2 = SPLAT4(q[2]), b3 = SPLAT4(q[3]);
  v4d e0 = SPLAT4(0), e1 = e0, e2 = e0, e3 = e0;
  for (std::size_t t = 0; t < len; t += 4) {
    const v4d qv = at4(q + t), u0 = at4(u[0] + t), u1 = at4(u[1] + t), u2 = at4(u[2] + t),
              u3 = at4(u[3] + t);
    e0 += u0 * qv;
    e1 += u1 * qv;
    e2 += u2 * qv;
    e3 += u3 * qv;
    at4(p + t) += (b0 * u0 + b1 * u1) + (b2 * u2 + b3 * u3);
  }
  // The four row sums at once, added where the loop's first store was (so the load is forwarded
  // from it whole).
  v4d sums;
  lane_sums(e0, e1, e2, e3, sums);
  at4(p) += sums;
}

// The same for two rows, len even.
[[gnu::always_inline]] inline void row_block2(const double* const* u, std::size_t len,
                                              const double* q, double* p) {
  const v4d b0 = SPLAT4(q[0]), b1 = SPLAT4(q[1]);
  v4d e0 = SPLAT4(0), e1 = e0;
  std::size_t t = 0;
  for (; t + 4 <= len; t += 4) {
    const v4d qv = at4(q + t), u0 = at4(u[0] + t), u1 = at4(u[1] + t);
    e0 += u0 * qv;
    e1 += u1 * qv;
    at4(p + t) += b0 * u0 + b1 * u1;
  }
  v2d f0 = SPLAT2(0), f1 = f0;
  if (t < len) {
    const v2d qv = at2(q + t), u0 = at2(u[0] + t), u1 = at2(u[1] + t);
    f0 = u0 * qv;
    f1 = u1 * qv;
    at2(p + t) += SPLAT2(q[0]) * u0 + SPLAT2(q[1]) * u1;
  }
  at2(p) += v2d{lane_sum(e0, f0), lane_sum(e1, f1)};
}

// The unit vectors of the four lanes.
alignas(32) constexpr double kUnit[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};

// G rows a₀ … a₀+G−1 of P₃ and P₄ (p3[i], p4[i]; a row past r is a zero row) on the same len
// columns (even) from column a₀, with q, x, f and Kx indexed from column a₀ too:
//   f[c] += Σ_i q_{a₀+i} (½p₃ + ⅓p₄)_i[c],   Kx[c] += Σ_i x_{a₀+i} (p₃ + p₄)_i[c]   (Pᵀ q, Pᵀ x)
// and the rows' own sums (P q, P x) in fr[i] = Σ_c (½p₃ + ⅓p₄)_i[c] q[c], kr[i] = Σ_c (p₃ +
// p₄)_i[c] x[c].
template <int G>
[[gnu::always_inline]] inline void step_term_rows(const double* const* p3, const double* const* p4,
                                                  std::size_t len, const double* q, const double* x,
                                                  double* f, double* Kx, double* fr, double* kr) {
  const v4d half = SPLAT4(0.5), third = SPLAT4(1.0 / 3);
  v4d df[G], dk[G];
  for (int i = 0; i < G; ++i) df[i] = dk[i] = SPLAT4(0);
  std::size_t t = 0;
  for (; t + 4 <= len; t += 4) {
    const v4d qb = at4(q + t), xb = at4(x + t);
    v4d sf = SPLAT4(0), sk = sf;
    for (int i = 0; i < G; ++i) {
      const v4d u = at4(p3[i] + t), v = at4(p4[i] + t);
      const v4d pf = half * u + third * v, pk = u + v;
      df[i] += pf * qb;
      dk[i] += pk * xb;
      sf += SPLAT4(q[i]) * pf;
      sk += SPLAT4(x[i]) * pk;
    }
    at4(f + t) += sf;
    at4(Kx + t) += sk;
  }
  v2d ef[G], ek[G];
  for (int i = 0; i < G; ++i) ef[i] = ek[i] = SPLAT2(0);
  if (t < len) {
    const v2d qb = at2(q + t), xb = at2(x + t);
    v2d sf = SPLAT2(0), sk = sf;
    for (int i = 0; i < G; ++i) {
      const v2d u = at2(p3[i] + t), v = at2(p4[i] + t);
      const v2d pf = SPLAT2(0.5) * u + SPLAT2(1.0 / 3) * v, pk = u + v;
      ef[i] = pf * qb;
      ek[i] = pk * xb;
      sf += SPLAT2(q[i]) * pf;
      sk += SPLAT2(x[i]) * pk;
    }
    at2(f + t) += sf;
    at2(Kx + t) += sk;
  }
  if constexpr (G == 4) {  // ((s₀ + s₁) + (s₂ + s₃)) + (e₀ + e₁) for the four rows at once
    v4d sf, sk;
    lane_sums(df[0], df[1], df[2], df[3], sf);
    lane_sums(dk[0], dk[1], dk[2], dk[3], sk);
    at4(fr) = sf + v4d{ef[0][0] + ef[0][1], ef[1][0] + ef[1][1], ef[2][0] + ef[2][1],
                       ef[3][0] + ef[3][1]};
    at4(kr) = sk + v4d{ek[0][0] + ek[0][1], ek[1][0] + ek[1][1], ek[2][0] + ek[2][1],
                       ek[3][0] + ek[3][1]};
  } else {
    for (int i = 0; i < G; ++i) {
      fr[i] = lane_sum(df[i], ef[i]);
      kr[i] = lane_sum(dk[i], ek[i]);
    }
  }
}

}  // namespace

// The pass (reduced_stvk.cpp explains the sums):
//   zz = q_k q_l;  quartic, for j, i ≤ j (W the triangle of d_ij··):
//     U_i[rows ≥ j] += q_j W,  U_j += q_i W (twice for i = j),  P₄(i, j) += Σ W zz
//   (the first write of each U_j, at i = 0, assigns). After the last i of a j, U_j holds
//   Z_j + q_j W^{jj} with Z_j = Σ_{i≤j} q_i W^{ij}, and the (k,l) pairs' sum ½ Σ_m q_m U_m
//   equals Σ_j q_j Z_j (both are Σ_{i≤j} q_i q_j W^{ij}): P₄[rows ≥ j] += q_j Z_j then, while
//   U_j is at hand. The j go two at a time (slice_block, close_pair), so that the rows of U
//   below row j are read and written once for two or three coefficient rows.
//   Then row m of P₄ += (U_m + U_mᵀ) q for each m, and P₃ = Σ_m q_m H_m.
SUBSTRUCT_KERNEL
void stvk_hessian_parts(const PaddedTriangles& L, const double* H, std::size_t column,
                        const double* quartic, const double* q, double* zz, double* U, double* y,
                        double* P3, double* P4) {
  const int r = L.r(), rp = L.padded_r();
  const std::size_t T0 = L.size(0);
  for (int k = 0; k < r; ++k) {  // the padding of q makes the columns ≥ r zero
    const int c0 = L.first_column(k);
    double* row = zz + L.row(0, k) - c0;  // indexed by column
    int c = c0;
    for (; c + 4 <= rp; c += 4) at4(row + c) = SPLAT4(q[k]) * at4(q + c);
    if (c < rp) at2(row + c) = SPLAT2(q[k]) * at2(q + c);
    for (c = c0; c < k; ++c) row[c] = 0;
  }
  std::fill(P4, P4 + T0, 0.0);

  const double* w = quartic;
  int j = 0;
  // Two j at a time: first every i < j of both (U_j and U_{j+1} assigned at i = 0), then the
  // last slice of j, W^{j,j+1} (U_j's rows ≥ j+1 += q_{j+1} W: after j's last slice, which reads
  // U_j as the slices of j left it) and the last slice of j+1.
  for (; j + 1 < r; j += 2) {
    const std::size_t T = L.size(j), T1 = L.size(j + 1), n0 = T - T1;
    const double* w1 = w + static_cast<std::size_t>(j + 1) * T;  // the slices of j+1
    const double* z = zz + L.row(0, j);
    double* Uj = U + L.nested(j);
    double* Uj1 = U + L.nested(j + 1);
    for (int i = 0; i < j; i += 2) {  // j is even
      const double* wa = w + static_cast<std::size_t>(i) * T;
      const double* va = w1 + static_cast<std::size_t>(i) * T1;
      double* xa = U + L.nested(i) + L.row(i, j);
      double* xb = U + L.nested(i + 1) + L.row(i + 1, j);
      double d[4];
      if (i == 0)  // U_j's and U_{j+1}'s first writes
        slice_block<true>(n0, T1, wa, wa + T, va, va + T1, z, q + j, q + i, xa, xb, Uj, Uj1, d);
      else
        slice_block<false>(n0, T1, wa, wa + T, va, va + T1, z, q + j, q + i, xa, xb, Uj, Uj1, d);
      P4[L.at(0, i, j)] += d[0];
      P4[L.at(0, i + 1, j)] += d[1];
      P4[L.at(0, i, j + 1)] += d[2];
      P4[L.at(0, i + 1, j + 1)] += d[3];
    }
    const double* wjj = w + static_cast<std::size_t>(j) * T;
    const double* wj = w1 + static_cast<std::size_t>(j) * T1;  // W^{j,j+1}
    double* Pj = P4 + L.row(0, j);
    double d[3];
    if (j == 0)  // no i < j: U_0 and U_1 are first written here
      close_pair<true>(n0, T1, wjj, wj, wj + T1, z, q + j, Uj, Uj1, Pj, d);
    else
      close_pair<false>(n0, T1, wjj, wj, wj + T1, z, q + j, Uj, Uj1, Pj, d);
    P4[L.at(0, j, j)] += d[0];
    P4[L.at(0, j, j + 1)] += d[1];
    P4[L.at(0, j + 1, j + 1)] += d[2];
    w = wj + 2 * T1;
  }
  if (j < r) {  // the last j of an odd r; j is even, so its i < j go in pairs
    const std::size_t T = L.size(j);
    const double* z = zz + L.row(0, j);
    double* Uj = U + L.nested(j);
    for (int i = 0; i < j; i += 2, w += 2 * T) {
      double d0, d1;
      double* x0 = U + L.nested(i) + L.row(i, j);
      double* x1 = U + L.nested(i + 1) + L.row(i + 1, j);
      if (i == 0)  // U_j's first write
        slice_pair<true>(T, w, w + T, z, q[j], x0, x1, q[0], q[1], Uj, d0, d1);
      else
        slice_pair<false>(T, w, w + T, z, q[j], x0, x1, q[i], q[i + 1], Uj, d0, d1);
      P4[L.at(0, i, j)] += d0;
      P4[L.at(0, i + 1, j)] += d1;
    }
    // The last term of Z_j; P₄[rows ≥ j] += q_j (U_j − q_j W^{jj}) = q_j Z_j.
    double* Pj = P4 + L.row(0, j);
    P4[L.at(0, j, j)] += j == 0 ? close_slice<true>(T, w, z, 2 * q[j], Uj, q[j], Pj)
                                : close_slice<false>(T, w, z, 2 * q[j], Uj, q[j], Pj);
  }

  // (U q)_k and (Uᵀ q)_l, g rows of U_m at a time (the rows of a group share their columns; a
  // group's rows before m, or at r and past it, are read as the zero row y).
  std::fill(y, y + rp, 0.0);
  const int g = L.group();
  for (int m = 0; m < r; ++m) {
    const double* u = U + L.nested(m);
    double* p4 = P4 + L.row(0, m) - L.first_column(m);  // indexed by column
    for (int c0 = L.first_column(m); c0 < rp; c0 += g) {
      const auto len = static_cast<std::size_t>(rp - c0);
      const double* rows[4];
      for (int i = 0; i < g; ++i) {
        const int k = c0 + i;
        const bool held = k >= m && k < r;  // U_m holds rows m … r−1
        rows[i] = held ? u : y;
        if (held) u += len;
      }
      if (g == 4)
        row_block4(rows, len, q + c0, p4 + c0);
      else
        row_block2(rows, len, q + c0, p4 + c0);
    }
  }

  // P₃ = Σ_m q_m H_m, four columns at a time.
  const std::size_t n = T0;  // a multiple of 2
  std::fill(P3, P3 + n, 0.0);
  int m = 0;
  for (; m + 4 <= r; m += 4) {
    const double* H0 = H + column * static_cast<std::size_t>(m);
    const double* H1 = H0 + column;
    const double* H2 = H1 + column;
    const double* H3 = H2 + column;
    const v4d a0 = SPLAT4(q[m]), a1 = SPLAT4(q[m + 1]), a2 = SPLAT4(q[m + 2]),
              a3 = SPLAT4(q[m + 3]);
    std::size_t t = 0;
    for (; t + 4 <= n; t += 4)
      at4(P3 + t) += (a0 * at4(H0 + t) + a1 * at4(H1 + t)) + (a2 * at4(H2 + t) + a3 * at4(H3 + t));
    if (t < n)
      at2(P3 + t) += (SPLAT2(q[m]) * at2(H0 + t) + SPLAT2(q[m + 1]) * at2(H1 + t)) +
                     (SPLAT2(q[m + 2]) * at2(H2 + t) + SPLAT2(q[m + 3]) * at2(H3 + t));
  }
  for (; m < r; ++m) {
    const double* Hm = H + column * static_cast<std::size_t>(m);
    const v4d a = SPLAT4(q[m]);
    std::size_t t = 0;
    for (; t + 4 <= n; t += 4) at4(P3 + t) += a * at4(Hm + t);
    if (t < n) at2(P3 + t) += SPLAT2(q[m]) * at2(Hm + t);
  }
}

// For each row a (entries b ≥ a, indexed by column): K(b, a) = K(a, b) = K₀(b, a) + p₃ + p₄ (the
// diagonal twice), f += (P_f + P_fᵀ) q with P_f = ½P₃ + ⅓P₄, f_a += (K₀ q)_a,
// W = Σ_a q_a (Σ_b (⅓p₃ + ⅙p₄) q_b + ½ (K₀ q)_a).
SUBSTRUCT_KERNEL
double stvk_assemble(const PaddedTriangles& L, const double* P3, const double* P4, const double* q,
                     const double* K0, double* K, double* f) {
  const int r = L.r(), rp = L.padded_r();
  const auto ld = static_cast<std::ptrdiff_t>(r);
  const v4d half = SPLAT4(0.5), third = SPLAT4(1.0 / 3), sixth = SPLAT4(1.0 / 6);
  std::fill(f, f + rp, 0.0);
  double W = 0;
  for (int a = 0; a < r; ++a) {
    const int c0 = L.first_column(a);
    const double* p3 = P3 + L.row(0, a) - c0;  // indexed by column
    const double* p4 = P4 + L.row(0, a) - c0;
    const double* k0 = K0 + a * ld;
    double* k = K ? K + a * ld : nullptr;
    const v4d qa = SPLAT4(q[a]);
    v4d df = SPLAT4(0), dw = df;
    int b = c0;
    for (; b + 4 <= rp; b += 4) {
      const v4d u = at4(p3 + b), v = at4(p4 + b), qb = at4(q + b);
      const v4d pf = half * u + third * v;
      df += pf * qb;
      at4(f + b) += qa * pf;
      dw += (third * u + sixth * v) * qb;
    }
    v2d ef = SPLAT2(0), ew = ef;
    if (b < rp) {
      const v2d u = at2(p3 + b), v = at2(p4 + b), qb = at2(q + b);
      const v2d pf = SPLAT2(0.5) * u + SPLAT2(1.0 / 3) * v;
      ef = pf * qb;
      at2(f + b) += SPLAT2(q[a]) * pf;
      ew = (SPLAT2(1.0 / 3) * u + SPLAT2(1.0 / 6) * v) * qb;
    }
    // (K₀ q)_a = K₀(:, a) · q (K₀ symmetric): to f_a, and its half to W's row a.
    v4d d0 = SPLAT4(0);
    int c = 0;
    for (; c + 4 <= r; c += 4) d0 += at4(k0 + c) * at4(q + c);
    double k0q = 0;
    for (; c < r; ++c) k0q += k0[c] * q[c];
    k0q += (d0[0] + d0[1]) + (d0[2] + d0[3]);
    f[a] += lane_sum(df, ef) + k0q;
    W += q[a] * (lane_sum(dw, ew) + 0.5 * k0q);
    if (k) {
      for (c = a; c < r; ++c) k[c] = k0[c] + (p3[c] + p4[c]);
      k[a] += p3[a] + p4[a];
      for (c = a + 1; c < r; ++c) K[a + c * ld] = k[c];  // row a of the upper triangle
    }
  }
  return W;
}

// K₀q and K₀x as sums of K₀'s columns (K₀ symmetric), four at a time; then the rows of P in
// groups of g (those of a group share their columns): the column sums Pᵀq, Pᵀx to f and Kx, the
// rows' own sums kept apart (fr, kr) and added at the end (a row's sum is never added to an entry
// that later rows still add to), and the columns a of A from the diagonal down,
// s (K₀(c, a) + P(a, c)), the diagonal's P twice.
SUBSTRUCT_KERNEL
void stvk_step_terms(const PaddedTriangles& L, const double* P3, const double* P4, const double* q,
                     const double* x, const double* K0, double s, double* f, double* Kx, double* A,
                     double* scratch) {
  const int r = L.r(), rp = L.padded_r(), g = L.group();
  const auto ld = static_cast<std::ptrdiff_t>(r);
  double* fr = scratch;  // the rows' own sums, rp entries each
  double* kr = fr + rp;
  double* zero = kr + rp;  // the row past r of an odd r
  if (r % g != 0) std::fill(zero, zero + rp, 0.0);
  std::fill(f, f + rp, 0.0);
  std::fill(Kx, Kx + rp, 0.0);
  int a = 0;
  for (; a + 4 <= r; a += 4) {
    const double* k0 = K0 + a * ld;
    const double* k1 = k0 + ld;
    const double* k2 = k1 + ld;
    const double* k3 = k2 + ld;
    const v4d q0 = SPLAT4(q[a]), q1 = SPLAT4(q[a + 1]), q2 = SPLAT4(q[a + 2]),
              q3 = SPLAT4(q[a + 3]);
    const v4d x0 = SPLAT4(x[a]), x1 = SPLAT4(x[a + 1]), x2 = SPLAT4(x[a + 2]),
              x3 = SPLAT4(x[a + 3]);
    int c = 0;
    for (; c + 4 <= r; c += 4) {
      const v4d u0 = at4(k0 + c), u1 = at4(k1 + c), u2 = at4(k2 + c), u3 = at4(k3 + c);
      at4(f + c) += (q0 * u0 + q1 * u1) + (q2 * u2 + q3 * u3);
      at4(Kx + c) += (x0 * u0 + x1 * u1) + (x2 * u2 + x3 * u3);
    }
    for (; c < r; ++c) {
      f[c] += (q[a] * k0[c] + q[a + 1] * k1[c]) + (q[a + 2] * k2[c] + q[a + 3] * k3[c]);
      Kx[c] += (x[a] * k0[c] + x[a + 1] * k1[c]) + (x[a + 2] * k2[c] + x[a + 3] * k3[c]);
    }
  }
  for (; a < r; ++a) {
    const double* k0 = K0 + a * ld;
    for (int c = 0; c < r; ++c) {
      f[c] += q[a] * k0[c];
      Kx[c] += x[a] * k0[c];
    }
  }
  for (int a0 = 0; a0 < r; a0 += g) {
    const double* p3[4];
    const double* p4[4];
    for (int i = 0; i < g; ++i) {
      const bool held = a0 + i < r;
      p3[i] = held ? P3 + L.row(0, a0 + i) : zero;
      p4[i] = held ? P4 + L.row(0, a0 + i) : zero;
    }
    const auto len = static_cast<std::size_t>(rp - a0);
    if (g == 4)
      step_term_rows<4>(p3, p4, len, q + a0, x + a0, f + a0, Kx + a0, fr + a0, kr + a0);
    else
      step_term_rows<2>(p3, p4, len, q + a0, x + a0, f + a0, Kx + a0, fr + a0, kr + a0);
    // Column b of A from row a₀ (a trip count shared by the group's columns): row b of P is
    // zero before column b, so the rows above the diagonal get s K₀ there (scratch), and the
    // diagonal's second P(b, b) comes in its lane of the first four.
    const v4d s4 = SPLAT4(s);
    for (int i = 0; i < g && a0 + i < r; ++i) {
      const int b = a0 + i;
      const double* __restrict u = p3[i];  // indexed from column a₀
      const double* __restrict v = p4[i];
      const double* __restrict k0 = K0 + b * ld + a0;
      double* __restrict column = A + b * ld + a0;
      const auto n = static_cast<std::size_t>(r - a0);
      std::size_t c = 0;
      if (n >= 4) {
        const v4d p = at4(u) + at4(v);
        at4(column) = s4 * (at4(k0) + (p + p * at4(kUnit[i])));
        c = 4;
        for (; c + 4 <= n; c += 4) at4(column + c) = s4 * (at4(k0 + c) + (at4(u + c) + at4(v + c)));
      } else {
        column[i] = s * (k0[i] + 2 * (u[i] + v[i]));  // n < 4: a last group of two (g = 2)
        c = static_cast<std::size_t>(i) + 1;
      }
      for (; c < n; ++c) column[c] = s * (k0[c] + (u[c] + v[c]));
    }
  }
  for (a = 0; a < r; ++a) {
    f[a] += fr[a];
    Kx[a] += kr[a];
  }
}

SUBSTRUCT_KERNEL
void expanded_monomials(int r, const double* q, double* z) {
  for (int m = 0; m < r; ++m) {
    const v4d a = SPLAT4(q[m]);
    int n = m;
    for (; n + 4 <= r; n += 4, z += 4) at4(z) = a * at4(q + n);
    for (; n < r; ++n) *z++ = q[m] * q[n];
  }
}

namespace {

// Column b of the packed triangles (rows a ≥ b), K = K₀ + K₂ + K₃ and S_f = K₀ + ½K₂ + ⅓K₃ (both
// symmetric): column b of s K from the diagonal down into A (leading dimension r),
// f[a > b] += S_f(a, b) q_b and f_b += Σ_a S_f(a, b) q_a (f = S_f q), and with kProduct the same
// for Kx = K x.
template <bool kProduct>
[[gnu::always_inline]] inline void expanded_columns(int r, const double* K0, const double* K2,
                                                    const double* K3, const double* q,
                                                    const double* x, double s, double* A, double* f,
                                                    double* Kx) {
  const v4d half = SPLAT4(0.5), third = SPLAT4(1.0 / 3), s4 = SPLAT4(s);
  std::fill(f, f + r, 0.0);
  if (kProduct) std::fill(Kx, Kx + r, 0.0);
  std::size_t p = 0;
  for (int b = 0; b < r; ++b) {
    const int len = r - b;
    const double *k0 = K0 + p, *k2 = K2 + p, *k3 = K3 + p;
    double* column = A + static_cast<std::ptrdiff_t>(b) * (r + 1);  // A(b, b)
    double* fb = f + b;
    const double* qb = q + b;
    const double kbb = k0[0] + k2[0] + k3[0];
    column[0] = s * kbb;
    double dot = (k0[0] + 0.5 * k2[0] + (1.0 / 3) * k3[0]) * qb[0], kdot = 0;
    if (kProduct) kdot = kbb * x[b];
    const v4d q4 = SPLAT4(qb[0]), x4 = SPLAT4(kProduct ? x[b] : 0);
    v4d d4 = SPLAT4(0), e4 = d4;
    int t = 1;
    for (; t + 4 <= len; t += 4) {
      const v4d u0 = at4(k0 + t), u2 = at4(k2 + t), u3 = at4(k3 + t);
      const v4d kv = u0 + u2 + u3;
      at4(column + t) = s4 * kv;
      const v4d sv = u0 + half * u2 + third * u3;
      at4(fb + t) += sv * q4;
      d4 += sv * at4(qb + t);
      if (kProduct) {
        at4(Kx + b + t) += kv * x4;
        e4 += kv * at4(x + b + t);
      }
    }
    for (; t < len; ++t) {
      const double kv = k0[t] + k2[t] + k3[t];
      column[t] = s * kv;
      const double sv = k0[t] + 0.5 * k2[t] + (1.0 / 3) * k3[t];
      fb[t] += sv * qb[0];
      dot += sv * qb[t];
      if (kProduct) {
        Kx[b + t] += kv * x[b];
        kdot += kv * x[b + t];
      }
    }
    fb[0] += dot + ((d4[0] + d4[1]) + (d4[2] + d4[3]));
    if (kProduct) Kx[b] += kdot + ((e4[0] + e4[1]) + (e4[2] + e4[3]));
    p += static_cast<std::size_t>(len);
  }
}

}  // namespace

// The columns of K and f, then K's upper triangle mirrored from its lower one.
SUBSTRUCT_KERNEL
void expanded_assemble(int r, const double* K0, const double* K2, const double* K3, const double* q,
                       double* K, double* f) {
  expanded_columns<false>(r, K0, K2, K3, q, nullptr, 1, K, f, nullptr);
  for (int b = 0; b < r; ++b)
    for (int a = b + 1; a < r; ++a) K[b + a * r] = K[a + b * r];
}

SUBSTRUCT_KERNEL
void expanded_step_terms(int r, const double* K0, const double* K2, const double* K3,
                         const double* q, const double* x, double s, double* A, double* f,
                         double* Kx) {
  expanded_columns<true>(r, K0, K2, K3, q, x, s, A, f, Kx);
}

}  // namespace substruct::detail
