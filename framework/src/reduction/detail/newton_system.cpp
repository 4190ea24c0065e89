// SPDX-License-Identifier: GPL-3.0-or-later
#include "newton_system.hpp"

#include <cstddef>

#include "../../core/detail/kernel_dispatch.hpp"

namespace substruct::detail {

namespace {

// Column by column: R += K_j (c_K k v_j) + M_j m (a_j + c_M v_j), A_j = a_M m M_j + a_K k K_j.
// kUnit: M = I, its column the unit vector (its part of R added once, at the end).
template <bool kUnit>
[[gnu::always_inline]] inline void form(int r, const double* __restrict M,
                                        const double* __restrict K, const double* __restrict f,
                                        const double* __restrict f_ext, const double* __restrict a,
                                        const double* __restrict v, const NewtonCoefficients& c,
                                        double* __restrict R, double* __restrict A) {
  const auto n = static_cast<std::ptrdiff_t>(r);
  const double kv = c.stiffness_damping * c.k, am = c.matrix_mass * c.m,
               ak = c.matrix_stiffness * c.k;
  for (std::ptrdiff_t i = 0; i < n; ++i) R[i] = c.k * f[i] - f_ext[i];
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    const double* __restrict Kj = K + j * n;
    double* __restrict Aj = A + j * n;
    const double x = kv * v[j];
    if constexpr (kUnit) {
      for (std::ptrdiff_t i = 0; i < n; ++i) {
        R[i] += Kj[i] * x;
        Aj[i] = ak * Kj[i];
      }
      Aj[j] += am;
    } else {
      const double* __restrict Mj = M + j * n;
      const double y = c.m * (a[j] + c.mass_damping * v[j]);
      for (std::ptrdiff_t i = 0; i < n; ++i) {
        R[i] += Kj[i] * x + Mj[i] * y;
        Aj[i] = am * Mj[i] + ak * Kj[i];
      }
    }
  }
  if constexpr (kUnit)
    for (std::ptrdiff_t i = 0; i < n; ++i) R[i] += c.m * (a[i] + c.mass_damping * v[i]);
}

}  // namespace

SUBSTRUCT_KERNEL
void newton_system(int r, const double* M, const double* K, const double* f, const double* f_ext,
                   const double* a, const double* v, const NewtonCoefficients& c, double* R,
                   double* A) {
  if (M == nullptr)
    form<true>(r, M, K, f, f_ext, a, v, c, R, A);
  else
    form<false>(r, M, K, f, f_ext, a, v, c, R, A);
}

// R's force terms entry by entry; then M's columns: R += M_j m (a_j + c_M v_j) and
// A[j:, j] += a_M m M[j:, j].
SUBSTRUCT_KERNEL
void newton_mass_terms(int r, const double* M, const double* f, const double* Kx,
                       const double* f_ext, const double* a, const double* v,
                       const NewtonCoefficients& c, double* R, double* A) {
  const auto n = static_cast<std::ptrdiff_t>(r);
  const double am = c.matrix_mass * c.m;
  if (M == nullptr) {
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      R[i] = (c.k * f[i] + Kx[i]) + (c.m * (a[i] + c.mass_damping * v[i]) - f_ext[i]);
      A[i * n + i] += am;
    }
    return;
  }
  for (std::ptrdiff_t i = 0; i < n; ++i) R[i] = (c.k * f[i] + Kx[i]) - f_ext[i];
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    const double* __restrict Mj = M + j * n;
    double* __restrict Aj = A + j * n;
    const double y = c.m * (a[j] + c.mass_damping * v[j]);
    for (std::ptrdiff_t i = 0; i < n; ++i) R[i] += Mj[i] * y;
    for (std::ptrdiff_t i = j; i < n; ++i) Aj[i] += am * Mj[i];
  }
}

}  // namespace substruct::detail
