// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The layout of procedural plants on the cubic lattice (detail of the tree and forest
// generators): a plant's part shapes (trunk, branches, leaves) in their own unturned frames, their
// placement as domains, and the conforming tet mesh of placed domains with its vertex numbering,
// which keeps copies of a shape numbered alike (so that instancing finds them).
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lattice.hpp"
#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/scene/tree_generator.hpp"

namespace substruct::plants {

using lattice::Placement;
using lattice::Point;

constexpr int kBranchWidth = 2;  // a branch is 2 × 2 cells across: z ∈ [0, 2], y ∈ [0, 2]
constexpr int kWhorlStep = 4;    // whorls of branches every 4 cells up the trunk
constexpr long long kMaxTets = 24'000'000;  // the fir forest of Zhao 2014 §4.2: 20 × 0.9 M

/// Throws Error("`what`: …") unless `condition`.
void require(bool condition, const std::string& what);

/// A part in its own unturned frame: the trunk (world frame), a branch (along +x from its base
/// face x = 0, z ∈ [0, 2], y ∈ [0, 2]) or a leaf (along +x, z ∈ [0, width], y ∈ [0, 1]); or any
/// box-built part (a forest's ground). Children are placed in this frame. Extents are those of
/// the whole subtree.
struct Shape {
  bool is_leaf = false;
  std::vector<Point> cells;
  struct Child {
    int shape = 0;
    Placement placement;
  };
  std::vector<Child> children;
  int width = kBranchWidth;  // base face along z
  int x_max = 0;             // subtree: 0 ≤ x ≤ x_max
  int z_lo = 0;              // subtree: z_lo ≤ z ≤ z_hi
  int z_hi = kBranchWidth;
  long long subtree_cells = 0;
  // The vertices in (y, z, x) order and the tets as indices into them.
  std::vector<Point> vertices;
  std::vector<std::array<int, 4>> tets;
};

/// Vertices sorted by (y, z, x) and tets of the cells, as local indices.
void triangulate(Shape& shape);

class ShapeBuilder;

/// A tree's shapes and trunk before its domains are placed: every shape lives in the builder.
struct Plant {
  Plant();
  Plant(Plant&&) noexcept;
  ~Plant();
  std::unique_ptr<TreeParameters> parameters;  // the builder keeps a reference
  std::unique_ptr<ShapeBuilder> builder;
  Shape trunk;
  long long cells = 0;  // of the whole tree
  const Shape& shape(int id) const;
};

/// Checks the parameters (Error "tree: …") and lays the tree out.
Plant build_plant(const TreeParameters& p);

/// A domain: a shape placed on the lattice, its parent's index (−1: the root) and its name.
struct Node {
  const Shape* shape;
  int parent;
  int depth;
  Placement placement;
  std::string name;
};

/// What add_plant found.
struct PlantCounts {
  int branches = 0, leaves = 0, depth = 0;
  std::vector<int> branches_per_level;  // level 1 first
  std::vector<int> shapes_used;         // the plant's distinct branch shapes
};

/// Appends the plant's domains breadth-first from its trunk (placed by `at`, at `depth`, a child
/// of node `parent`), named prefix + trunk, branch…, leaf….
PlantCounts add_plant(const Plant& plant, int parent, const Placement& at, int depth,
                      const std::string& prefix, std::vector<Node>& nodes);

/// The mesh of `nodes`: checks that they touch as a tree along planar faces (Error "`what`: …");
/// a vertex shared by a parent and a child belongs to the child (the later domain), each domain
/// numbering the vertices it owns in its own frame's (y, z, x) order; elements node by node, one
/// element set per node. `fixed(node, point)` picks the fixed vertices (sorted into
/// *fixed_vertices).
TetMesh assemble(const std::vector<Node>& nodes, double cell_size, const Material& material,
                 const std::string& what, const std::function<bool(int, const Point&)>& fixed,
                 std::vector<Index>* fixed_vertices);

/// Decimal digits of n ≥ 0 (zero-padded names sort in order).
int digits(int n);

}  // namespace substruct::plants
