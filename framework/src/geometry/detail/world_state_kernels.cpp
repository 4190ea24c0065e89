// SPDX-License-Identifier: GPL-3.0-or-later
#include "world_state_kernels.hpp"

#include "../../core/detail/kernel_dispatch.hpp"
#include "../../core/detail/simd.hpp"

namespace substruct::detail {

namespace {

// The rows of V vertices (3 V rows of U from row 3 l) against Q (and Q̇ when N = 2): one
// accumulator of four lanes per row and vector, one multiply-add per element of U and vector.
template <int V, int N>
[[gnu::always_inline]] inline void vertex_rows(std::size_t l, std::size_t r, const double* U,
                                               const double* Q, const double* Qdot, double* y,
                                               double* ydot) {
  constexpr int rows = 3 * V;
  v4d s[rows], t[rows];
  for (int i = 0; i < rows; ++i) s[i] = t[i] = SPLAT4(0);
  const double* u = U + 3 * l * r;
  for (std::size_t m = 0; m < r; ++m) {
    const v4d qm = at4(Q + 4 * m);
    v4d dm = qm;
    if (N == 2) dm = at4(Qdot + 4 * m);
    for (int i = 0; i < rows; ++i) {
      const v4d a = SPLAT4(u[i * r + m]);
      s[i] += a * qm;
      if (N == 2) t[i] += a * dm;
    }
  }
  for (int i = 0; i < rows; ++i) {
    at4(y + 4 * i) = s[i];
    if (N == 2) at4(ydot + 4 * i) = t[i];
  }
}

template <int N>
[[gnu::always_inline]] inline void displacements(std::size_t l0, std::size_t l1, std::size_t r,
                                                 const double* U, const double* Q,
                                                 const double* Qdot, double* y, double* ydot) {
  std::size_t l = l0;
  for (; l + 2 <= l1; l += 2) {
    const std::size_t o = 12 * (l - l0);
    vertex_rows<2, N>(l, r, U, Q, Qdot, y + o, N == 2 ? ydot + o : nullptr);
  }
  if (l < l1) {
    const std::size_t o = 12 * (l - l0);
    vertex_rows<1, N>(l, r, U, Q, Qdot, y + o, N == 2 ? ydot + o : nullptr);
  }
}

}  // namespace

SUBSTRUCT_KERNEL
void lane_displacements(std::size_t l0, std::size_t l1, std::size_t r, const double* U,
                        const double* Q, const double* Qdot, double* y, double* ydot) {
  if (Qdot != nullptr && ydot != nullptr)
    displacements<2>(l0, l1, r, U, Q, Qdot, y, ydot);
  else
    displacements<1>(l0, l1, r, U, Q, nullptr, y, nullptr);
}

SUBSTRUCT_KERNEL
void lane_world_states(std::size_t l0, std::size_t l1, const double* rest, const double* y,
                       const double* ydot, const LanePoses& pose, bool velocities, double* out) {
  v4d R[9], p[3], nu[3], w[3];
  for (int i = 0; i < 9; ++i) R[i] = at4(pose.R[i]);
  for (int c = 0; c < 3; ++c) {
    p[c] = at4(pose.p[c]);
    nu[c] = at4(pose.nu[c]);
    w[c] = at4(pose.omega[c]);
  }
  for (std::size_t l = l0; l < l1; ++l) {
    const std::size_t o = 12 * (l - l0);
    double* x_out = out + 2 * o;
    v4d x0 = SPLAT4(rest[3 * l]), x1 = SPLAT4(rest[3 * l + 1]), x2 = SPLAT4(rest[3 * l + 2]);
    if (y != nullptr) {  // X̄ + y
      x0 += at4(y + o);
      x1 += at4(y + o + 4);
      x2 += at4(y + o + 8);
    }
    for (int i = 0; i < 3; ++i)  // x = p + R xl
      at4(x_out + 4 * i) = p[i] + ((R[i] * x0 + R[i + 3] * x1) + R[i + 6] * x2);
    if (!velocities) continue;
    // vl = ν + ω × xl + ẏ, v = R vl
    v4d v0 = nu[0] + (w[1] * x2 - w[2] * x1), v1 = nu[1] + (w[2] * x0 - w[0] * x2),
        v2 = nu[2] + (w[0] * x1 - w[1] * x0);
    if (ydot != nullptr) {
      v0 += at4(ydot + o);
      v1 += at4(ydot + o + 4);
      v2 += at4(ydot + o + 8);
    }
    for (int i = 0; i < 3; ++i)
      at4(x_out + 12 + 4 * i) = (R[i] * v0 + R[i + 3] * v1) + R[i + 6] * v2;
  }
}

SUBSTRUCT_KERNEL
void frame_world_states(std::size_t n, const double* rest, const double* y, const double* ydot,
                        const double* R, const double* p, const double* nu, const double* omega,
                        bool velocities, double* out) {
  const v4d c0{R[0], R[1], R[2], 0}, c1{R[3], R[4], R[5], 0}, c2{R[6], R[7], R[8], 0};
  const v4d origin{p[0], p[1], p[2], 0};
  for (std::size_t l = 0; l < n; ++l) {
    double a0 = rest[3 * l], a1 = rest[3 * l + 1], a2 = rest[3 * l + 2];  // X̄ + y
    if (y != nullptr) {
      a0 += y[3 * l];
      a1 += y[3 * l + 1];
      a2 += y[3 * l + 2];
    }
    at4(out + 8 * l) = origin + ((c0 * SPLAT4(a0) + c1 * SPLAT4(a1)) + c2 * SPLAT4(a2));
    if (!velocities) continue;
    double b0 = nu[0] + (omega[1] * a2 - omega[2] * a1),
           b1 = nu[1] + (omega[2] * a0 - omega[0] * a2),
           b2 = nu[2] + (omega[0] * a1 - omega[1] * a0);  // ν + ω × xl + ẏ
    if (ydot != nullptr) {
      b0 += ydot[3 * l];
      b1 += ydot[3 * l + 1];
      b2 += ydot[3 * l + 2];
    }
    at4(out + 8 * l + 4) = (c0 * SPLAT4(b0) + c1 * SPLAT4(b1)) + c2 * SPLAT4(b2);
  }
}

}  // namespace substruct::detail
