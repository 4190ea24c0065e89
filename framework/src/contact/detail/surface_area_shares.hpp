// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A surface vertex's share A_v of the boundary's area: a third of each boundary triangle around
// it (0 inside the mesh). The penalty spring of a vertex is k = stiffness × A_v.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct::detail {

std::vector<double> surface_area_shares(const TetMesh& mesh);

}  // namespace substruct::detail
