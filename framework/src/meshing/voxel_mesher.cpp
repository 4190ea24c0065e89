// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/meshing/voxel_mesher.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/hex_split.hpp"

namespace substruct {

namespace {

struct Grid {
  Eigen::RowVector3d origin;
  double h = 0;
  std::array<long, 3> n{};
  long index(long i, long j, long k) const { return (k * n[1] + j) * n[0] + i; }
};

// Inside flags of every cube, by ray parity along +x through each (j, k) row of centres.
std::vector<char> inside_cells(const SurfaceMesh& s, const Grid& g) {
  std::vector<char> inside(static_cast<std::size_t>(g.n[0] * g.n[1] * g.n[2]), 0);
  // The rows each triangle's (y, z) box covers.
  std::vector<std::vector<Index>> rows(static_cast<std::size_t>(g.n[1] * g.n[2]));
  const auto row_of = [&](double x, int d) {
    return std::clamp(static_cast<long>(std::floor((x - g.origin(d)) / g.h - 0.5)), -1L,
                      g.n[static_cast<std::size_t>(d)] - 1);
  };
  for (Index t = 0; t < s.triangles.rows(); ++t) {
    std::array<long, 2> lo{}, hi{};
    for (int d = 1; d < 3; ++d) {
      double a = s.vertices(s.triangles(t, 0), d), b = a;
      for (int k = 1; k < 3; ++k) {
        a = std::min(a, s.vertices(s.triangles(t, k), d));
        b = std::max(b, s.vertices(s.triangles(t, k), d));
      }
      lo[static_cast<std::size_t>(d - 1)] = row_of(a, d) + 1;  // first centre ≥ a
      hi[static_cast<std::size_t>(d - 1)] = row_of(b, d);      // last centre ≤ b
    }
    for (long k = std::max(0L, lo[1]); k <= hi[1]; ++k)
      for (long j = std::max(0L, lo[0]); j <= hi[0]; ++j)
        rows[static_cast<std::size_t>(k * g.n[1] + j)].push_back(t);
  }
  std::vector<double> hits;
  for (long k = 0; k < g.n[2]; ++k)
    for (long j = 0; j < g.n[1]; ++j) {
      // A ray a hair off the centres, so that it meets no edge or vertex of a regular grid.
      const double y = g.origin(1) + (j + 0.5 + 1.3e-7) * g.h;
      const double z = g.origin(2) + (k + 0.5 + 0.7e-7) * g.h;
      hits.clear();
      for (const Index t : rows[static_cast<std::size_t>(k * g.n[1] + j)]) {
        const auto a = s.vertices.row(s.triangles(t, 0)), b = s.vertices.row(s.triangles(t, 1)),
                   c = s.vertices.row(s.triangles(t, 2));
        // Barycentric coordinates of (y, z) in the triangle's projection on the y–z plane.
        const double det = (b(1) - a(1)) * (c(2) - a(2)) - (c(1) - a(1)) * (b(2) - a(2));
        if (det == 0) continue;
        const double u = ((y - a(1)) * (c(2) - a(2)) - (c(1) - a(1)) * (z - a(2))) / det;
        const double v = ((b(1) - a(1)) * (z - a(2)) - (y - a(1)) * (b(2) - a(2))) / det;
        if (u < 0 || v < 0 || u + v > 1) continue;
        hits.push_back(a(0) + u * (b(0) - a(0)) + v * (c(0) - a(0)));
      }
      std::sort(hits.begin(), hits.end());
      hits.erase(std::unique(hits.begin(), hits.end(),
                             [&](double p, double q) { return q - p < 1e-9 * g.h; }),
                 hits.end());
      std::size_t before = 0;  // crossings left of the centre
      for (long i = 0; i < g.n[0]; ++i) {
        const double x = g.origin(0) + (i + 0.5) * g.h;
        while (before < hits.size() && hits[before] < x) ++before;
        inside[static_cast<std::size_t>(g.index(i, j, k))] = (hits.size() - before) % 2 == 1;
      }
    }
  return inside;
}

// Keeps the largest face-connected piece of inside cubes; returns how many there were in all.
Index keep_largest_piece(const Grid& g, std::vector<char>& inside) {
  std::vector<int> piece(inside.size(), -1);
  std::vector<Index> sizes;
  std::vector<long> stack;
  Index total = 0;
  for (long c = 0; c < static_cast<long>(inside.size()); ++c) {
    if (!inside[static_cast<std::size_t>(c)] || piece[static_cast<std::size_t>(c)] >= 0) continue;
    const int id = static_cast<int>(sizes.size());
    sizes.push_back(0);
    stack.push_back(c);
    piece[static_cast<std::size_t>(c)] = id;
    while (!stack.empty()) {
      const long e = stack.back();
      stack.pop_back();
      ++sizes.back();
      const long i = e % g.n[0], j = (e / g.n[0]) % g.n[1], k = e / (g.n[0] * g.n[1]);
      const std::array<std::array<long, 3>, 6> next = {{{i - 1, j, k},
                                                        {i + 1, j, k},
                                                        {i, j - 1, k},
                                                        {i, j + 1, k},
                                                        {i, j, k - 1},
                                                        {i, j, k + 1}}};
      for (const auto& q : next) {
        if (q[0] < 0 || q[1] < 0 || q[2] < 0 || q[0] >= g.n[0] || q[1] >= g.n[1] || q[2] >= g.n[2])
          continue;
        const auto f = static_cast<std::size_t>(g.index(q[0], q[1], q[2]));
        if (!inside[f] || piece[f] >= 0) continue;
        piece[f] = id;
        stack.push_back(static_cast<long>(f));
      }
    }
    total += sizes.back();
  }
  const auto largest =
      static_cast<int>(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
  for (std::size_t c = 0; c < inside.size(); ++c) inside[c] = piece[c] == largest;
  return total;
}

}  // namespace

std::vector<char> cube_centres_inside(const SurfaceMesh& surface, const Vec3& origin, double cell,
                                      const std::array<long, 3>& dims) {
  Grid g;
  g.origin = origin.transpose();
  g.h = cell;
  g.n = dims;
  return inside_cells(surface, g);
}

TetMesh voxelize_surface(const SurfaceMesh& surface, int cells, VoxelMeshReport* report) {
  if (cells < 1) throw Error(fmt::format("voxels: {} cubes across the model; expected ≥ 1", cells));
  const Eigen::RowVector3d lo = surface.vertices.colwise().minCoeff();
  const Eigen::RowVector3d hi = surface.vertices.colwise().maxCoeff();
  Grid g;
  g.h = (hi - lo).maxCoeff() / cells;
  if (!(g.h > 0)) throw Error("voxels: the model has no extent");
  for (int d = 0; d < 3; ++d)
    g.n[static_cast<std::size_t>(d)] = std::max(1L, std::lround((hi(d) - lo(d)) / g.h));
  // The grid centred on the box.
  for (int d = 0; d < 3; ++d)
    g.origin(d) =
        0.5 * (lo(d) + hi(d)) - 0.5 * g.h * static_cast<double>(g.n[static_cast<std::size_t>(d)]);
  std::vector<char> inside = inside_cells(surface, g);
  const Index found = static_cast<Index>(std::count(inside.begin(), inside.end(), 1));
  if (found == 0)
    throw Error(fmt::format(
        "voxels: no cube of {:.4g} (grid {}×{}×{}) has its centre inside the surface; use more "
        "cubes, or close the surface",
        g.h, g.n[0], g.n[1], g.n[2]));
  keep_largest_piece(g, inside);

  // Lattice points of the kept cubes, numbered in lattice order.
  const std::array<long, 3> p = {g.n[0] + 1, g.n[1] + 1, g.n[2] + 1};
  const auto point = [&](long i, long j, long k) { return (k * p[1] + j) * p[0] + i; };
  std::vector<Index> number(static_cast<std::size_t>(p[0] * p[1] * p[2]), -1);
  constexpr std::array<std::array<int, 3>, 8> kCorner = {
      {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}};
  for (long k = 0; k < g.n[2]; ++k)
    for (long j = 0; j < g.n[1]; ++j)
      for (long i = 0; i < g.n[0]; ++i)
        if (inside[static_cast<std::size_t>(g.index(i, j, k))])
          for (const auto& c : kCorner)
            number[static_cast<std::size_t>(point(i + c[0], j + c[1], k + c[2]))] = 0;
  std::vector<double> xyz;
  for (long k = 0; k < p[2]; ++k)
    for (long j = 0; j < p[1]; ++j)
      for (long i = 0; i < p[0]; ++i) {
        Index& id = number[static_cast<std::size_t>(point(i, j, k))];
        if (id < 0) continue;
        id = static_cast<Index>(xyz.size() / 3);
        xyz.insert(xyz.end(), {g.origin(0) + static_cast<double>(i) * g.h,
                               g.origin(1) + static_cast<double>(j) * g.h,
                               g.origin(2) + static_cast<double>(k) * g.h});
      }
  std::vector<Index> tets;
  Index kept = 0;
  for (long k = 0; k < g.n[2]; ++k)
    for (long j = 0; j < g.n[1]; ++j)
      for (long i = 0; i < g.n[0]; ++i) {
        if (!inside[static_cast<std::size_t>(g.index(i, j, k))]) continue;
        ++kept;
        Hexahedron hex{};
        for (std::size_t c = 0; c < 8; ++c)
          hex[c] = number[static_cast<std::size_t>(
              point(i + kCorner[c][0], j + kCorner[c][1], k + kCorner[c][2]))];
        const std::optional<SixTets> six = split_hexahedron(xyz, hex);  // a cube always splits
        for (const auto& t : *six) tets.insert(tets.end(), t.begin(), t.end());
      }
  TetMesh mesh;
  mesh.vertices = Points(static_cast<Eigen::Index>(xyz.size() / 3), 3);
  std::copy(xyz.begin(), xyz.end(), mesh.vertices.data());
  mesh.tets = Tets(static_cast<Eigen::Index>(tets.size() / 4), 4);
  std::copy(tets.begin(), tets.end(), mesh.tets.data());
  mesh.materials = {Material{}};
  mesh.element_material.assign(static_cast<std::size_t>(mesh.num_elements()), 0);
  if (report != nullptr) {
    report->cell = g.h;
    report->inside_cells = found;
    report->kept_cells = kept;
    for (int d = 0; d < 3; ++d)
      report->dims[d] = static_cast<int>(g.n[static_cast<std::size_t>(d)]);
  }
  return mesh;
}

}  // namespace substruct
