// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Step 2 of the plant import (Zhao 2014, §4.1): pieces that are copies of one another, up to a
/// rotation, a translation and a uniform scale (replicated leaves, petals, branches).
#include <vector>

#include "substruct/meshing/plant_pieces.hpp"

namespace substruct {

/// For each piece, the first piece of the same type it is a copy of (itself when none): the same
/// numbers of vertices and triangles, and a map x ↦ s R x + t (R a rotation, s > 0) taking every
/// vertex within `tolerance` · (the piece's RMS radius about its centroid) of a vertex of the
/// other, one to one, and every triangle onto a triangle. R is Kabsch's fit of three far-apart
/// vertices to vertices of the other at the same distances from the centroid and from each
/// other (at most 64 such triples tried), else from the principal axes (four proper sign
/// choices). A mirror image is not a copy.
std::vector<int> find_instances(const SurfaceMesh& surface, const std::vector<PlantPiece>& pieces,
                                double tolerance);

}  // namespace substruct
