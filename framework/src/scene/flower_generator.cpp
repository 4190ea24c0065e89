// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/flower_generator.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "detail/lattice.hpp"
#include "substruct/core/error.hpp"

namespace substruct {

namespace {

using lattice::Part;
using LatticePoint = lattice::Point;

/// A horizontal direction: +x, +z, −x or −z.
struct Direction {
  int axis;  // 0 (x) or 2 (z)
  int sign;  // +1 or −1
};
constexpr std::array<Direction, 4> kDirections = {{{0, 1}, {2, 1}, {0, -1}, {2, -1}}};

void require(bool condition, const std::string& what) {
  if (!condition) throw Error("flower: " + what);
}

void validate(const FlowerParameters& p) {
  constexpr int kMaxSize = 10000;
  const auto in_range = [&](int value, int lo, int hi, const char* name) {
    require(value >= lo && value <= hi,
            fmt::format("{} must be in [{}, {}], found {}", name, lo, hi, value));
  };
  in_range(p.segments, 1, kMaxSize, "segments");
  in_range(p.leaves, 0, 4 * p.segments, "leaves (at most 4 per stem segment)");
  in_range(p.petals, 0, 4, "petals (one per side of the bloom)");
  require(std::isfinite(p.cell_size) && p.cell_size > 0,
          fmt::format("cell_size must be a positive length, found {}", p.cell_size));
  in_range(p.stem_half_width, 1, kMaxSize, "stem_half_width");
  // Up to 2 leaves per segment sit at half its height; 3 or 4 in two layers one cell apart.
  if (p.leaves > 2 * p.segments)
    in_range(p.segment_height, 5, kMaxSize,
             "segment_height (with more than 2 leaves on a segment)");
  else
    in_range(p.segment_height, 3, kMaxSize, "segment_height");
  in_range(p.leaf_length, 1, kMaxSize, "leaf_length");
  in_range(p.leaf_half_width, 1, kMaxSize, "leaf_half_width");
  in_range(p.bloom_half_width, std::max(2, p.stem_half_width), kMaxSize,
           "bloom_half_width (at least 2 and at least stem_half_width)");
  in_range(p.bloom_height, 1, kMaxSize, "bloom_height");
  in_range(p.petal_length, 1, kMaxSize, "petal_length");
  in_range(p.petal_half_width, 1, kMaxSize, "petal_half_width");
  require(std::isfinite(p.curl) && p.curl >= 0, fmt::format("curl must be ≥ 0, found {}", p.curl));

  // An upper bound on the number of cells, so that absurd sizes fail here and not in memory.
  const auto a = std::int64_t{p.stem_half_width};
  const auto b = std::int64_t{p.bloom_half_width};
  const std::int64_t cells = std::int64_t{p.segments} * 4 * a * a * p.segment_height +
                             std::int64_t{p.leaves} * p.leaf_length * 2 * p.leaf_half_width +
                             4 * b * b * p.bloom_height +
                             std::int64_t{p.petals} * p.petal_length * 2 * p.petal_half_width;
  constexpr std::int64_t kMaxCells = 2'000'000;
  require(cells <= kMaxCells, fmt::format("these sizes make up to {} tetrahedra; at most {} are "
                                          "supported",
                                          6 * cells, 6 * kMaxCells));
}

/// A flat blade one cell thick in y, growing outward in direction `d` from the plane at distance
/// `base` from the stem axis: ring i spans [base + i, base + i + 1] outward and the cells
/// −w(i) … w(i) − 1 across.
void add_blade(Part& part, Direction d, int base, int y, const std::vector<int>& half_widths) {
  const int across = d.axis == 0 ? 2 : 0;
  for (std::size_t i = 0; i < half_widths.size(); ++i) {
    const int ring = static_cast<int>(i);
    const int outward = d.sign > 0 ? base + ring : -base - ring - 1;
    for (int k = -half_widths[i]; k < half_widths[i]; ++k) {
      LatticePoint cell{};
      cell[static_cast<std::size_t>(d.axis)] = outward;
      cell[static_cast<std::size_t>(across)] = k;
      cell[1] = y;
      part.cells.push_back(cell);
    }
  }
}

using lattice::add_box;

/// Leaf outline: narrow at the stalk and the tip, `half_width` in the middle.
std::vector<int> leaf_profile(int length, int half_width) {
  std::vector<int> w(static_cast<std::size_t>(length));
  for (int i = 0; i < length; ++i) {
    const double s = std::sin(std::numbers::pi * (i + 0.5) / length);
    w[static_cast<std::size_t>(i)] = std::max(1, static_cast<int>(std::lround(half_width * s)));
  }
  return w;
}

/// Petal outline: widening away from the bloom, rounded at the tip, and never wider than
/// bloom_half_width − 1 + i at ring i, which keeps neighbouring petals apart (each stays inside
/// its quarter |across| < outward of the plane).
std::vector<int> petal_profile(int length, int half_width, int bloom_half_width) {
  std::vector<int> w(static_cast<std::size_t>(length));
  for (int i = 0; i < length; ++i) {
    const double s = std::sin(std::numbers::pi * (i + 1) / (length + 1));
    const int wanted = static_cast<int>(std::lround(half_width * s));
    w[static_cast<std::size_t>(i)] = std::clamp(wanted, 1, bloom_half_width - 1 + i);
  }
  return w;
}

std::vector<Part> flower_parts(const FlowerParameters& p) {
  const int a = p.stem_half_width;
  const int h = p.segment_height;
  const int b = p.bloom_half_width;
  std::vector<Part> parts;
  for (int s = 0; s < p.segments; ++s) {
    Part stem{fmt::format("stem{}", s), s - 1, {}};
    add_box(stem.cells, {-a, s * h, -a}, {a, (s + 1) * h, a});
    parts.push_back(std::move(stem));
  }
  // Leaf i sits on segment s = i mod segments, in slot j = i / segments of it: slots 0 and 1 are
  // opposite sides along x for even s (z for odd s), slots 2 and 3 the other two sides. A segment
  // with at most 2 leaves holds them at half its height; with 3 or 4, slots 0–1 sit one cell below
  // and slots 2–3 one cell above, so that the two pairs never touch.
  const std::vector<int> leaf = leaf_profile(p.leaf_length, p.leaf_half_width);
  constexpr std::array<int, 4> kSlotDirections = {0, 2, 1, 3};
  for (int i = 0; i < p.leaves; ++i) {
    const int s = i % p.segments;
    const int slot = i / p.segments;
    const int on_segment = p.leaves / p.segments + (s < p.leaves % p.segments ? 1 : 0);
    const int y = s * h + h / 2 + (on_segment <= 2 ? 0 : slot < 2 ? -1 : 1);
    Part part{fmt::format("leaf{}", i), s, {}};
    add_blade(part,
              kDirections[static_cast<std::size_t>(
                  (s + kSlotDirections[static_cast<std::size_t>(slot)]) % 4)],
              a, y, leaf);
    parts.push_back(std::move(part));
  }
  const int top = p.segments * h;
  const int bloom = static_cast<int>(parts.size());
  Part head{"bloom", p.segments - 1, {}};
  add_box(head.cells, {-b, top, -b}, {b, top + p.bloom_height, b});
  parts.push_back(std::move(head));
  // Petals in the top layer of the bloom: +x, −x, +z, −z.
  const std::vector<int> petal = petal_profile(p.petal_length, p.petal_half_width, b);
  constexpr std::array<int, 4> kPetalDirections = {0, 2, 1, 3};
  for (int j = 0; j < p.petals; ++j) {
    Part part{fmt::format("petal{}", j), bloom, {}};
    add_blade(part,
              kDirections[static_cast<std::size_t>(kPetalDirections[static_cast<std::size_t>(j)])],
              b, top + p.bloom_height - 1, petal);
    parts.push_back(std::move(part));
  }
  return parts;
}

}  // namespace

TetMesh generate_flower(const FlowerParameters& p, std::vector<Index>* fixed_vertices) {
  validate(p);
  const std::vector<Part> parts = flower_parts(p);

  lattice::check_parts(parts, "flower");  // no overlaps, tree-shaped planar interfaces

  // Vertices in (y, z, x) order of their lattice point: the base comes first.
  std::vector<LatticePoint> points;
  TetMesh mesh = lattice::lattice_mesh(parts, p.cell_size, p.material, &points);
  const double cell = p.cell_size;
  // Leaves and petals curl upwards: y += f(ρ) = curl · max(0, ρ − ρ₀)², ρ the distance from the
  // stem axis. ρ₀ = √2 · bloom_half_width · cell_size leaves the stem, the bloom and every
  // interface flat. Each tet of the cell split has two vertices on one vertical line (one step of
  // its path is along y), so a shear y += f(x, z) moves its four vertices like an affine map of
  // determinant 1: volumes, orientation and conformity are exactly kept. The slope f′ = 2 curl
  // (ρ − ρ₀) is limited to 2 so that the tets stay well shaped.
  const double rho0 = std::numbers::sqrt2 * p.bloom_half_width * cell;
  double rho_max = 0;
  for (const LatticePoint& point : points)
    rho_max = std::max(rho_max, std::hypot(point[0] * cell, point[2] * cell));
  const double slope = 2 * p.curl * std::max(0.0, rho_max - rho0);
  require(slope <= 2, fmt::format("curl = {} is too strong: the tips would rise at slope {:.3g} "
                                  "(at most 2, i.e. curl ≤ {:.3g} for these sizes)",
                                  p.curl, slope, 1 / std::max(rho_max - rho0, 1e-300)));
  if (fixed_vertices != nullptr) fixed_vertices->clear();
  for (std::size_t k = 0; k < points.size(); ++k) {
    const auto index = static_cast<Index>(k);
    const double rho = std::hypot(points[k][0] * cell, points[k][2] * cell);
    if (rho > rho0) mesh.vertices(index, 1) += p.curl * (rho - rho0) * (rho - rho0);
    if (points[k][1] == 0 && fixed_vertices != nullptr) fixed_vertices->push_back(index);
  }
  return mesh;
}

}  // namespace substruct
