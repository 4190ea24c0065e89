// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The bar of Huang et al. 2006, Fig. 9: a box beam with a soft half and a stiff half, on which
/// an automatic partition should put more domains in the soft half.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// The box [0, length] × [−height/2, height/2] × [−width/2, width/2] in cells_x × cells_y ×
/// cells_z box cells of 6 tets each (generate_bar's mesh), clamped at x = 0. The half x < length/2
/// is stiff, the half x > length/2 soft: clamped at its stiff end, the stiff half (which carries
/// the largest bending moment) stays nearly straight and the soft half hangs from it, so the
/// deformation gathers in the soft half — where Fig. 9's partition puts its extra domains.
///
/// Defaults: the bar of generate_bar (1 m × 0.1 m × 0.1 m, 24 × 4 × 4 cells, 2,304 tets); soft
/// E = 1 MPa, stiff E = 10 × that, both ν = 0.3, ρ = 1000 kg/m³. Linear beam theory puts the tip
/// (2.5/16 of a uniformly soft bar's qL⁴/(8 E I)) 0.23 m down: the soft half visibly bends.
struct BimaterialBarParameters {
  double length = 1.0;  // along x [m]
  double height = 0.1;  // along y [m]
  double width = 0.1;   // along z [m]
  int cells_x = 24;     // even: the halves are cells_x / 2 cell layers each
  int cells_y = 4;
  int cells_z = 4;
  Material soft{"soft", 1000.0, 1.0e6, 0.3};
  double stiffness_ratio = 10;  // E of the stiff half / E of the soft half (density, ν alike)
};

/// The bar as one conforming tet mesh (generate_bar's numbering) with two materials:
/// materials[0] "stiff" (the soft material's density and ν, its E · stiffness_ratio) and
/// materials[1] the soft material, and two element sets "stiff" (cell layers i <
/// cells_x / 2, at the clamp) and "soft" (the rest), which hold exactly the elements of each
/// material. `fixed_vertices` receives the clamped face x = 0 (sorted); `tip_corners` the four
/// corners of the free end as generate_bar's. Throws Error for non-positive sizes, an odd
/// cells_x, a stiffness ratio ≤ 0 or an invalid material.
TetMesh generate_bimaterial_bar(const BimaterialBarParameters& parameters,
                                std::vector<Index>* fixed_vertices = nullptr,
                                std::vector<Index>* tip_corners = nullptr);

}  // namespace substruct
