// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The bar of Huang et al. 2006 (Fig. 1, Table 2: 2,205 tets, 3 sub-domains): a long box beam
/// clamped at one end and bent by gravity across its length, cut into equal pieces along it.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// The box [0, length] × [−height/2, height/2] × [−width/2, width/2] (x along the bar) in
/// cells_x × cells_y × cells_z box cells of 6 tets each, clamped at x = 0.
///
/// Defaults: 1 m × 0.1 m × 0.1 m in 24 × 4 × 4 cells: 2,304 tets, 625 vertices, 3 domains of 8
/// cell layers meeting on cross-sections of 25 vertices (the paper's bar: 2,205 tets, 611 nodes,
/// 3 sub-domains, 50 boundary nodes). The material
/// is soft rubber, E = 3 MPa, ν = 0.3, ρ = 1000 kg/m³: under gravity the StVK bar (`full`,
/// rayleigh_mass 2/s) settles with its tip about 0.35 m lower and 0.07 m nearer the clamp — a
/// third of its length, well past small deflections (linear Euler–Bernoulli theory:
/// qL⁴/(8EI) = 1.5 ρ g L⁴ / (E h²) = 0.49 m). A linear elastic model (`--material.model=linear`)
/// moves the tip about as far, 0.38 m, but straight down, stretching the bar instead of bending
/// it round: the artifact of the paper's Fig. 1. ν = 0.3 rather than a rubber-like 0.45 keeps the
/// linear tets' volumetric locking small.
struct BarParameters {
  double length = 1.0;  // along x [m]
  double height = 0.1;  // along y, the direction of gravity in the generated scene [m]
  double width = 0.1;   // along z [m]
  int cells_x = 24;     // cells along the bar, ≥ domains
  int cells_y = 4;      // even cells_y and cells_z keep the bar's symmetry (see generate_bar)
  int cells_z = 4;
  int domains = 3;  // element sets of equal length along x
  Material material{"rubber", 1000.0, 3.0e6, 0.3};
};

/// The bar as one conforming tet mesh with make_box_mesh's vertex and element numbering (vertex
/// of grid point (i, j, k): i + (cells_x + 1)(j + (cells_y + 1) k); elements of cell (i, j, k):
/// 6 (i + cells_x (j + cells_y k)) … + 5), every cell split by the reflected Kuhn split of the
/// flower and tree generators, so that with even cells_y and cells_z the mesh is symmetric
/// under the mirrors y ↦ −y, z ↦ −z and the quarter turns about the x axis; every tet positively
/// oriented, of volume cell / 6; no vertex sets. Cell layer i (0 ≤ i < cells_x) goes to domain ⌊i ·
/// domains / cells_x⌋: element sets "domain0", "domain1", … (zero-padded to the same width when
/// there are more than 10, so that name order is x order), domain 0 at the clamped end, so that
/// `[scene] domains = sets` makes them domains 0, 1, … in order along the bar, each touching the
/// next along a full cross-section of (cells_y + 1)(cells_z + 1) vertices.
///
/// `fixed_vertices` receives the clamped face x = 0 (sorted); `tip_corners` the four corners of
/// the free end x = length, (y, z) = (−,−), (+,−), (−,+), (+,+). Throws Error for non-positive
/// sizes or counts, domains > cells_x or an invalid material.
TetMesh generate_bar(const BarParameters& parameters, std::vector<Index>* fixed_vertices = nullptr,
                     std::vector<Index>* tip_corners = nullptr);

}  // namespace substruct
