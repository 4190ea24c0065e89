// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Improved Perlin noise in four dimensions (Perlin 2002, extended to space-time as in Zhao 2014,
// §6.2): pseudorandom gradients at the 16 lattice corners around (x, y, z, t), dotted with the
// offsets and blended with w(s) = 6s⁵ − 15s⁴ + 10s³. The permutation comes from a seed, so the
// field is repeatable.
#include <array>
#include <cstdint>

namespace substruct::wind {

class PerlinNoise4 {
 public:
  explicit PerlinNoise4(std::uint64_t seed);
  /// In [−1, 1] (RMS about 0.25), mean 0; 0 at every lattice point; C2 everywhere.
  double operator()(double x, double y, double z, double t) const;

 private:
  std::array<int, 512> perm_{};
};

}  // namespace substruct::wind
