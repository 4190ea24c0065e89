// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Checks of a mesh's material table before the FEM layer uses it.
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct::detail {

/// Throws Error naming the element or material when element_material does not give every
/// element a valid material index, or a material used by an element has a density that is not
/// positive (when `density` is set) or Young's modulus E ≤ 0 or Poisson's ratio outside (−1, ½)
/// (when `elasticity` is set).
void check_materials(const TetMesh& mesh, bool density, bool elasticity);

}  // namespace substruct::detail
