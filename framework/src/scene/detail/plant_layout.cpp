// SPDX-License-Identifier: GPL-3.0-or-later
#include "plant_layout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::plants {

void require(bool condition, const std::string& what) {
  if (!condition) throw Error("tree: " + what);
}

void triangulate(Shape& shape) {
  lattice::Triangulation t = lattice::triangulate(shape.cells);
  shape.vertices = std::move(t.points);
  shape.tets = std::move(t.tets);
}

using lattice::add_box;

static int round_up_even(int v) {
  return v % 2 == 0 ? v : v + 1;
}

class ShapeBuilder {
 public:
  explicit ShapeBuilder(const TreeParameters& p) : p_(p) {
    Shape leaf;
    leaf.is_leaf = true;
    add_box(leaf.cells, {0, 0, 0}, {p.leaf_length, 1, p.leaf_width});
    leaf.width = p.leaf_width;
    leaf.x_max = p.leaf_length;
    leaf.z_hi = p.leaf_width;
    leaf.subtree_cells = static_cast<long long>(leaf.cells.size());
    triangulate(leaf);
    shapes_.push_back(std::move(leaf));
  }

  int leaf() const { return 0; }
  const std::vector<Shape>& shapes() const { return shapes_; }
  const Shape& operator[](int i) const { return shapes_[static_cast<std::size_t>(i)]; }

  /// A branch of `level` with `descendants` branches below it; its first slot starts at x ≥ off.
  int branch(int level, int descendants, int off) {
    std::vector<int> items;
    if (level < p_.levels && descendants > 0) {
      const int k = std::min(p_.sub_branches, descendants);
      const int rest = descendants - k;
      for (int j = 0; j < k; ++j)
        items.push_back(branch(level + 1, rest / k + (j < rest % k ? 1 : 0), 1));
    }
    for (int j = 0; j < p_.leaves_per_branch; ++j) items.push_back(leaf());
    return branch_with(items, off);
  }

  /// The z extents of the subtree of branch(level, descendants, ·) (they do not depend on off).
  std::pair<int, int> z_extents(int level, int descendants) {
    const Shape& s = shapes_[static_cast<std::size_t>(branch(level, descendants, 1))];
    return {s.z_lo, s.z_hi};
  }

 private:
  /// Items alternate between the +z side (even i) and the −z side (odd i), two per slot.
  int branch_with(const std::vector<int>& items, int off) {
    std::vector<int> key = items;
    key.push_back(off);
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;

    Shape s;
    s.subtree_cells = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Shape& item = shapes_[static_cast<std::size_t>(items[i])];
      if (i % 2 == 0)
        s.z_hi = std::max(s.z_hi, kBranchWidth + item.x_max);
      else
        s.z_lo = std::min(s.z_lo, -item.x_max);
    }
    // Slot j starts its items' base faces at x = start (even). An item on +z at start covers
    // x ∈ [start + w − z_hi, start + w − z_lo] of this frame, one on −z x ∈ [start + z_lo,
    // start + z_hi]; consecutive slots leave a cell between their items' subtrees.
    int need = off;
    int end = 0;
    s.x_max = 0;
    for (std::size_t first = 0; first < items.size(); first += 2) {
      int lo = 0;
      int hi = 0;
      int width = 0;
      for (std::size_t i = first; i < std::min(items.size(), first + 2); ++i) {
        const Shape& item = shapes_[static_cast<std::size_t>(items[i])];
        const int a = i % 2 == 0 ? item.width - item.z_hi : item.z_lo;
        const int b = i % 2 == 0 ? item.width - item.z_lo : item.z_hi;
        lo = std::min(lo, a);
        hi = std::max(hi, b);
        width = std::max(width, item.width);
      }
      const int start = round_up_even(need - lo);
      for (std::size_t i = first; i < std::min(items.size(), first + 2); ++i) {
        const Shape& item = shapes_[static_cast<std::size_t>(items[i])];
        const Placement placement = i % 2 == 0 ? Placement{1, {start + item.width, 0, kBranchWidth}}
                                               // +z side
                                               : Placement{3, {start, 0, 0}};  // −z side
        s.children.push_back({items[i], placement});
        s.subtree_cells += item.subtree_cells;
      }
      need = start + hi + 1;
      end = start + width;
      s.x_max = std::max(s.x_max, start + hi);
    }
    const int length = std::max(4, round_up_even(end + 1));
    s.x_max = std::max(s.x_max, length);
    add_box(s.cells, {0, 0, 0}, {length, kBranchWidth, kBranchWidth});
    s.subtree_cells += static_cast<long long>(s.cells.size());
    triangulate(s);
    shapes_.push_back(std::move(s));
    const int id = static_cast<int>(shapes_.size()) - 1;
    memo_.emplace(std::move(key), id);
    return id;
  }

  const TreeParameters& p_;
  std::vector<Shape> shapes_;
  std::map<std::vector<int>, int> memo_;
};

