// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Closed triangle surfaces for the import's tests: the unit icosphere (an icosahedron whose
// triangles are split in four `levels` times, vertices pushed onto the sphere), outward
// oriented, and a surface's .obj text.
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct::testing {

inline SurfaceMesh icosphere(int levels, double radius = 1.0, Vec3 centre = Vec3::Zero()) {
  const double t = (1 + std::sqrt(5.0)) / 2;
  std::vector<Vec3> v = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                         {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  for (Vec3& p : v) p.normalize();
  std::vector<std::array<Index, 3>> f = {
      {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
      {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
      {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<Index, Index>, Index> middle;
    const auto mid = [&](Index a, Index b) {
      const auto key = std::minmax(a, b);
      const auto it = middle.find(key);
      if (it != middle.end()) return it->second;
      v.push_back((v[static_cast<std::size_t>(a)] + v[static_cast<std::size_t>(b)]).normalized());
      return middle[key] = static_cast<Index>(v.size() - 1);
    };
    std::vector<std::array<Index, 3>> next;
    for (const auto& [a, b, c] : f) {
      const Index ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
      next.insert(next.end(), {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}});
    }
    f = next;
  }
  SurfaceMesh s;
  s.vertices = Points(static_cast<Eigen::Index>(v.size()), 3);
  for (std::size_t i = 0; i < v.size(); ++i)
    s.vertices.row(static_cast<Eigen::Index>(i)) = (centre + radius * v[i]).transpose();
  s.triangles = Triangles(static_cast<Eigen::Index>(f.size()), 3);
  for (std::size_t i = 0; i < f.size(); ++i)
    for (int k = 0; k < 3; ++k)
      s.triangles(static_cast<Eigen::Index>(i), k) = f[i][static_cast<std::size_t>(k)];
  return s;
}

/// The axis-aligned box [0, a] × [0, b] × [0, c] as 12 outward triangles.
inline SurfaceMesh box_surface(double a, double b, double c) {
  SurfaceMesh s;
  s.vertices = Points(8, 3);
  for (int i = 0; i < 8; ++i)
    s.vertices.row(i) << (i & 1) * a, ((i >> 1) & 1) * b, ((i >> 2) & 1) * c;
  s.triangles = Triangles(12, 3);
  s.triangles << 0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2,
      4, 6, 1, 3, 5, 3, 7, 5;
  return s;
}

/// Both surfaces as one (b's vertices after a's).
inline SurfaceMesh merged(const SurfaceMesh& a, const SurfaceMesh& b) {
  SurfaceMesh s;
  s.vertices = Points(a.vertices.rows() + b.vertices.rows(), 3);
  s.vertices << a.vertices, b.vertices;
  s.triangles = Triangles(a.triangles.rows() + b.triangles.rows(), 3);
  s.triangles << a.triangles,
      (b.triangles.array() + static_cast<Index>(a.vertices.rows())).matrix();
  return s;
}

/// The volume a closed, outward surface encloses (divergence theorem).
inline double enclosed_volume(const SurfaceMesh& s) {
  double v = 0;
  for (Eigen::Index t = 0; t < s.triangles.rows(); ++t) {
    const Vec3 a = s.vertices.row(s.triangles(t, 0)).transpose();
    const Vec3 b = s.vertices.row(s.triangles(t, 1)).transpose();
    const Vec3 c = s.vertices.row(s.triangles(t, 2)).transpose();
    v += a.dot(b.cross(c)) / 6;
  }
  return v;
}

inline std::string obj_text(const SurfaceMesh& s) {
  std::string text;
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v)
    text += fmt::format("v {:.17g} {:.17g} {:.17g}\n", s.vertices(v, 0), s.vertices(v, 1),
                        s.vertices(v, 2));
  for (Eigen::Index t = 0; t < s.triangles.rows(); ++t)
    text += fmt::format("f {} {} {}\n", s.triangles(t, 0) + 1, s.triangles(t, 1) + 1,
                        s.triangles(t, 2) + 1);
  return text;
}

}  // namespace substruct::testing
