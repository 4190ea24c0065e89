// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/kinematics/interface_frame_columns.hpp"

#include "../core/detail/kernel_dispatch.hpp"
#include "../core/detail/simd.hpp"

namespace substruct {

using detail::at4;
using detail::v4d;

SUBSTRUCT_KERNEL
void interface_frame_sums(int r, const double* c, const double* q, const double* qdot,
                          const double* qddot, double* y) {
  // The 12×3 sums in nine registers of four lanes; one pass over the columns.
  v4d s[3][3];
  for (auto& row : s)
    for (v4d& v : row) v = SPLAT4(0);
  for (int l = 0; l < r; ++l, c += 12) {
    const v4d c0 = at4(c), c1 = at4(c + 4), c2 = at4(c + 8);
    const double x[3] = {q[l], qdot[l], qddot[l]};
    for (int n = 0; n < 3; ++n) {
      const v4d a = SPLAT4(x[n]);
      s[n][0] += a * c0;
      s[n][1] += a * c1;
      s[n][2] += a * c2;
    }
  }
  for (int n = 0; n < 3; ++n)
    for (int m = 0; m < 3; ++m) at4(y + 12 * n + 4 * m) = s[n][m];
}

SUBSTRUCT_KERNEL
void interface_point_jacobian(int r, const double* c, const double* T, const double* Rd,
                              const double* omega_map, const double* x, double scale, double* sJ,
                              std::ptrdiff_t ldj, double* Jx) {
  // J = P C with P = [T  −B′] (3×12), B = (R d)~ Ω; turned, row i of B read as a 3×3 matrix b_i
  // acts on vec(T A′ Tᵀ) as Tᵀ b_i T on vec(A′). P's columns (three rows and a zero lane) are
  // made and kept in registers (no stores and wider loads, which stall).
  v4d p[12];
  for (int k = 0; k < 3; ++k)
    p[k] = T ? v4d{T[3 * k], T[3 * k + 1], T[3 * k + 2], 0}
             : v4d{k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0, 0};
  if (!omega_map) {
    for (int j = 3; j < 12; ++j) p[j] = SPLAT4(0);
  } else {
    v4d B[9];  // column j: R d × Ω_j
    for (int j = 0; j < 9; ++j) {
      const double* w = omega_map + 3 * j;
      B[j] = v4d{Rd[1] * w[2] - Rd[2] * w[1], Rd[2] * w[0] - Rd[0] * w[2],
                 Rd[0] * w[1] - Rd[1] * w[0], 0};
    }
    if (!T) {
      for (int j = 0; j < 9; ++j) p[3 + j] = -B[j];
    } else {
      // P(:, 3 + 3c + s) = −Σ_ab T(a, s) T(b, c) B(:, 3b + a), through
      // E_sb = Σ_a T(a, s) B(:, 3b + a).
      v4d E[3][3];
      for (int s = 0; s < 3; ++s)
        for (int b = 0; b < 3; ++b)
          E[s][b] = SPLAT4(T[3 * s]) * B[3 * b] + SPLAT4(T[3 * s + 1]) * B[3 * b + 1] +
                    SPLAT4(T[3 * s + 2]) * B[3 * b + 2];
      for (int col = 0; col < 3; ++col)
        for (int s = 0; s < 3; ++s)
          p[3 + 3 * col + s] = -(SPLAT4(T[3 * col]) * E[s][0] + SPLAT4(T[3 * col + 1]) * E[s][1] +
                                 SPLAT4(T[3 * col + 2]) * E[s][2]);
    }
  }
  // Two sums per column of J, and J x as the columns are made; each column is written once,
  // scaled (a caller scaling the written values would load them as a vector right after these
  // scalar stores, which the processor cannot forward).
  v4d jx = SPLAT4(0);
  const v4d scale4 = SPLAT4(scale);
  for (int l = 0; l < r; ++l, c += 12) {
    v4d a = p[0] * SPLAT4(c[0]), b = p[1] * SPLAT4(c[1]);
    for (int j = 2; j < 12; j += 2) {
      a += p[j] * SPLAT4(c[j]);
      b += p[j + 1] * SPLAT4(c[j + 1]);
    }
    const v4d sum = a + b;
    jx += sum * SPLAT4(x[l]);
    const v4d scaled = sum * scale4;
    double* out = sJ + ldj * l;
    out[0] = scaled[0];
    out[1] = scaled[1];
    out[2] = scaled[2];
  }
  at4(Jx) = jx;
}

}  // namespace substruct
