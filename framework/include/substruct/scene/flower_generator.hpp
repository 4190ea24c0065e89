// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A procedural flower for multi-domain examples (after the flower of Barbič–Zhao 2011, §5): a
/// stem of stacked segments, leaves on the stem, a bloom on top and petals around the bloom, one
/// domain each, in one conforming tet mesh.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// Sizes are in lattice cells of edge `cell_size`; y is up, the stem axis is x = z = 0.
struct FlowerParameters {
  int segments = 2;         // stem segments stacked along +y; segment 0 stands on y = 0
  int leaves = 5;           // at most 4 per segment: 0 … 4 · segments
  int petals = 4;           // one per side of the bloom: 0 … 4
  double cell_size = 0.01;  // [m]
  int stem_half_width = 1;  // the stem's cross-section is (2 · this)² cells
  int segment_height = 8;   // ≥ 3; ≥ 5 when a segment holds more than 2 leaves
  int leaf_length = 8;
  int leaf_half_width = 3;   // widest part of a leaf
  int bloom_half_width = 3;  // ≥ max(2, stem_half_width)
  int bloom_height = 2;
  int petal_length = 6;
  int petal_half_width = 4;  // widest part of a petal (limited so that petals never touch)
  double curl = 6.0;  // leaves and petals rise by curl · (ρ − ρ₀)² [1/m], ρ₀ = √2 · bloom
  Material material{"flower", 1000.0, 1.0e7, 0.45};
};

/// The flower as one conforming tet mesh built on a cubic lattice (each cell split into 6
/// positively oriented tets along a diagonal, so that neighbouring cells share faces exactly).
/// The defaults make the paper's 12 domains in a tree of depth 3: stem0 (root) → stem1 → bloom →
/// petals, with 3 leaves on stem0 and 2 on stem1.
///
/// Domains are element sets named "stem0" … (bottom to top), "leaf0" …, "bloom", "petal0" …, so
/// that `[scene] domains = sets` splits it. Domains touch only along planar interfaces of at least
/// 4 vertices and only as in a tree rooted at stem0: stem k on stem k−1, leaf i on stem
/// i mod segments (a segment's first two leaves on opposite sides, along x on even segments and z
/// on odd ones, its third and fourth on the other two sides one layer higher), the bloom on the
/// top segment, the petals on the bloom's sides. Elements are numbered domain by domain in that
/// order; vertices by (y, z, x) of their lattice point.
///
/// `fixed_vertices`, when given, receives the vertices of the base (y = 0), sorted. Deterministic.
/// Throws Error for parameters outside the ranges above.
TetMesh generate_flower(const FlowerParameters& parameters,
                        std::vector<Index>* fixed_vertices = nullptr);

}  // namespace substruct
