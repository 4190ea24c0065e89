// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/meshing/surface_defects.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <Eigen/Geometry>

namespace substruct {

namespace {

using Tri = std::array<Index, 3>;

Vec3 point(const SurfaceMesh& s, Index v) {
  return s.vertices.row(v).transpose();
}

std::string where(const SurfaceMesh& s, Index v) {
  const Vec3 x = point(s, v);
  return fmt::format("({:.6g}, {:.6g}, {:.6g})", x(0), x(1), x(2));
}

Tri triangle(const SurfaceMesh& s, Index t) {
  return {s.triangles(t, 0), s.triangles(t, 1), s.triangles(t, 2)};
}

std::string degenerate_or_duplicate(const SurfaceMesh& s) {
  const Index n = s.triangles.rows();
  const Vec3 extent = s.vertices.colwise().maxCoeff() - s.vertices.colwise().minCoeff();
  const double tiny = 1e-12 * extent.squaredNorm();
  std::map<Tri, Index> seen;
  for (Index t = 0; t < n; ++t) {
    const Tri v = triangle(s, t);
    const double area2 =
        (point(s, v[1]) - point(s, v[0])).cross(point(s, v[2]) - point(s, v[0])).norm();
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2] || area2 <= 2 * tiny)
      return fmt::format("triangle {} has no area (vertices {} {} {}, at {})", t + 1, v[0] + 1,
                         v[1] + 1, v[2] + 1, where(s, v[0]));
    Tri key = v;
    std::sort(key.begin(), key.end());
    const auto [it, fresh] = seen.emplace(key, t);
    if (!fresh)
      return fmt::format("triangles {} and {} are the same triangle (vertices {} {} {}, at {})",
                         it->second + 1, t + 1, v[0] + 1, v[1] + 1, v[2] + 1, where(s, v[0]));
  }
  return {};
}

std::string edge_defect(const SurfaceMesh& s) {
  // Each undirected edge: the triangles that have it and the way each runs it.
  struct Uses {
    std::vector<std::pair<Index, bool>> by;  // (triangle, runs from the smaller vertex)
  };
  std::map<std::pair<Index, Index>, Uses> edges;
  for (Index t = 0; t < s.triangles.rows(); ++t)
    for (int k = 0; k < 3; ++k) {
      const Index a = s.triangles(t, k), b = s.triangles(t, (k + 1) % 3);
      edges[{std::min(a, b), std::max(a, b)}].by.emplace_back(t, a < b);
    }
  long open = 0, non_manifold = 0, flipped = 0;
  std::string first_open, first_non_manifold, first_flipped;
  for (const auto& [e, uses] : edges) {
    const auto at = [&] {
      return fmt::format("the edge of vertices {} and {} at {}", e.first + 1, e.second + 1,
                         where(s, e.first));
    };
    if (uses.by.size() == 1) {
      if (open++ == 0)
        first_open = fmt::format("{} belongs to triangle {} only", at(), uses.by[0].first + 1);
    } else if (uses.by.size() > 2) {
      if (non_manifold++ == 0)
        first_non_manifold =
            fmt::format("{} belongs to {} triangles ({}, {}, {}, …)", at(), uses.by.size(),
                        uses.by[0].first + 1, uses.by[1].first + 1, uses.by[2].first + 1);
    } else if (uses.by[0].second == uses.by[1].second) {
      if (flipped++ == 0)
        first_flipped = fmt::format("triangles {} and {} face opposite ways across {}",
                                    uses.by[0].first + 1, uses.by[1].first + 1, at());
    }
  }
  if (open > 0)
    return fmt::format("the surface is open: {} ({} open edges in all)", first_open, open);
  if (non_manifold > 0)
    return fmt::format("the surface is not manifold: {} ({} such edges in all)", first_non_manifold,
                       non_manifold);
  if (flipped > 0)
    return fmt::format("the surface is not consistently oriented: {} ({} such edges in all)",
                       first_flipped, flipped);
  return {};
}

// 6 × the signed volume of (a, b, c, d).
double orient(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).dot((c - a).cross(d - a));
}

// Whether the segment pq passes through the inside of the triangle abc.
bool crosses(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  const double dp = orient(a, b, c, p), dq = orient(a, b, c, q);
  if (!((dp > 0 && dq < 0) || (dp < 0 && dq > 0))) return false;
  const double s1 = orient(p, q, a, b), s2 = orient(p, q, b, c), s3 = orient(p, q, c, a);
  return (s1 > 0 && s2 > 0 && s3 > 0) || (s1 < 0 && s2 < 0 && s3 < 0);
}

