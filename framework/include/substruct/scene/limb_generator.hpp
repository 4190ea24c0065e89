// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A limb with two rigid bones inside a soft body: the hybrid Armadillo leg of Yang et al. 2010
/// (Fig. 1, 6) as a box that a generator can make.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// The box [0, length] × [−thickness/2, thickness/2]² in cells_x × cells × cells box cells
/// (generate_bar's mesh), clamped at the hip x = 0. Two bones, thigh and shin, fill the core
/// cells (the cross-section's cells bone_cells from the middle) of cell layers
/// [thigh_begin, thigh_end) and [shin_begin, shin_end); the soft flesh fills the rest, so the
/// bones float inside it, joined through the flesh at the hip, the knee and the foot.
///
/// Defaults: 1 m × 0.2 m × 0.2 m in 20 × 4 × 4 cells (1,920 tets), bones of 2 × 2 core cells in
/// layers [2, 9) and [11, 18). Flesh E = 0.3 MPa, ν = 0.4, ρ = 1000 kg/m³; bones 1000 × stiffer.
struct LimbParameters {
  double length = 1.0;
  double thickness = 0.2;
  int cells_x = 20;
  int cells = 4;       // across, along y and z
  int bone_cells = 2;  // across the bones, ≤ cells − 2 and of the parity of cells (centred)
  int thigh_begin = 2, thigh_end = 9;
  int shin_begin = 11, shin_end = 18;
  Material flesh{"flesh", 1000.0, 3.0e5, 0.4};
  double bone_stiffness_ratio = 1000;  // E of the bones' materials / E of the flesh
};

/// The mesh with element sets "bone0" (thigh), "bone1" (shin) and "flesh" — so that `[scene]
/// domains = sets` makes them domains 0, 1, 2 — and materials[0] the flesh, materials[1] "bone0"
/// and [2] "bone1" (the bones' material, E · bone_stiffness_ratio, ρ and ν of the flesh).
/// `fixed_vertices` receives the hip face x = 0, `foot` the four corners of the face x = length
/// (both sorted). Throws Error when the bones do not fit strictly inside the flesh (each side
/// keeps at least one cell of flesh) or overlap.
TetMesh generate_limb(const LimbParameters& parameters,
                      std::vector<Index>* fixed_vertices = nullptr,
                      std::vector<Index>* foot = nullptr);

}  // namespace substruct
