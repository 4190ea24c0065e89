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

void RigidBody::step(double dt, const Vec3& F, const Vec3& tau,
                     const Eigen::Matrix<double, 6, 6>* stiffness) {
  const Mat3 I_w = R * inertia * R.transpose();
  if (stiffness) {
    Eigen::Matrix<double, 6, 6> A = dt * dt * *stiffness;
    A.topLeftCorner<3, 3>().diagonal().array() += mass;
    A.bottomRightCorner<3, 3>() += I_w;
    Eigen::Matrix<double, 6, 1> b;
    b.head<3>() = mass * v + dt * F;
    b.tail<3>() = I_w * omega + dt * (tau - omega.cross(I_w * omega));
    const Eigen::Matrix<double, 6, 1> w = A.ldlt().solve(b);
    a = (w.head<3>() - v) / dt;
    alpha = (w.tail<3>() - omega) / dt;
  } else {
    a = F / mass;                                              // m a = F
    alpha = I_w.ldlt().solve(tau - omega.cross(I_w * omega));  // I_w α = τ − ω × I_w ω
  }
  v += dt * a;
  omega += dt * alpha;
  p += dt * v;
  R = rotation_exp(dt * omega) * R;
}

}  // namespace substruct::inertia
