// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/figure_generator.hpp"

#include <array>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "detail/lattice.hpp"
#include "substruct/core/error.hpp"

namespace substruct {

namespace {

using lattice::Part;
using lattice::Point;

// A box [lo, hi) in units, as a part growing from `parent`.
struct Box {
  const char* name;
  int parent;
  std::array<int, 3> lo, hi;
};

// The boxes of each shape, in units (y up); parents come before their children.
std::vector<Box> boxes(FigureShape shape) {
  switch (shape) {
    case FigureShape::hammock: {
      std::vector<Box> b;
      for (int k = 0; k < 5; ++k)
        b.push_back({"strip", k - 1, {8 * k, 0, 0}, {8 * (k + 1), 1, 16}});
      return b;
    }
    case FigureShape::caterpillar: {
      std::vector<Box> b;
      for (int k = 0; k < 8; ++k)
        b.push_back({"segment", k - 1, {5 * k, 0, 0}, {5 * (k + 1), 4, 4}});
      return b;
    }
    case FigureShape::armadillo:
      return {
          {"torso", -1, {-4, 0, 0}, {4, 8, 4}},       {"head", 0, {-2, 8, 0}, {2, 12, 4}},
          {"arm_right", 0, {4, 5, 1}, {9, 7, 3}},     {"forearm_right", 2, {9, 5, 1}, {14, 7, 3}},
          {"arm_left", 0, {-9, 5, 1}, {-4, 7, 3}},    {"forearm_left", 4, {-14, 5, 1}, {-9, 7, 3}},
          {"thigh_right", 0, {1, -5, 2}, {4, 0, 4}},  {"shin_right", 6, {1, -10, 2}, {4, -5, 4}},
          {"thigh_left", 0, {-4, -5, 2}, {-1, 0, 4}}, {"shin_left", 8, {-4, -10, 2}, {-1, -5, 4}},
          {"tail", 0, {-1, -6, 0}, {1, 0, 1}}};
    case FigureShape::chain: {
      std::vector<Box> b;
      for (int k = 0; k < 8; ++k) {
        b.push_back({"letter", k == 0 ? -1 : 2 * k - 1, {6 * k, 0, 0}, {6 * k + 4, 6, 2}});
        if (k < 7) b.push_back({"link", 2 * k, {6 * k + 4, 2, 0}, {6 * k + 6, 4, 2}});
      }
      return b;
    }
  }
  return {};
}

}  // namespace

FigureShape figure_shape(std::string_view name) {
  for (FigureShape s :
       {FigureShape::hammock, FigureShape::caterpillar, FigureShape::armadillo, FigureShape::chain})
    if (name == to_string(s)) return s;
  throw Error(
      fmt::format("figure: unknown shape '{}' (hammock, caterpillar, armadillo, chain)", name));
}

double figure_youngs_modulus(FigureShape shape) {
  switch (shape) {
    case FigureShape::hammock:
      return 2e8;
    case FigureShape::caterpillar:
      return 1e8;
    case FigureShape::armadillo:
    case FigureShape::chain:
      return 2e6;
  }
  return 0;
}

std::string_view to_string(FigureShape shape) {
  switch (shape) {
    case FigureShape::hammock:
      return "hammock";
    case FigureShape::caterpillar:
      return "caterpillar";
    case FigureShape::armadillo:
      return "armadillo";
    case FigureShape::chain:
      return "chain";
  }
  return "";
}

TetMesh generate_figure(const FigureParameters& p, std::vector<Index>* fixed_vertices,
                        std::vector<Index>* tracked) {
  if (p.resolution < 1 || p.resolution > 8)
    throw Error(fmt::format("figure: resolution must be in [1, 8], found {}", p.resolution));
  if (!(p.unit > 0) || !std::isfinite(p.unit))
    throw Error(fmt::format("figure: the unit must be a positive length, found {}", p.unit));
  const int k = p.resolution;
  const std::vector<Box> shape = boxes(p.shape);
  std::vector<Part> parts;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const Box& b = shape[i];
    // Numbered per name: strip0…, segment0…, letter0… and link0….
    int same = 0;
    for (std::size_t j = 0; j < i; ++j) same += std::string(shape[j].name) == b.name ? 1 : 0;
    const bool numbered = p.shape != FigureShape::armadillo;
    Part part{numbered ? fmt::format("{}{}", b.name, same) : std::string(b.name), b.parent, {}};
    lattice::add_box(part.cells, {k * b.lo[0], k * b.lo[1], k * b.lo[2]},
                     {k * b.hi[0], k * b.hi[1], k * b.hi[2]});
    parts.push_back(std::move(part));
  }
  lattice::check_parts(parts, "figure");
  std::vector<Point> points;
  TetMesh mesh = lattice::lattice_mesh(parts, p.unit / k, p.material, &points);

  // Held vertices, and the vertices to follow, in lattice points (units × k).
  const auto held = [&](const Point& q) {
    switch (p.shape) {
      case FigureShape::hammock:  // the corner columns
        return (q[0] <= k || q[0] >= 39 * k) && (q[2] <= k || q[2] >= 15 * k);
      case FigureShape::caterpillar:  // the tail face
        return q[0] == 0;
      case FigureShape::armadillo:  // the upper back of the torso
        return q[2] == 0 && q[1] >= 2 * k && q[1] <= 7 * k;
      case FigureShape::chain:  // free-flying
        return false;
    }
    return false;
  };
  std::vector<Point> follow;
  switch (p.shape) {
    case FigureShape::hammock:
      follow = {{20 * k, k, 8 * k}, {20 * k, k, 0}};
      break;
    case FigureShape::caterpillar:
      follow = {{40 * k, 4 * k, 2 * k}, {20 * k, 4 * k, 2 * k}};
      break;
    case FigureShape::armadillo:
      follow = {{14 * k, 7 * k, 3 * k}, {0, 12 * k, 4 * k}, {4 * k, -10 * k, 4 * k}};
      break;
    case FigureShape::chain:
      follow = {{46 * k, 6 * k, 2 * k}, {0, 6 * k, 2 * k}};
      break;
  }
  if (fixed_vertices != nullptr) fixed_vertices->clear();
  if (tracked != nullptr) tracked->assign(follow.size(), -1);
  for (std::size_t v = 0; v < points.size(); ++v) {
    if (fixed_vertices != nullptr && held(points[v]))
      fixed_vertices->push_back(static_cast<Index>(v));
    for (std::size_t f = 0; f < follow.size(); ++f)
      if (tracked != nullptr && points[v] == follow[f]) (*tracked)[f] = static_cast<Index>(v);
  }
  if (tracked != nullptr)
    for (Index v : *tracked)
      if (v < 0) throw Error("figure: a tracked point is not a vertex (internal error)");
  return mesh;
}

}  // namespace substruct
