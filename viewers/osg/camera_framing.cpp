// SPDX-License-Identifier: GPL-3.0-or-later
#include "camera_framing.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

namespace substruct::viewer {

CameraPose frame_box(const Vec3& center, const Vec3& extent, const Vec3& gravity, double aspect,
                     double fovy) {
  Vec3 up = gravity.norm() > 0 ? Vec3(-gravity.normalized()) : Vec3::UnitY();
  Eigen::Index up_axis = 0;
  up.cwiseAbs().maxCoeff(&up_axis);
  // The view axis: of the two axes other than up's, the one along which the box is thinnest.
  const Eigen::Index a = (up_axis + 1) % 3, b = (up_axis + 2) % 3;
  const Eigen::Index view_axis = extent[a] <= extent[b] ? a : b;
  const Eigen::Index side_axis = view_axis == a ? b : a;
  // From the centre towards the eye: a three-quarter view, from above.
  const Vec3 back = (Vec3::Unit(view_axis) + 0.3 * Vec3::Unit(side_axis) + 0.45 * up).normalized();
  const Vec3 right = up.cross(back).normalized();
  const Vec3 true_up = back.cross(right);
  // Half-extents of the box seen along `back`.
  const Vec3 h = 0.5 * extent;
  const auto half = [&](const Vec3& axis) {
    return std::abs(axis.x()) * h.x() + std::abs(axis.y()) * h.y() + std::abs(axis.z()) * h.z();
  };
  const double t = std::tan(0.5 * fovy * M_PI / 180);
  const double distance =
      1.15 * std::max(half(true_up) / t, half(right) / (t * aspect)) + half(back);
  const Vec3 eye = center + distance * back;
  return {{eye.x(), eye.y(), eye.z()},
          {center.x(), center.y(), center.z()},
          {true_up.x(), true_up.y(), true_up.z()}};
}

}  // namespace substruct::viewer
