// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/kinematics/polar_rotation_rates_batch.hpp"

#include <cmath>

#include "../core/detail/kernel_dispatch.hpp"
#include "../core/detail/simd.hpp"
#include "detail/cofactor.hpp"
#include "detail/polar_tolerances.hpp"

namespace substruct {

namespace {

using detail::v4d;

// Each lane stops where the one-interface functions do: their tests, shared.
using detail::kNewtonMinDeterminant;
using detail::kPolarMaxIterations;
using detail::kPolarScalingOff;
using detail::kPolarUpdateTolerance;
using detail::kSingularDeterminant;

// A 3×3 matrix per lane, column-major like Mat3: entry (r, c) at m[3 c + r].
struct M3 {
  v4d m[9];
  v4d& operator()(int r, int c) { return m[3 * c + r]; }
  const v4d& operator()(int r, int c) const { return m[3 * c + r]; }
};
struct V3 {
  v4d v[3];
};

[[gnu::always_inline]] inline M3 load(int n, const Mat3* X) {
  M3 a;
  for (int e = 0; e < 9; ++e)
    for (int k = 0; k < 4; ++k) a.m[e][k] = k < n ? X[k].data()[e] : 0.0;
  return a;
}
[[gnu::always_inline]] inline M3 identity() {
  M3 a;
  for (int e = 0; e < 9; ++e) a.m[e] = SPLAT4(e % 4 == 0 ? 1.0 : 0.0);
  return a;
}
[[gnu::always_inline]] inline M3 mul(const M3& a, const M3& b) {  // a b
  M3 c;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) c(r, k) = a(r, 0) * b(0, k) + a(r, 1) * b(1, k) + a(r, 2) * b(2, k);
  return c;
}
[[gnu::always_inline]] inline M3 mul_tn(const M3& a, const M3& b) {  // aᵀ b
  M3 c;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) c(r, k) = a(0, r) * b(0, k) + a(1, r) * b(1, k) + a(2, r) * b(2, k);
  return c;
}
[[gnu::always_inline]] inline V3 mul(const M3& a, const V3& x) {
  V3 y;
  for (int r = 0; r < 3; ++r) y.v[r] = a(r, 0) * x.v[0] + a(r, 1) * x.v[1] + a(r, 2) * x.v[2];
  return y;
}
[[gnu::always_inline]] inline V3 mul_tn(const M3& a, const V3& x) {  // aᵀ x
  V3 y;
  for (int r = 0; r < 3; ++r) y.v[r] = a(0, r) * x.v[0] + a(1, r) * x.v[1] + a(2, r) * x.v[2];
  return y;
}
// (Through a reference: a vector returned by value would cross the ABI of the baseline clone.)
[[gnu::always_inline]] inline void squared_norm(const M3& a, v4d& s) {
  s = a.m[0] * a.m[0];
  for (int e = 1; e < 9; ++e) s += a.m[e] * a.m[e];
}
// 2 skew(a): the vector w with w̃ = a − aᵀ.
[[gnu::always_inline]] inline V3 twice_skew(const M3& a) {
  return V3{{a(2, 1) - a(1, 2), a(0, 2) - a(2, 0), a(1, 0) - a(0, 1)}};
}
// tr(a) I − a.
[[gnu::always_inline]] inline M3 trace_complement(const M3& a) {
  const v4d t = a(0, 0) + a(1, 1) + a(2, 2);
  M3 c;
  for (int e = 0; e < 9; ++e) c.m[e] = -a.m[e];
  for (int d = 0; d < 3; ++d) c(d, d) += t;
  return c;
}
[[gnu::always_inline]] inline M3 symmetric_part(const M3& a) {
  M3 s;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) s(r, c) = SPLAT4(0.5) * (a(r, c) + a(c, r));
  return s;
}
[[gnu::always_inline]] inline M3 hat(const V3& w) {
  const v4d z = SPLAT4(0);
  M3 m;
  m(0, 0) = z, m(0, 1) = -w.v[2], m(0, 2) = w.v[1];
  m(1, 0) = w.v[2], m(1, 1) = z, m(1, 2) = -w.v[0];
  m(2, 0) = -w.v[1], m(2, 1) = w.v[0], m(2, 2) = z;
  return m;
}

