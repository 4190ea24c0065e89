// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Vertices that no tetrahedron uses: they have no mass and no stiffness, so no solver can move
/// them (a factorization fails on their empty rows, far from the cause).
#include <filesystem>
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// The vertices of `mesh` that no element uses, increasing.
std::vector<Index> unused_vertices(const TetMesh& mesh);

/// Throws Error naming `file`, the first few unused vertices (0-based) and their count when a
/// vertex no element uses is not among `fixed` (sorted; a fixed vertex never moves, so it may be
/// unused).
void require_used_or_fixed(const TetMesh& mesh, const std::vector<Index>& fixed,
                           const std::filesystem::path& file);

}  // namespace substruct