bool triangles_cross(const SurfaceMesh& s, const Tri& u, const Tri& v) {
  for (int pass = 0; pass < 2; ++pass) {
    const Tri& e = pass == 0 ? u : v;
    const Tri& f = pass == 0 ? v : u;
    const Vec3 a = point(s, f[0]), b = point(s, f[1]), c = point(s, f[2]);
    for (int k = 0; k < 3; ++k)
      if (crosses(point(s, e[static_cast<std::size_t>(k)]),
                  point(s, e[static_cast<std::size_t>((k + 1) % 3)]), a, b, c))
        return true;
  }
  return false;
}

std::string crossing(const SurfaceMesh& s) {
  const Index n = s.triangles.rows();
  const Eigen::RowVector3d lo = s.vertices.colwise().minCoeff();
  const Eigen::RowVector3d hi = s.vertices.colwise().maxCoeff();
  // Cells about twice a triangle's size: each triangle in the cells its box touches.
  double mean_edge = 0;
  for (Index t = 0; t < n; ++t)
    mean_edge += (s.vertices.row(s.triangles(t, 0)) - s.vertices.row(s.triangles(t, 1))).norm();
  const double h = std::max(2 * mean_edge / static_cast<double>(n), 1e-12 * (hi - lo).norm());
  std::array<long, 3> dims{};
  for (int d = 0; d < 3; ++d)
    dims[static_cast<std::size_t>(d)] =
        std::clamp(static_cast<long>((hi(d) - lo(d)) / h) + 1, 1L, 1024L);
  const auto cell_of = [&](double x, int d) {
    const double cell = (hi(d) - lo(d)) / static_cast<double>(dims[static_cast<std::size_t>(d)]);
    return std::clamp(static_cast<long>((x - lo(d)) / std::max(cell, 1e-300)), 0L,
                      dims[static_cast<std::size_t>(d)] - 1);
  };
  std::unordered_map<long, std::vector<Index>> cells;
  std::vector<std::array<long, 6>> boxes(static_cast<std::size_t>(n));
  for (Index t = 0; t < n; ++t) {
    std::array<long, 6>& box = boxes[static_cast<std::size_t>(t)];
    for (int d = 0; d < 3; ++d) {
      double a = s.vertices(s.triangles(t, 0), d), b = a;
      for (int k = 1; k < 3; ++k) {
        a = std::min(a, s.vertices(s.triangles(t, k), d));
        b = std::max(b, s.vertices(s.triangles(t, k), d));
      }
      box[static_cast<std::size_t>(d)] = cell_of(a, d);
      box[static_cast<std::size_t>(d + 3)] = cell_of(b, d);
    }
    for (long i = box[0]; i <= box[3]; ++i)
      for (long j = box[1]; j <= box[4]; ++j)
        for (long k = box[2]; k <= box[5]; ++k) cells[(k * dims[1] + j) * dims[0] + i].push_back(t);
  }
  long count = 0;
  std::pair<Index, Index> first{n, n};
  for (const auto& [key, list] : cells) {
    const long i = key % dims[0], j = (key / dims[0]) % dims[1], k = key / (dims[0] * dims[1]);
    for (std::size_t a = 0; a < list.size(); ++a)
      for (std::size_t b = a + 1; b < list.size(); ++b) {
        const auto& p = boxes[static_cast<std::size_t>(list[a])];
        const auto& q = boxes[static_cast<std::size_t>(list[b])];
        // Each pair once: in the first cell both boxes touch.
        if (std::max(p[0], q[0]) != i || std::max(p[1], q[1]) != j || std::max(p[2], q[2]) != k)
          continue;
        const Tri u = triangle(s, list[a]), v = triangle(s, list[b]);
        bool shared = false;
        for (const Index x : u) shared = shared || std::find(v.begin(), v.end(), x) != v.end();
        if (shared || !triangles_cross(s, u, v)) continue;
        ++count;
        first = std::min(
            first, std::pair<Index, Index>(std::min(list[a], list[b]), std::max(list[a], list[b])));
      }
  }
  if (count == 0) return {};
  return fmt::format(
      "the surface crosses itself: triangles {} and {} intersect near {} ({} "
      "crossing pairs in all)",
      first.first + 1, first.second + 1, where(s, s.triangles(first.first, 0)), count);
}

}  // namespace

std::string first_surface_defect(const SurfaceMesh& surface) {
  if (surface.triangles.rows() == 0) return "the surface has no triangles";
  for (const auto& check : {degenerate_or_duplicate, edge_defect, crossing}) {
    std::string defect = check(surface);
    if (!defect.empty()) return defect;
  }
  return {};
}

}  // namespace substruct