static void validate(const TreeParameters& p) {
  const auto in_range = [&](int value, int lo, int hi, const char* name) {
    require(value >= lo && value <= hi,
            fmt::format("{} must be in [{}, {}], found {}", name, lo, hi, value));
  };
  in_range(p.branches, 1, 100000, "branches");
  in_range(p.levels, 1, 8, "levels");
  in_range(p.sub_branches, 1, 100, "sub_branches");
  in_range(p.leaves_per_branch, 0, 10000, "leaves_per_branch");
  require(std::isfinite(p.cell_size) && p.cell_size > 0,
          fmt::format("cell_size must be a positive length, found {}", p.cell_size));
  in_range(p.trunk_half_width, 2, 10000, "trunk_half_width");
  require(p.trunk_half_width % 2 == 0,
          fmt::format("trunk_half_width must be even, found {}", p.trunk_half_width));
  in_range(p.trunk_base, 2, 100000, "trunk_base");
  require(p.trunk_base % 2 == 0, fmt::format("trunk_base must be even, found {}", p.trunk_base));
  in_range(p.leaf_length, 1, 10000, "leaf_length");
  in_range(p.leaf_width, 2, 10000, "leaf_width");
  require(p.leaf_width % 2 == 0, fmt::format("leaf_width must be even, found {}", p.leaf_width));
  const Material& m = p.material;
  require(m.youngs_modulus > 0 && m.density > 0 && m.poisson_ratio > -1 && m.poisson_ratio < 0.5,
          fmt::format("material '{}': expected E > 0, ρ > 0 and −1 < ν < 0.5, found E = {}, "
                      "ρ = {}, ν = {}",
                      m.name, m.youngs_modulus, m.density, m.poisson_ratio));
}

static std::uint64_t pack(const Point& p) {
  constexpr int kOffset = 1 << 20;
  for (int v : p)
    require(v > -kOffset && v < kOffset,
            "the tree is too large for the lattice (2^20 cells a side)");
  return (static_cast<std::uint64_t>(p[0] + kOffset) << 42) |
         (static_cast<std::uint64_t>(p[1] + kOffset) << 21) |
         static_cast<std::uint64_t>(p[2] + kOffset);
}

int digits(int n) {
  int d = 1;
  for (; n >= 10; n /= 10) ++d;
  return d;
}

Plant::Plant() = default;
Plant::Plant(Plant&&) noexcept = default;
Plant::~Plant() = default;

const Shape& Plant::shape(int id) const {
  return (*builder)[id];
}

Plant build_plant(const TreeParameters& p) {
  validate(p);
  Plant plant;
  plant.parameters = std::make_unique<TreeParameters>(p);
  plant.builder = std::make_unique<ShapeBuilder>(*plant.parameters);
  ShapeBuilder& builder = *plant.builder;

  // Branches shared out breadth-first: n₁ level-1 branches, each with m_i descendants.
  long long capacity = 0;
  for (long long level = 0, power = 1; level < p.levels; ++level, power *= p.sub_branches) {
    capacity += power;
    if (capacity >= p.branches) break;  // enough room; avoids overflow for deep trees
  }
  const int n1 = static_cast<int>((p.branches + capacity - 1) / capacity);
  const int rest = p.branches - n1;
  std::vector<int> descendants(static_cast<std::size_t>(n1));
  for (int i = 0; i < n1; ++i)
    descendants[static_cast<std::size_t>(i)] = rest / n1 + (i < rest % n1 ? 1 : 0);

  // Level-1 branches start their slots far enough out that neighbouring branches of a whorl
  // (a quarter turn apart) never reach each other: past the trunk by min(−z_lo, z_hi) + 1.
  int z_lo = 0;
  int z_hi = kBranchWidth;
  for (int m : descendants) {
    const auto [lo, hi] = builder.z_extents(1, m);
    z_lo = std::min(z_lo, lo);
    z_hi = std::max(z_hi, hi);
  }
  const int T = p.trunk_half_width;
  const int off = std::max(1, std::min(-z_lo, z_hi) + 1 - T);
  std::vector<int> level1(static_cast<std::size_t>(n1));
  for (int i = 0; i < n1; ++i)
    level1[static_cast<std::size_t>(i)] =
        builder.branch(1, descendants[static_cast<std::size_t>(i)], off);

  // The trunk: whorl w at y = trunk_base + 4w, branch i of it turned i quarter turns.
  const int whorls = (n1 + 3) / 4;
  const int height = p.trunk_base + kWhorlStep * (whorls - 1) + kWhorlStep;
  Shape& trunk = plant.trunk;
  add_box(trunk.cells, {-T, 0, -T}, {T, height, T});
  for (int i = 0; i < n1; ++i) {
    const int turns = i % 4;
    const Point t = lattice::turn(turns, {T, p.trunk_base + kWhorlStep * (i / 4), 0});
    trunk.children.push_back({level1[static_cast<std::size_t>(i)], Placement{turns, t}});
  }
  plant.cells = static_cast<long long>(trunk.cells.size());
  for (const Shape::Child& c : trunk.children) plant.cells += builder[c.shape].subtree_cells;
  triangulate(trunk);
  return plant;
}

