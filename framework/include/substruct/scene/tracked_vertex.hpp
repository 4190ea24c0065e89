// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The vertex a scene tracks when its `[scene] tracked_vertices` names none: the one whose
/// trajectory the CSV output, the benchmark's accuracy figures and the viewer's panel follow.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// The free vertex farthest from its nearest fixed vertex, the distance measured along the
/// mesh's edges (so that the tip of a curved branch wins over a point across the gap from the
/// clamp): the free tip of a cantilever, the middle of a beam clamped at both ends, the lowest
/// point of a hammock. Vertices that no path of edges joins to a fixed vertex (a loose piece)
/// are taken only when no vertex is joined to one. With nothing fixed: the vertex farthest from
/// the centroid. `fixed` is sorted.
Index default_tracked_vertex(const TetMesh& mesh, const std::vector<Index>& fixed);

}  // namespace substruct
