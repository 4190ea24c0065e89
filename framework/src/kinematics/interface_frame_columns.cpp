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
void interface_frame_map(int r, const double* c, const double* P, double* J, std::ptrdiff_t ldj,
                         const double* x, double* Jx) {
  // P's columns (three rows and a zero lane) stay in twelve registers; two sums per column of J,
  // and J x as the columns are made (not read back: three stores then a wider load would stall).
  v4d p[12];
  for (int j = 0; j < 12; ++j) p[j] = v4d{P[3 * j], P[3 * j + 1], P[3 * j + 2], 0};
  v4d jx = SPLAT4(0);
  for (int l = 0; l < r; ++l, c += 12) {
    v4d a = p[0] * SPLAT4(c[0]), b = p[1] * SPLAT4(c[1]);
    for (int j = 2; j < 12; j += 2) {
      a += p[j] * SPLAT4(c[j]);
      b += p[j + 1] * SPLAT4(c[j + 1]);
    }
    const v4d sum = a + b;
    jx += sum * SPLAT4(x[l]);
    double* out = J + ldj * l;
    out[0] = sum[0];
    out[1] = sum[1];
    out[2] = sum[2];
  }
  Jx[0] = jx[0];
  Jx[1] = jx[1];
  Jx[2] = jx[2];
}

}  // namespace substruct
