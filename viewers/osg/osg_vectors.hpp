// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Eigen vectors as OSG's, and an orthonormal basis of a plane: what the drawn shapes share.
#include <cmath>
#include <utility>

#include <osg/Vec3>

#include "substruct/core/types.hpp"

namespace substruct::viewer {

inline osg::Vec3 to_osg(const Vec3& p) {
  return {float(p.x()), float(p.y()), float(p.z())};
}

/// Unit vectors u, v in the plane with unit normal n, u × v = n.
inline std::pair<Vec3, Vec3> plane_basis(const Vec3& n) {
  const Vec3 helper = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 u = (helper - n.dot(helper) * n).normalized();
  return {u, n.cross(u).normalized()};
}

}  // namespace substruct::viewer
