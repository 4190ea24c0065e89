// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Whether a triangle surface bounds a solid that a tet mesher can fill.
#include <string>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// The first defect that keeps `surface` from bounding a solid, in words naming the triangles
/// (1-based, in file order) and where they are, with how many such defects there are; empty
/// when there is none. Checked in this order: a triangle without area (repeated vertex, or
/// area ≤ 1e-12 of the squared bounding-box diagonal), two triangles on the same three vertices,
/// an open edge (of one triangle only), a non-manifold edge (of three or more), two neighbours
/// of opposite orientation (an edge run the same way by both), and two triangles that share no
/// vertex and cross (an edge of one passing through the other; found with a uniform grid).
std::string first_surface_defect(const SurfaceMesh& surface);

}  // namespace substruct
