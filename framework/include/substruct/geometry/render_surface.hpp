// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// What a viewer draws: the scene's render mesh embedded in the tets, or, without one, the
/// boundary surface of the tet mesh; and its smooth per-vertex normals.
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/geometry/render_embedding.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

struct RenderSurface {
  Triangles triangles;            // over the render vertices, counter-clockwise seen from outside
  RenderEmbedding embedding;      // one row per render vertex
  bool from_render_mesh = false;  // false: the tet mesh's boundary
  bool closed = false;  // closed and consistently oriented: its back faces never show outside

  Index num_vertices() const { return embedding.size(); }
};

/// The faces of `mesh` that belong to one tet only, oriented outwards (counter-clockwise seen
/// from outside), over the volumetric vertex ids.
Triangles boundary_triangles(const TetMesh& mesh);

/// `render_mesh` embedded in the tets of `mesh` (render_embedding.hpp), or, when it is null, the
/// tet boundary (each of its vertices embedded with weight 1 on itself).
RenderSurface render_surface(const TetMesh& mesh, const SurfaceMesh* render_mesh);

/// Whether every edge of `triangles` is used exactly once in each direction: the surface is
/// closed and consistently oriented, so that from outside only its front faces can be seen.
bool is_closed_and_oriented(const Triangles& triangles);

/// Smooth per-vertex normals: the area-weighted average of the normals of the triangles around
/// each vertex, normalised (vertices in no triangle get (0, 0, 0)). `normals` is resized.
void vertex_normals(const Points& positions, const Triangles& triangles, Points& normals);

}  // namespace substruct
