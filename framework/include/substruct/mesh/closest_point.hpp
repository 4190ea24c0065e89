// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The closest point of a triangle to a point: shared by the render mesh's embedding in the tets
/// and the plant import's contact graph.
#include "substruct/core/types.hpp"

namespace substruct {

/// The closest point of triangle abc to p (Ericson, Real-Time Collision Detection, §5.1.5); a
/// degenerate triangle (no area) gives its first vertex.
Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace substruct
