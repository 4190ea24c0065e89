// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Tets filling a triangle surface's inside on a grid of cubes, for surfaces a tet mesher
/// refuses: ones that cross themselves, overlap or have duplicate triangles.
#include <array>
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

struct VoxelMeshReport {
  double cell = 0;          // the cubes' side [model units]
  Index inside_cells = 0;   // cubes whose centre is inside
  Index kept_cells = 0;     // those of the largest face-connected piece
  int dims[3] = {0, 0, 0};  // the grid, cubes along x, y, z
};

/// A cube is inside when its centre is: an odd number of the surface's crossings lie on the
/// ray from it along +x (crossings closer than 1e-9 cube apart counted once, so duplicate and
/// overlapping triangles do not cancel). The grid has `cells` cubes across the longest side of
/// the surface's box; the largest face-connected piece of inside cubes is kept (the others are
/// counted in the report), each cube split into six tets (hex_split.hpp), so the mesh is
/// conforming. Throws Error when no cube is inside.
TetMesh voxelize_surface(const SurfaceMesh& surface, int cells, VoxelMeshReport* report = nullptr);

/// Whether the centre of each cube of a grid (cubes of side `cell` from corner `origin`, `dims`
/// along x, y, z) is inside `surface` by the ray parity of voxelize_surface; x fastest, then y.
std::vector<char> cube_centres_inside(const SurfaceMesh& surface, const Vec3& origin, double cell,
                                      const std::array<long, 3>& dims);

}  // namespace substruct
