// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Four and two doubles for the hot numerical loops (included by .cpp files only), compiled for
// AVX2/FMA and the baseline where they are marked SUBSTRUCT_KERNEL (kernel_dispatch.hpp).
#include <cstddef>

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
inline double lane_sum(const v4d& s, const v2d& t) {
  return ((s[0] + s[1]) + (s[2] + s[3])) + (t[0] + t[1]);
}
// Four lane sums at once: sums = {Σ a, Σ b, Σ c, Σ d}.
[[gnu::always_inline]] inline void lane_sums(const v4d& a, const v4d& b, const v4d& c, const v4d& d,
                                             v4d& sums) {
  const v4d ab = {a[0] + a[1], b[0] + b[1], a[2] + a[3], b[2] + b[3]};
  const v4d cd = {c[0] + c[1], d[0] + d[1], c[2] + c[3], d[2] + d[3]};
  sums = v4d{ab[0] + ab[2], ab[1] + ab[3], cd[0] + cd[2], cd[1] + cd[3]};
}

}  // namespace
}  // namespace substruct::detail

// The same value in every lane (a macro: a function returning a vector by value would cross an
// ABI boundary between the two compilations).
#ifndef SPLAT4
#define SPLAT4(a) (v4d{(a), (a), (a), (a)})
#define SPLAT2(a) (v2d{(a), (a)})
#endif
