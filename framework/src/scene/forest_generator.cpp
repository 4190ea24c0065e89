// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/forest_generator.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "detail/plant_layout.hpp"
#include "substruct/core/error.hpp"

namespace substruct {

using plants::Placement;
using plants::Point;

namespace {

void require(bool condition, const std::string& what) {
  if (!condition) throw Error("forest: " + what);
}

int round_up_even(int v) {
  return v % 2 == 0 ? v : v + 1;
}

// The half-extent in x and z of a plant standing at the origin [cells].
int crown_radius(const plants::Plant& plant) {
  std::vector<plants::Node> nodes;
  plants::add_plant(plant, -1, Placement{}, 0, "", nodes);
  int radius = 0;
  for (const plants::Node& n : nodes)
    for (const Point& c : n.shape->cells) {
      const Point w = n.placement.apply_to_cell(c);
      radius = std::max(
          {radius, std::abs(w[0]), std::abs(w[0] + 1), std::abs(w[2]), std::abs(w[2] + 1)});
    }
  return radius;
}

// Cells ordered as lattice::add_box appends them: y, then z, then x.
struct CellOrder {
  bool operator()(const Point& a, const Point& b) const {
    return std::tie(a[1], a[2], a[0]) < std::tie(b[1], b[2], b[0]);
  }
};

void add_box(std::set<Point, CellOrder>& cells, const Point& lo, const Point& hi) {
  for (int y = lo[1]; y < hi[1]; ++y)
    for (int z = lo[2]; z < hi[2]; ++z)
      for (int x = lo[0]; x < hi[0]; ++x) cells.insert({x, y, z});
}

}  // namespace

std::vector<TreeParameters> forest_species() {
  return {
      TreeParameters{.branches = 8, .levels = 2, .sub_branches = 3, .leaves_per_branch = 4},
      TreeParameters{
          .branches = 8, .levels = 1, .leaves_per_branch = 4, .trunk_base = 4, .leaf_length = 2},
      TreeParameters{
          .branches = 4, .levels = 2, .sub_branches = 2, .leaves_per_branch = 2, .trunk_base = 2},
  };
}

TreeParameters forest_species(const std::string& name) {
  const std::vector<TreeParameters> three = forest_species();
  if (name == "broadleaf") return three[0];
  if (name == "conifer") return three[1];
  if (name == "bush") return three[2];
  if (name == "fir") return TreeParameters{.branches = 587, .levels = 2, .leaves_per_branch = 14};
  throw Error(
      fmt::format("forest: unknown species '{}' (species: broadleaf, conifer, bush, fir; or, "
                  "to generate forest --species, a count: 1, 2 or 3)",
                  name));
}

TetMesh generate_forest(const ForestParameters& p, std::vector<Index>* fixed_vertices,
                        ForestSummary* summary) {
  require(p.plants >= 1 && p.plants <= 10000,
          fmt::format("plants must be in [1, 10000], found {}", p.plants));
  require(p.variation >= 0 && p.variation <= 1,
          fmt::format("variation must be in [0, 1], found {}", p.variation));
  require(p.ground_thickness >= 2 && p.ground_thickness % 2 == 0,
          fmt::format("ground_thickness must be even and ≥ 2, found {}", p.ground_thickness));
  require(p.gap >= 2 && p.gap <= 10000, fmt::format("gap must be in [2, 10000], found {}", p.gap));
  std::vector<TreeParameters> species = p.species.empty() ? forest_species() : p.species;
  for (TreeParameters& s : species) {  // one lattice and one material
    s.cell_size = species.front().cell_size;
    s.material = species.front().material;
  }

  // Each plant's shape: its species', or (a varied plant) a few branches more or fewer and
  // leaves a cell longer or not. Plants of one shape share one layout.
  std::mt19937 random(p.seed);
  std::map<std::tuple<std::size_t, int, int>, std::size_t> layout_of;
  std::vector<plants::Plant> layouts;
  std::vector<std::size_t> plant_layout;
  ForestSummary counts;
  counts.plants_per_species.assign(species.size(), 0);
  for (int i = 0; i < p.plants; ++i) {
    const std::size_t s = static_cast<std::size_t>(i) % species.size();
    ++counts.plants_per_species[s];
    TreeParameters t = species[s];
    const bool varied = double(random() % 1000) < 1000 * p.variation;
    if (varied) {
      constexpr int kBranchChange[] = {-2, -1, 1, 2};
      t.branches = std::max(1, t.branches + kBranchChange[random() % 4]);
      t.leaf_length += static_cast<int>(random() % 2);
      counts.varied += t.branches != species[s].branches || t.leaf_length != species[s].leaf_length;
    }
    const auto key = std::make_tuple(s, t.branches, t.leaf_length);
    auto [it, fresh] = layout_of.emplace(key, layouts.size());
    if (fresh) layouts.push_back(plants::build_plant(t));
    plant_layout.push_back(it->second);
  }
  counts.distinct_plants = static_cast<int>(layouts.size());

  // The grid: square-ish, its pitch the widest crown plus the gap (even: copies split alike).
  int radius = 0;
  long long cells = 0;
  for (std::size_t i = 0; i < plant_layout.size(); ++i) cells += layouts[plant_layout[i]].cells;
  for (const plants::Plant& plant : layouts) radius = std::max(radius, crown_radius(plant));
  const int columns = static_cast<int>(std::ceil(std::sqrt(double(p.plants))));
  const int pitch = round_up_even(2 * radius + p.gap);
  auto origin = [&](int i) { return Point{(i % columns) * pitch, 0, (i / columns) * pitch}; };

  // The ground: a pad under every trunk, strips along the rows and one down the first column.
  const int g = p.ground_thickness;
  std::set<Point, CellOrder> ground_cells;
  int widest_trunk = 0;
  for (const plants::Plant& plant : layouts)
    widest_trunk = std::max(widest_trunk, plant.parameters->trunk_half_width);
  const int pad = widest_trunk + 2;
  const int rows = (p.plants + columns - 1) / columns;
  for (int i = 0; i < p.plants; ++i) {
    const Point o = origin(i);
    add_box(ground_cells, {o[0] - pad, -g, o[2] - pad}, {o[0] + pad, 0, o[2] + pad});
  }
  for (int r = 0; r < rows; ++r) {
    const int last = std::min(p.plants, (r + 1) * columns) - 1;
    add_box(ground_cells, {0, -g, r * pitch - 1}, {origin(last)[0] + 1, 0, r * pitch + 1});
  }
  add_box(ground_cells, {-1, -g, 0}, {1, 0, (rows - 1) * pitch + 1});
  plants::Shape ground;
  ground.cells.assign(ground_cells.begin(), ground_cells.end());
  cells += static_cast<long long>(ground.cells.size());
  require(6 * cells <= plants::kMaxTets,
          fmt::format("these parameters make {} tetrahedra; at most {} are supported", 6 * cells,
                      plants::kMaxTets));
  plants::triangulate(ground);

  std::vector<plants::Node> nodes;
  nodes.push_back({&ground, -1, 0, Placement{}, "ground"});
  const int width = plants::digits(p.plants - 1);
  for (int i = 0; i < p.plants; ++i)
    plants::add_plant(layouts[plant_layout[static_cast<std::size_t>(i)]], 0,
                      Placement{0, origin(i)}, 1, fmt::format("p{:0{}}_", i, width), nodes);
  // The ground is the thesis's virtual rigid root (§4.2): every vertex of it is fixed, so that it
  // has no basis to compute (a wide slab's lowest modes are clustered: a large forest's ground
  // made an eigenproblem of 78k DOFs that did not converge) and no method moves it.
  TetMesh mesh = plants::assemble(
      nodes, species.front().cell_size, species.front().material, "forest",
      [](int node, const Point&) { return node == 0; }, fixed_vertices);
  if (summary != nullptr) {
    *summary = counts;
    summary->domains = static_cast<int>(nodes.size());
  }
  return mesh;
}

}  // namespace substruct
