// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shapes made of cubic lattice cells, split into tetrahedra: the shared ground of the procedural
// scene generators (flower, tree).
#include <array>
#include <string>
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct::lattice {

/// A lattice point, or the lower corner of a lattice cell, as (x, y, z).
using Point = std::array<int, 3>;

/// The 6 tetrahedra of cell `cell` (its lower corner), each as 4 lattice points in positive
/// orientation. The split is the reflected Kuhn split: the cell's diagonal joins its corner with
/// all coordinates even to its corner with all coordinates odd, and one tet follows each of the 6
/// monotone edge paths between them. Neighbouring cells then split their common face along the
/// same diagonal (the one joining its (even, even) and (odd, odd) corners), so any set of cells
/// gives a conforming mesh; and the split is invariant under every map x ↦ S x + t with S a signed
/// permutation and t ∈ 2ℤ³ ∪ (1, 1, 1) + 2ℤ³ (Placement::keeps_split), so that rotated copies of a
/// shape are split alike. Every tet has one edge along y, two of its vertices on one vertical
/// line. The order (tets and their vertices) is a fixed function of the cell's parity.
std::array<std::array<Point, 4>, 6> cell_tets(const Point& cell);

/// A quarter turn about the vertical (y) axis followed by a translation: x ↦ R_k x + t, where R_k
/// turns +x towards +z k times (R_1: +x → +z, +z → −x).
struct Placement {
  int turns = 0;  // 0 … 3
  Point translation{0, 0, 0};

  Point apply(const Point& p) const;
  /// The image of the cell with lower corner `cell` (its lower corner).
  Point apply_to_cell(const Point& cell) const;
  /// First `inner`, then this.
  Placement after(const Placement& inner) const;
  /// Whether the map keeps cell_tets' split: t all even or all odd.
  bool keeps_split() const;
};

/// R_k applied to a direction (no translation).
Point turn(int turns, const Point& v);

/// One domain of a lattice shape: its cells and the domain it grows from (−1 for the root).
struct Part {
  std::string name;
  int parent = -1;
  std::vector<Point> cells;
};

/// Checks that no two parts share a cell and that parts touch exactly as a tree: every pair of
/// parts sharing a lattice point is a part and its parent, and they share at least 4 points on one
/// lattice plane, not all on one line; and every part but the root touches its parent. Throws
/// Error ("`what`: … (internal error: please report the parameters)") otherwise. O(n log n) in the
/// number of cells.
void check_parts(const std::vector<Part>& parts, const std::string& what);

/// Appends the cells of the box [lo, hi) to `cells`, y outermost, then z, then x.
void add_box(std::vector<Point>& cells, const Point& lo, const Point& hi);

/// The tets of `cells` (cell_tets of each, cells in order) as indices into their lattice points,
/// which are sorted by (y, z, x).
struct Triangulation {
  std::vector<Point> points;
  std::vector<std::array<int, 4>> tets;
};
Triangulation triangulate(const std::vector<Point>& cells);

/// One conforming tet mesh of `parts` (cell_tets of every cell) with lattice unit `cell_size` [m]:
/// vertices in (y, z, x) order of their lattice point at cell_size · point (`points`, when given,
/// receives each vertex's lattice point), elements part by part in cell order, an element set per
/// part named after it, every element of material `material`.
TetMesh lattice_mesh(const std::vector<Part>& parts, double cell_size, const Material& material,
                     std::vector<Point>* points = nullptr);

}  // namespace substruct::lattice