// Newton's iteration X ← ½ (ζ X + ζ⁻¹ X⁻ᵀ) in every lane, each lane's result taken when its
// update falls below the tolerance (polar_decomposition.cpp, newton_rotation); false lanes need
// the general path.
[[gnu::always_inline]] inline M3 newton_rotations(const M3& A, int n, bool ok[4]) {
  M3 X = A, R = identity();
  bool active[4];
  double update2[4];
  for (int k = 0; k < 4; ++k) {
    ok[k] = false;
    active[k] = k < n;
    update2[k] = 1;
  }
  for (int it = 0; it < kPolarMaxIterations; ++it) {
    const M3 c = detail::cofactor(X);
    v4d det = X(0, 0) * c(0, 0) + X(0, 1) * c(0, 1) + X(0, 2) * c(0, 2);
    v4d norm2, cof2;
    squared_norm(X, norm2);
    squared_norm(c, cof2);
    v4d zeta = SPLAT4(1.0);
    bool any = false;
    for (int k = 0; k < 4; ++k) {
      if (!active[k]) {
        det[k] = 1;  // keeps the lane finite; its values are not used
        continue;
      }
      const double d = det[k], q = norm2[k];
      const bool clear = d > 0 && d * d > kNewtonMinDeterminant * kNewtonMinDeterminant * q * q * q;
      if ((it == 0 && !clear) || !(d > 0) || !std::isfinite(d)) {
        active[k] = false;
        det[k] = 1;
        continue;
      }
      any = true;
      const bool near =
          it == 0 ? std::abs(d - 1) < kPolarScalingOff && std::abs(q - 3) < kPolarScalingOff
                  : update2[k] <= kPolarScalingOff * kPolarScalingOff;
      if (!near) zeta[k] = std::sqrt(std::sqrt(cof2[k] / (d * d * q)));
    }
    if (!any) break;
    const v4d a = SPLAT4(0.5) * zeta, b = SPLAT4(0.5) / (zeta * det);
    M3 next;
    for (int e = 0; e < 9; ++e) next.m[e] = a * X.m[e] + b * c.m[e];
    v4d change = SPLAT4(0);
    for (int e = 0; e < 9; ++e) {
      const v4d delta = next.m[e] - X.m[e];
      change += delta * delta;
    }
    X = next;
    for (int k = 0; k < 4; ++k) {
      if (!active[k]) continue;
      update2[k] = change[k];
      if (update2[k] <= kPolarUpdateTolerance * kPolarUpdateTolerance) {
        for (int e = 0; e < 9; ++e) R.m[e][k] = X.m[e][k];
        ok[k] = true;
        active[k] = false;
      }
    }
  }
  return R;  // identity in the lanes that are not ok
}

}  // namespace

SUBSTRUCT_KERNEL
void polar_rotation_rates_batch(int n, const Mat3* A_in, const Mat3* A_dot_in,
                                const Mat3* A_ddot_in, bool with_map, PolarRatesBatch& out) {
  const M3 A = load(n, A_in), A_dot = load(n, A_dot_in), A_ddot = load(n, A_ddot_in);
  bool ok[4];
  const M3 R = newton_rotations(A, n, ok);
  const M3 S = symmetric_part(mul_tn(R, A));  // S = Rᵀ A
  // G⁻¹ = R K⁻¹ with K = tr(S) I − S (polar_decomposition_derivative.cpp).
  const M3 K = trace_complement(S);
  const M3 c = detail::cofactor(K);
  v4d det = K(0, 0) * c(0, 0) + K(0, 1) * c(0, 1) + K(0, 2) * c(0, 2);
  v4d norm2;
  squared_norm(K, norm2);
  for (int k = 0; k < 4; ++k) {
    const double norm = std::sqrt(norm2[k]);
    if (!(std::abs(det[k]) > kSingularDeterminant * norm * norm * norm)) {
      ok[k] = false;
      det[k] = 1;
    }
  }
  M3 K_inv;
  const v4d inv_det = SPLAT4(1.0) / det;
  for (int e = 0; e < 9; ++e) K_inv.m[e] = c.m[e] * inv_det;
  // Eq. 7: ω = G⁻¹ (2 skew(Rᵀ Ȧ))
  const V3 omega = mul(R, mul(K_inv, twice_skew(mul_tn(R, A_dot))));
  // Eq. 8: Ṙ = ω̃ R, Ṡ = Rᵀ (Ȧ − Ṙ S)
  const M3 W = hat(omega);
  const M3 R_dot = mul(W, R);
  const M3 R_dot_S = mul(R_dot, S);
  M3 D;
  for (int e = 0; e < 9; ++e) D.m[e] = A_dot.m[e] - R_dot_S.m[e];
  const M3 S_dot = symmetric_part(mul_tn(R, D));
  // Eq. 9: ω̇ = G⁻¹ (2 skew(Rᵀ (Ä − ω̃ Ȧ)) − (tr(Ṡ) I − Ṡ) Rᵀ ω)
  const M3 W_A_dot = mul(W, A_dot);
  M3 E;
  for (int e = 0; e < 9; ++e) E.m[e] = A_ddot.m[e] - W_A_dot.m[e];
  V3 rhs = twice_skew(mul_tn(R, E));
  const V3 turn = mul(trace_complement(S_dot), mul_tn(R, omega));
  for (int r = 0; r < 3; ++r) rhs.v[r] -= turn.v[r];
  const V3 omega_dot = mul(R, mul(K_inv, rhs));

  for (int k = 0; k < n; ++k) {
    out.ok[k] = ok[k];
    if (!ok[k]) continue;
    for (int e = 0; e < 9; ++e) {
      out.R[k].data()[e] = R.m[e][k];
      out.S[k].data()[e] = S.m[e][k];
    }
    for (int r = 0; r < 3; ++r) {
      out.omega[k][r] = omega.v[r][k];
      out.omega_dot[k][r] = omega_dot.v[r][k];
    }
  }
  if (!with_map) return;
  // Ω: column 3c + i is R K⁻¹ (e_c × Rᵀ e_i) (polar_angular_velocity_map).
  const M3 RK = mul(R, K_inv);
  const v4d z = SPLAT4(0);
  for (int i = 0; i < 3; ++i) {
    const V3 a{{R(i, 0), R(i, 1), R(i, 2)}};  // Rᵀ e_i
    const V3 cols[3] = {V3{{z, -a.v[2], a.v[1]}}, V3{{a.v[2], z, -a.v[0]}},
                        V3{{-a.v[1], a.v[0], z}}};
    for (int axis = 0; axis < 3; ++axis) {
      const V3 col = mul(RK, cols[axis]);
      for (int k = 0; k < n; ++k)
        if (ok[k])
          for (int r = 0; r < 3; ++r) out.omega_map[k](r, 3 * axis + i) = col.v[r][k];
    }
  }
}

}  // namespace substruct
