// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A quality tet mesh of the inside of a closed triangle surface, made with Gmsh's C++ API
/// (Delaunay with boundary recovery, then Gmsh's tet optimisation). Gmsh rather than CGAL's
/// Mesh_3: both are GPL-compatible (Gmsh GPL-2.0-or-later, CGAL GPL-3.0-or-later), and Gmsh is one
/// shared library where Mesh_3's templates would be compiled into substruct.
#include <string>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

struct SolidMeshSettings {
  double max_size = 0;  // the longest tet edge inside [model units]; 0: as the surface's edges
};

/// The tets of `closed`, whose triangles become the mesh's boundary unchanged: its vertices are
/// the mesh's first ones, in the same order (so the surface renders on the mesh exactly), and
/// Gmsh adds vertices inside only. Tets are positively oriented. Throws Error with Gmsh's
/// message when it cannot mesh the surface (check it with first_surface_defect() first).
TetMesh tetrahedralize_surface(const SurfaceMesh& closed, const SolidMeshSettings& settings = {});

/// The shape of a tet mesh's worst elements: the smallest dihedral angle and the largest
/// ratio of circumradius to shortest edge (√6/4 ≈ 0.61 for the regular tet).
struct TetQuality {
  double min_dihedral_degrees = 0;
  double max_radius_edge = 0;
};
TetQuality tet_quality(const TetMesh& mesh);

}  // namespace substruct
