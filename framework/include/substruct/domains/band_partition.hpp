// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A partition whose domain graph is a tree rooted at the fixed vertices, for the methods that
/// need one (inertia: no loops, one clamped domain): bands of geodesic distance from the clamp,
/// split into connected pieces.
#include <vector>

#include "substruct/domains/element_partition.hpp"

namespace substruct {

/// `[scene] domains = bands:N`:
///  1. every vertex's distance from the fixed vertices along the mesh's edges (Dijkstra);
///  2. each element in band ⌊N d / d_max⌋ (the last band closed), d the mean of its vertices'
///     distances;
///  3. each band split into face-connected pieces; the pieces of band 0 are one domain (the
///     root, holding every fixed vertex's elements);
///  4. until nothing changes: domains that share a vertex and start in the same band are merged,
///     and so are the lower neighbours of a domain when it has more than one; then a domain of
///     fewer than M / (4N) of the M elements joins its lower neighbour.
/// Each domain is then adjacent to at most one domain of a lower band and none of its own, so the
/// graph of domains sharing vertices has no loop: a tree when the mesh is connected. Domains are
/// numbered by their lowest element. Throws Error without fixed vertices, for N < 1, or when
/// some vertex is not connected to the fixed ones.
ElementPartition geodesic_band_partition(const TetMesh& mesh, const std::vector<Index>& fixed,
                                         int bands);

}  // namespace substruct
