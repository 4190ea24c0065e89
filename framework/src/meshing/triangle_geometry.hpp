// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Distances and overlaps of single triangles, for the plant import's contact graph (Step 3) and
// its voxels (Step 8): small free functions on plain points.
#include "substruct/core/types.hpp"
#include "substruct/mesh/closest_point.hpp"

namespace substruct::detail {

/// The distance between segments pq and rs (Ericson §5.1.9).
double segment_distance(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& s);

/// Whether segment pq meets triangle abc (closed; a degenerate triangle meets nothing).
bool segment_meets_triangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b,
                            const Vec3& c);

/// The distance between two triangles: 0 when they cross or touch, else the least of the six
/// vertex–triangle and nine edge–edge distances.
double triangle_distance(const Vec3 (&t)[3], const Vec3 (&u)[3]);

/// Whether triangle abc meets the closed axis-aligned box centred at `centre` with half sides
/// `half` (separating axes: the box's 3 axes, the triangle's normal, the 9 edge cross products;
/// Akenine-Möller 2001).
bool triangle_meets_box(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& centre,
                        const Vec3& half);

}  // namespace substruct::detail
