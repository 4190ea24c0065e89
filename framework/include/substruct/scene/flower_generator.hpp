#pragma once
/// A procedural flower for multi-domain examples (after the flower of Barbič–Zhao 2011, §5): a
/// stem of stacked segments, leaves on the stem, a bloom on top and petals around the bloom, one
/// domain each, in one conforming tet mesh.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// Sizes are in lattice cells of edge `cell_size`; y is up, the stem axis is x = z = 0.
struct FlowerParameters {
  int segments = 3;         // stem segments stacked along +y; segment 0 stands on y = 0
  int leaves = 4;           // at most 2 per segment above the base: 0 … 2 (segments − 1)
  int petals = 4;           // one per side of the bloom: 0 … 4
  double cell_size = 0.01;  // [m]
  int stem_half_width = 1;  // the stem's cross-section is (2 · this)² cells
  int segment_height = 8;   // ≥ 3
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
/// positively oriented tets along its main diagonal, so neighbouring cells share faces exactly).
///
/// Domains are element sets named "stem0" … (bottom to top), "leaf0" …, "bloom", "petal0" …, so
/// that `[scene] domains = sets` splits it. Domains touch only along planar interfaces of at least
/// 4 vertices and only as in a tree rooted at stem0: stem k on stem k−1, each leaf on a stem
/// segment above the base (pairs on opposite sides, alternating between the x and z sides from one
/// segment to the next), the bloom on the top segment, the petals on the bloom's sides. Elements
/// are numbered domain by domain in that order; vertices by (y, z, x) of their lattice point.
///
/// `fixed_vertices`, when given, receives the vertices of the base (y = 0), sorted. Deterministic.
/// Throws Error for parameters outside the ranges above.
TetMesh generate_flower(const FlowerParameters& parameters,
                        std::vector<Index>* fixed_vertices = nullptr);

}  // namespace substruct
