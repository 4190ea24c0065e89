// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Steps 8–9 of the plant import (Zhao 2014, §4.1): each domain's own volume mesh, voxels of its
/// own triangles split into tets, and its fixed vertices, those in its voxels that are also its
/// parent's. The domains' meshes need not meet: overlapping pieces are meshed apart.
#include <string>
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/meshing/plant_graph.hpp"

namespace substruct {

/// Which cubes of a piece's grid are its volume: `surface`, the cubes its triangles touch and
/// those they enclose (the outside flooded from the grid's border: open and non-manifold
/// pieces whose holes are smaller than a cube are filled, thin ones kept); `shell`, the cubes
/// its triangles touch; `centre`, the cubes whose centre is inside by ray parity (as `import
/// --as voxels`: a closed piece thicker than a cube).
enum class VoxelFill { surface, shell, centre };

struct PlantMeshSettings {
  int cells = 100;  // cubes across the longest side of the plant's box grown 1.2× (the thesis's)
  VoxelFill flexible_fill = VoxelFill::surface;
  VoxelFill rigid_fill = VoxelFill::shell;
  int min_free_vertices = 10;  // an F domain with fewer free vertices is made rigid
};

struct PlantDomain {
  int piece = 0;
  int parent = -1;  // domain id; −1 for the root
  PieceType type = PieceType::flexible;
  Index cells = 0, vertices = 0, tets = 0;
  Index fixed = 0;    // vertices shared with its parent (its fixed vertices)
  std::string notes;  // bridged, made rigid, dropped cubes
};

struct PlantMesh {
  TetMesh mesh;
  std::vector<int> element_domain;   // the domain of each tet
  std::vector<PlantDomain> domains;  // breadth-first: parents before children
  std::vector<std::string> merged;   // pieces merged into their parent, and why
  double cell = 0;                   // the cubes' side
  int dims[3] = {0, 0, 0};           // cubes across the grown box
};

/// One lattice of cubes of side h = 1.2 L / cells (L the longest side of the surface's box) for
/// the whole plant, each piece voxelised on it from its own triangles alone (so a cube can be in
/// several domains) and its cubes split into six tets each (hex_split.hpp), conforming within
/// the domain. Step 9: a child's cubes that are also its parent's have their eight corners
/// welded to the parent's vertices there (its fixed vertices, the interface the coupling sees);
/// a corner already shared by a sibling or with the parent's parent stays the child's own. A
/// child that shares no cube with its parent, or whose shared vertices there would be collinear,
/// gets the shortest face-connected path of cubes (a bridge) to the nearest parent cube with
/// free corners not on one line; one still without, or wholly inside its parent, is merged into
/// the parent. Throws Error naming the piece when its fill leaves no cube.
PlantMesh mesh_plant(const SurfaceMesh& surface, const std::vector<PlantPiece>& pieces,
                     const PlantTree& tree, const PlantMeshSettings& settings);

}  // namespace substruct