PlantCounts add_plant(const Plant& plant, int parent, const Placement& at, int depth,
                      const std::string& prefix, std::vector<Node>& nodes) {
  PlantCounts counts;
  const std::size_t first = nodes.size();
  nodes.push_back({&plant.trunk, parent, depth, at, prefix + "trunk"});
  for (std::size_t i = first; i < nodes.size(); ++i) {
    for (const Shape::Child& c : nodes[i].shape->children) {
      const Shape& shape = plant.shape(c.shape);
      const Placement placement = nodes[i].placement.after(c.placement);
      require(placement.keeps_split(),
              "a part is placed off the split's symmetry (internal error: please report the "
              "parameters)");
      const int d = nodes[i].depth + 1;
      nodes.push_back({&shape, static_cast<int>(i), d, placement, ""});
      counts.depth = std::max(counts.depth, d - depth);
      if (shape.is_leaf) {
        ++counts.leaves;
      } else {
        ++counts.branches;
        counts.shapes_used.push_back(c.shape);
        if (counts.branches_per_level.size() < static_cast<std::size_t>(d - depth))
          counts.branches_per_level.resize(static_cast<std::size_t>(d - depth), 0);
        ++counts.branches_per_level[static_cast<std::size_t>(d - depth - 1)];
      }
    }
  }
  int b = 0;
  int l = 0;
  const int bw = digits(std::max(0, counts.branches - 1));
  const int lw = digits(std::max(0, counts.leaves - 1));
  for (std::size_t i = first + 1; i < nodes.size(); ++i)
    nodes[i].name = prefix + (nodes[i].shape->is_leaf ? fmt::format("leaf{:0{}}", l++, lw)
                                                      : fmt::format("branch{:0{}}", b++, bw));
  std::sort(counts.shapes_used.begin(), counts.shapes_used.end());
  counts.shapes_used.erase(std::unique(counts.shapes_used.begin(), counts.shapes_used.end()),
                           counts.shapes_used.end());
  return counts;
}

TetMesh assemble(const std::vector<Node>& nodes, double cell_size, const Material& material,
                 const std::string& what, const std::function<bool(int, const Point&)>& fixed,
                 std::vector<Index>* fixed_vertices) {
  {
    std::vector<lattice::Part> parts(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      parts[i].name = nodes[i].name;
      parts[i].parent = nodes[i].parent;
      parts[i].cells.reserve(nodes[i].shape->cells.size());
      for (const Point& c : nodes[i].shape->cells)
        parts[i].cells.push_back(nodes[i].placement.apply_to_cell(c));
    }
    lattice::check_parts(parts, what);
  }
  std::unordered_map<std::uint64_t, Index> owner;  // then: global id
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (const Point& v : nodes[i].shape->vertices)
      owner[pack(nodes[i].placement.apply(v))] = static_cast<Index>(i);
  TetMesh mesh;
  mesh.vertices.resize(static_cast<Eigen::Index>(owner.size()), 3);
  Index next = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (const Point& v : nodes[i].shape->vertices) {
      const Point w = nodes[i].placement.apply(v);
      Index& slot = owner.at(pack(w));
      if (slot == static_cast<Index>(i)) {
        mesh.vertices.row(next) << w[0] * cell_size, w[1] * cell_size, w[2] * cell_size;
        slot = -1 - next++;  // numbered: stored as −1 − id
      }
    }
  }
  std::vector<std::vector<Index>> ids(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    ids[i].reserve(nodes[i].shape->vertices.size());
    for (const Point& v : nodes[i].shape->vertices) {
      const Point w = nodes[i].placement.apply(v);
      ids[i].push_back(-1 - owner.at(pack(w)));
      if (fixed_vertices != nullptr && fixed(static_cast<int>(i), w))
        fixed_vertices->push_back(ids[i].back());
    }
  }
  if (fixed_vertices != nullptr) {
    std::sort(fixed_vertices->begin(), fixed_vertices->end());
    fixed_vertices->erase(std::unique(fixed_vertices->begin(), fixed_vertices->end()),
                          fixed_vertices->end());
  }

  Index tets = 0;
  for (const Node& n : nodes) tets += static_cast<Index>(n.shape->tets.size());
  mesh.tets.resize(tets, 4);
  mesh.element_material.assign(static_cast<std::size_t>(tets), 0);
  Index e = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    std::vector<Index>& set = mesh.element_sets[nodes[i].name];
    set.reserve(nodes[i].shape->tets.size());
    for (const auto& t : nodes[i].shape->tets) {
      for (std::size_t k = 0; k < 4; ++k)
        mesh.tets(e, static_cast<Eigen::Index>(k)) = ids[i][static_cast<std::size_t>(t[k])];
      set.push_back(e++);
    }
  }
  mesh.materials = {material};
  return mesh;
}

}  // namespace substruct::plants
