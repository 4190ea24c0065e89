// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The cross-product matrix and its inverse, in the notation of Barbič–Zhao 2011, §3.
#include "substruct/core/types.hpp"

namespace substruct {

/// ω̃, the skew-symmetric matrix with ω̃ x = ω × x.
inline Mat3 hat(const Vec3& w) {
  Mat3 m;
  m << 0, -w.z(), w.y(), w.z(), 0, -w.x(), -w.y(), w.x(), 0;
  return m;
}

/// skew(A): the vector ω with ω̃ = (A − Aᵀ)/2.
inline Vec3 skew(const Mat3& a) {
  return 0.5 * Vec3(a(2, 1) - a(1, 2), a(0, 2) - a(2, 0), a(1, 0) - a(0, 1));
}

}  // namespace substruct
