// SPDX-License-Identifier: GPL-3.0-or-later
#include "rigid_body.hpp"

#include <cmath>

#include <Eigen/Cholesky>

#include "substruct/kinematics/skew.hpp"

namespace substruct::inertia {

Mat3 rotation_exp(const Vec3& theta) {
  const double angle = theta.norm();
  const Mat3 K = hat(theta);
  if (angle < 1e-8) return Mat3::Identity() + K + 0.5 * K * K;  // Taylor, error O(|θ|³)
  return Mat3::Identity() + (std::sin(angle) / angle) * K +
         ((1 - std::cos(angle)) / (angle * angle)) * K * K;
}

void RigidBody::step(double dt, const Vec3& F, const Vec3& tau) {
  a = F / mass;  // m a = F
  const Mat3 I_w = R * inertia * R.transpose();
  alpha = I_w.ldlt().solve(tau - omega.cross(I_w * omega));  // I_w α = τ − ω × I_w ω
  v += dt * a;
  omega += dt * alpha;
  p += dt * v;
  R = rotation_exp(dt * omega) * R;
}

}  // namespace substruct::inertia
