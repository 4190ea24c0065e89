// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// What of a mesh the cache keys of precomputed data hash.
#include "substruct/core/fnv1a.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// Adds the vertex count and rest positions (bit for bit), the element count and tetrahedra, and
/// each element's material (ρ, E, ν) to `h`. Names and sets do not change what is computed from
/// a mesh and are left out.
void add_mesh_to_hash(Fnv1a& h, const TetMesh& mesh);

}  // namespace substruct
