// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/mesh/hex_split.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include <Eigen/Geometry>

namespace substruct {

namespace {

// The six faces of a hexahedron, each a cycle of local vertices counter-clockwise seen from
// outside, so that the cone from an inner point over each face's triangles is positive.
constexpr std::array<std::array<int, 4>, 6> kFaces = {{
    {0, 3, 2, 1},
    {4, 5, 6, 7},
    {0, 1, 5, 4},
    {1, 2, 6, 5},
    {2, 3, 7, 6},
    {3, 0, 4, 7},
}};

Vec3 point(const std::vector<double>& xyz, Index v) {
  const auto i = static_cast<std::size_t>(v) * 3;
  return {xyz[i], xyz[i + 1], xyz[i + 2]};
}

// det[x1 − x0, x2 − x0, x3 − x0] = 6 × the signed volume, and the longest edge.
std::pair<double, double> volume6_and_edge(const std::vector<double>& xyz,
                                           const std::array<Index, 4>& t) {
  std::array<Vec3, 4> x;
  for (std::size_t k = 0; k < 4; ++k) x[k] = point(xyz, t[k]);
  double h2 = 0.0;
  for (std::size_t a = 0; a < 4; ++a)
    for (std::size_t b = a + 1; b < 4; ++b) h2 = std::max(h2, (x[a] - x[b]).squaredNorm());
  return {(x[1] - x[0]).dot((x[2] - x[0]).cross(x[3] - x[0])), std::sqrt(h2)};
}

}  // namespace

Hexahedron hexahedron_of_voxel(const Hexahedron& voxel) {
  return {voxel[0], voxel[1], voxel[3], voxel[2], voxel[4], voxel[5], voxel[7], voxel[6]};
}

std::optional<SixTets> split_hexahedron(const std::vector<double>& xyz, const Hexahedron& hex) {
  const auto apex = static_cast<int>(std::min_element(hex.begin(), hex.end()) - hex.begin());
  SixTets tets{};
  std::size_t n = 0;
  for (const auto& face : kFaces) {
    if (std::find(face.begin(), face.end(), apex) != face.end()) continue;
    std::array<Index, 4> q{};
    for (std::size_t k = 0; k < 4; ++k) q[k] = hex[static_cast<std::size_t>(face[k])];
    // The diagonal through the face's smallest vertex: q0–q2 or q1–q3.
    const auto smallest = std::min_element(q.begin(), q.end()) - q.begin();
    const std::size_t s = smallest % 2 == 0 ? 0 : 1;
    const Index a = q[s], b = q[s + 1], c = q[s + 2], d = q[(s + 3) % 4];
    const Index m = hex[static_cast<std::size_t>(apex)];
    tets[n++] = {m, a, b, c};
    tets[n++] = {m, a, c, d};
  }
  int positive = 0, negative = 0;
  for (const auto& t : tets) {
    const auto [det, h] = volume6_and_edge(xyz, t);
    if (det > 1e-12 * h * h * h) ++positive;
    if (det < -1e-12 * h * h * h) ++negative;
  }
  if (negative == 6)
    for (auto& t : tets) std::swap(t[1], t[2]);
  else if (positive != 6)
    return std::nullopt;
  return tets;
}

}  // namespace substruct
