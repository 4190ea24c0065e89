// SPDX-License-Identifier: GPL-3.0-or-later
#include "lattice.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::lattice {

namespace {

// The 6 monotone paths from one corner of a cell to the opposite one, as the order in which the
// axes are stepped: x y z, y x z, y z x, z y x, z x y, x z y.
constexpr std::array<std::array<int, 3>, 6> kPaths = {
    {{0, 1, 2}, {1, 0, 2}, {1, 2, 0}, {2, 1, 0}, {2, 0, 1}, {0, 2, 1}}};

bool odd(int v) {
  return (v & 1) != 0;
}

long long orientation(const std::array<Point, 4>& t) {
  std::array<std::array<long long, 3>, 3> d{};
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t a = 0; a < 3; ++a) d[k][a] = t[k + 1][a] - t[0][a];
  return d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) -
         d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0]) +
         d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0]);
}

}  // namespace

std::array<std::array<Point, 4>, 6> cell_tets(const Point& cell) {
  Point even{};
  Point step{};
  for (std::size_t a = 0; a < 3; ++a) {
    even[a] = odd(cell[a]) ? cell[a] + 1 : cell[a];
    step[a] = odd(cell[a]) ? -1 : 1;
  }
  std::array<std::array<Point, 4>, 6> tets{};
  for (std::size_t k = 0; k < kPaths.size(); ++k) {
    std::array<Point, 4>& t = tets[k];
    t[0] = even;
    for (std::size_t s = 0; s < 3; ++s) {
      t[s + 1] = t[s];
      const auto axis = static_cast<std::size_t>(kPaths[k][s]);
      t[s + 1][axis] += step[axis];
    }
    if (orientation(t) < 0) std::swap(t[1], t[2]);
  }
  return tets;
}

Point turn(int turns, const Point& v) {
  Point p = v;
  for (int k = 0; k < ((turns % 4) + 4) % 4; ++k) p = {-p[2], p[1], p[0]};  // +x → +z, +z → −x
  return p;
}

Point Placement::apply(const Point& p) const {
  const Point r = turn(turns, p);
  return {r[0] + translation[0], r[1] + translation[1], r[2] + translation[2]};
}

Point Placement::apply_to_cell(const Point& cell) const {
  Point lower = apply(cell);
  for (int corner = 1; corner < 8; ++corner) {
    const Point q = apply(
        {cell[0] + (corner & 1), cell[1] + ((corner >> 1) & 1), cell[2] + ((corner >> 2) & 1)});
    for (std::size_t a = 0; a < 3; ++a) lower[a] = std::min(lower[a], q[a]);
  }
  return lower;
}

Placement Placement::after(const Placement& inner) const {
  // R_a (R_b x + t_b) + t_a = R_(a+b) x + (R_a t_b + t_a)
  return {(turns + inner.turns) % 4, apply(inner.translation)};
}

bool Placement::keeps_split() const {
  return odd(translation[0]) == odd(translation[1]) && odd(translation[1]) == odd(translation[2]);
}

