// SPDX-License-Identifier: GPL-3.0-or-later
#include "perlin_noise.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace substruct::wind {

namespace {

double fade(double s) {
  return s * s * s * (s * (s * 6 - 15) + 10);
}
double lerp(double a, double b, double s) {
  return a + s * (b - a);
}

// One of the 32 gradients (0, ±1, ±1, ±1) and permutations: the edge midpoints of the 4D
// hypercube, the 4D analogue of Perlin's 12 cube edges.
double gradient(int hash, double x, double y, double z, double t) {
  const int h = hash & 31;
  const double a = h < 24 ? x : y;
  const double b = h < 16 ? y : z;
  const double c = h < 8 ? z : t;
  return ((h & 1) ? -a : a) + ((h & 2) ? -b : b) + ((h & 4) ? -c : c);
}

}  // namespace

PerlinNoise4::PerlinNoise4(std::uint64_t seed) {
  std::array<int, 256> p{};
  std::iota(p.begin(), p.end(), 0);
  std::mt19937_64 random(seed);
  // Fisher–Yates with our own index draws (std::shuffle's draws are implementation-defined).
  for (int i = 255; i > 0; --i) {
    const auto j = static_cast<int>(random() % static_cast<std::uint64_t>(i + 1));
    std::swap(p[static_cast<std::size_t>(i)], p[static_cast<std::size_t>(j)]);
  }
  for (std::size_t i = 0; i < 512; ++i) perm_[i] = p[i & 255];
}

double PerlinNoise4::operator()(double x, double y, double z, double t) const {
  const double fx = std::floor(x), fy = std::floor(y), fz = std::floor(z), ft = std::floor(t);
  const int X = static_cast<int>(static_cast<long long>(fx) & 255);
  const int Y = static_cast<int>(static_cast<long long>(fy) & 255);
  const int Z = static_cast<int>(static_cast<long long>(fz) & 255);
  const int T = static_cast<int>(static_cast<long long>(ft) & 255);
  x -= fx;
  y -= fy;
  z -= fz;
  t -= ft;
  const double u = fade(x), v = fade(y), w = fade(z), s = fade(t);
  auto hash = [&](int i, int j, int k, int l) {
    const auto& P = perm_;
    return P[static_cast<std::size_t>(
        P[static_cast<std::size_t>(
            P[static_cast<std::size_t>(P[static_cast<std::size_t>(X + i)] + Y + j)] + Z + k)] +
        T + l)];
  };
  // Quadrilinear blend of the 16 corner values.
  double along_t[2];
  for (int l = 0; l < 2; ++l) {
    double along_z[2];
    for (int k = 0; k < 2; ++k) {
      double along_y[2];
      for (int j = 0; j < 2; ++j) {
        const double a = gradient(hash(0, j, k, l), x, y - j, z - k, t - l);
        const double b = gradient(hash(1, j, k, l), x - 1, y - j, z - k, t - l);
        along_y[j] = lerp(a, b, u);
      }
      along_z[k] = lerp(along_y[0], along_y[1], v);
    }
    along_t[l] = lerp(along_z[0], along_z[1], w);
  }
  // The raw values stay within about ±1.13 (2·10⁶ random samples); scaled into [−1, 1].
  return lerp(along_t[0], along_t[1], s) * 0.85;
}

}  // namespace substruct::wind
