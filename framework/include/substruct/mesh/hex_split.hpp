// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Splitting hexahedra (Vega CUBIC elements, VTK cell types 11 and 12, voxels) into tetrahedra
/// so that neighbouring hexahedra meet on the same triangles.
///
/// Each quadrilateral face is cut by the diagonal through its vertex of smallest global index, a
/// choice that depends on the face alone, so the two hexahedra sharing a face cut it alike. The
/// hexahedron's vertex of smallest index m lies on three faces, whose diagonals all pass through
/// m; the hexahedron is the cone from m over the other three faces, two triangles each: 6 tets.
#include <array>
#include <optional>
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

/// The vertex order of a hexahedron: the bottom face 0 1 2 3 counter-clockwise seen from above,
/// the top face 4 5 6 7 above it (Vega's CUBIC and VTK_HEXAHEDRON alike).
using Hexahedron = std::array<Index, 8>;
using SixTets = std::array<std::array<Index, 4>, 6>;

/// A VTK_VOXEL (cell type 11: vertices in x-fastest lattice order) in hexahedron order.
Hexahedron hexahedron_of_voxel(const Hexahedron& voxel);

/// The six positively oriented tets of `hex` (xyz: the flat coordinates x0 y0 z0 x1 …). A
/// hexahedron given in the mirrored order (top face first) is split as well. Nullopt when the
/// six tets do not all have the same orientation, or one has no volume: the hexahedron is not
/// convex, or its vertices are not in hexahedron order.
std::optional<SixTets> split_hexahedron(const std::vector<double>& xyz, const Hexahedron& hex);

}  // namespace substruct