void check_parts(const std::vector<Part>& parts, const std::string& what) {
  const auto fail = [&](const std::string& message) {
    throw Error(
        fmt::format("{}: {} (internal error: please report the parameters)", what, message));
  };
  // Cells: no two parts may own one.
  std::vector<std::pair<Point, int>> cells;
  for (std::size_t d = 0; d < parts.size(); ++d)
    for (const Point& c : parts[d].cells) cells.emplace_back(c, static_cast<int>(d));
  std::sort(cells.begin(), cells.end());
  for (std::size_t i = 1; i < cells.size(); ++i)
    if (cells[i].first == cells[i - 1].first)
      fail(fmt::format("{} and {} overlap",
                       parts[static_cast<std::size_t>(cells[i - 1].second)].name,
                       parts[static_cast<std::size_t>(cells[i].second)].name));

  // Points: which parts use each.
  std::vector<std::pair<Point, int>> users;
  users.reserve(8 * cells.size());
  for (const auto& [c, d] : cells)
    for (int corner = 0; corner < 8; ++corner)
      users.emplace_back(
          Point{c[0] + (corner & 1), c[1] + ((corner >> 1) & 1), c[2] + ((corner >> 2) & 1)}, d);
  std::sort(users.begin(), users.end());
  users.erase(std::unique(users.begin(), users.end()), users.end());
  std::map<std::pair<int, int>, std::vector<Point>> shared;
  for (std::size_t i = 0; i < users.size();) {
    std::size_t j = i;
    while (j < users.size() && users[j].first == users[i].first) ++j;
    for (std::size_t a = i; a < j; ++a)
      for (std::size_t b = a + 1; b < j; ++b)
        shared[{users[a].second, users[b].second}].push_back(users[i].first);
    i = j;
  }
  for (const auto& [pair, points] : shared) {
    const Part& lo = parts[static_cast<std::size_t>(pair.first)];
    const Part& hi = parts[static_cast<std::size_t>(pair.second)];
    if (hi.parent != pair.first && lo.parent != pair.second)
      fail(fmt::format("{} and {} touch, but only a part and the part it grows from may", lo.name,
                       hi.name));
    int constant_axes = 0;
    for (std::size_t axis = 0; axis < 3; ++axis) {
      bool constant = true;
      for (const Point& q : points) constant = constant && q[axis] == points[0][axis];
      constant_axes += constant ? 1 : 0;
    }
    // Lattice points on one plane span it unless all lie on one line: look for a triangle.
    bool spans_plane = false;
    for (std::size_t k = 2; k < points.size() && !spans_plane; ++k) {
      std::array<long long, 3> u{}, v{};
      for (std::size_t a = 0; a < 3; ++a) {
        u[a] = points[1][a] - points[0][a];
        v[a] = points[k][a] - points[0][a];
      }
      spans_plane = u[1] * v[2] - u[2] * v[1] != 0 || u[2] * v[0] - u[0] * v[2] != 0 ||
                    u[0] * v[1] - u[1] * v[0] != 0;
    }
    if (points.size() < 4 || constant_axes != 1 || !spans_plane)
      fail(
          fmt::format("{} and {} must share a planar face of at least 4 vertices, found {} "
                      "vertices",
                      lo.name, hi.name, points.size()));
  }
  for (std::size_t d = 0; d < parts.size(); ++d) {
    const int p = parts[d].parent;
    if (p < 0) continue;
    const int self = static_cast<int>(d);
    if (shared.count({std::min(p, self), std::max(p, self)}) == 0)
      fail(fmt::format("{} does not touch {}", parts[d].name,
                       parts[static_cast<std::size_t>(p)].name));
  }
}

void add_box(std::vector<Point>& cells, const Point& lo, const Point& hi) {
  for (int y = lo[1]; y < hi[1]; ++y)
    for (int z = lo[2]; z < hi[2]; ++z)
      for (int x = lo[0]; x < hi[0]; ++x) cells.push_back({x, y, z});
}

Triangulation triangulate(const std::vector<Point>& cells) {
  std::map<Point, int> index;  // key (y, z, x)
  for (const Point& c : cells)
    for (int corner = 0; corner < 8; ++corner)
      index.emplace(
          Point{c[1] + ((corner >> 1) & 1), c[2] + ((corner >> 2) & 1), c[0] + (corner & 1)}, 0);
  Triangulation t;
  t.points.reserve(index.size());
  int next = 0;
  for (auto& [key, i] : index) {
    i = next++;
    t.points.push_back({key[2], key[0], key[1]});
  }
  t.tets.reserve(6 * cells.size());
  for (const Point& c : cells)
    for (const auto& tet : cell_tets(c)) {
      std::array<int, 4> v{};
      for (std::size_t k = 0; k < 4; ++k) v[k] = index.at({tet[k][1], tet[k][2], tet[k][0]});
      t.tets.push_back(v);
    }
  return t;
}

TetMesh lattice_mesh(const std::vector<Part>& parts, double cell_size, const Material& material,
                     std::vector<Point>* points) {
  std::vector<Point> cells;
  for (const Part& part : parts) cells.insert(cells.end(), part.cells.begin(), part.cells.end());
  const Triangulation t = triangulate(cells);
  TetMesh mesh;
  mesh.vertices.resize(static_cast<Eigen::Index>(t.points.size()), 3);
  for (std::size_t v = 0; v < t.points.size(); ++v)
    for (int a = 0; a < 3; ++a)
      mesh.vertices(static_cast<Eigen::Index>(v), a) =
          t.points[v][static_cast<std::size_t>(a)] * cell_size;
  if (points != nullptr) *points = t.points;
  mesh.tets.resize(static_cast<Eigen::Index>(t.tets.size()), 4);
  Index e = 0;
  for (const Part& part : parts) {  // elements part by part, as the cells were gathered
    std::vector<Index>& set = mesh.element_sets[part.name];
    for (std::size_t k = 0; k < 6 * part.cells.size(); ++k, ++e) {
      for (std::size_t a = 0; a < 4; ++a)
        mesh.tets(e, static_cast<Eigen::Index>(a)) = t.tets[static_cast<std::size_t>(e)][a];
      set.push_back(e);
    }
  }
  mesh.materials = {material};
  mesh.element_material.assign(static_cast<std::size_t>(mesh.num_elements()), 0);
  return mesh;
}

}  // namespace substruct::lattice
