// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Figures made of boxes of lattice cells, one domain each: generated analogues of the scenes of
/// Wu, Mukherjee, Wang 2015 (Tables 3–4), at sizes a laptop precomputes in seconds.
#include <string_view>
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

enum class FigureShape {
  /// A sheet 40 × 16 units, 1 unit thick, in 5 strips along x (a chain of 5 domains), hung at its
  /// four corners (the corner 1 × 1 unit columns fixed). The paper's: 14K nodes, 42K tets.
  hammock,
  /// A body of 8 segments of 5 × 4 × 4 units along x (a chain of 8 domains), the tail face x = 0
  /// fixed. The paper's: 31K nodes, 98K tets.
  caterpillar,
  /// A torso with a head, two arms and two legs of two segments each, and a tail (11 domains in a
  /// tree rooted at the torso), held at the upper part of its back. The paper's armadillo: 62K
  /// nodes, 241K tets.
  armadillo,
  /// Eight blocks of 4 × 6 × 2 units along x joined by seven links of 2 × 2 × 2 units (15 domains
  /// in a chain of depth 14 from the first block), nothing fixed: the free-flying letters of
  /// Barbič–Zhao 2011 (Table 1's SIGGRAPH: 8 letters, 7 rigid links) when the links are made
  /// rigid ([inertia] rigid_domains = 8 … 14, the links' element sets sorting after the blocks').
  chain,
};

/// E [Pa] that keeps each shape's sag under gravity at a few percent of its size at the default
/// unit (hammock 2·10⁸, caterpillar 10⁸, armadillo and chain 2·10⁶).
double figure_youngs_modulus(FigureShape shape);

/// "hammock", "caterpillar", "armadillo", "chain"; Error for another name.
FigureShape figure_shape(std::string_view name);
std::string_view to_string(FigureShape shape);

struct FigureParameters {
  FigureShape shape = FigureShape::hammock;
  int resolution = 1;  // lattice cells per unit along each axis (1 … 8): resolution³ per unit
  double unit = 0.05;  // [m] of one unit
  Material material{"figure", 1000.0, 2.0e6, 0.45};
};

/// The figure as one conforming tet mesh (y up), its parts the element sets named by shape
/// (strip0…, segment0…, torso/head/arm…/leg…/tail), touching only as a tree along planar
/// interfaces. `fixed_vertices` receives the held vertices (sorted), `tracked` a few vertices
/// worth following (a free corner or tip first). Deterministic. Throws Error for a resolution
/// outside [1, 8] or a non-positive unit.
TetMesh generate_figure(const FigureParameters& parameters,
                        std::vector<Index>* fixed_vertices = nullptr,
                        std::vector<Index>* tracked = nullptr);

}  // namespace substruct
