// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The free-flying root frame: the whole object as one rigid body (Newton–Euler).
#include <Eigen/Geometry>

#include "substruct/core/types.hpp"

namespace substruct::inertia {

/// exp(θ̃) for the rotation vector θ (Rodrigues: I + sin|θ|/|θ| θ̃ + (1 − cos|θ|)/|θ|² θ̃²).
Mat3 rotation_exp(const Vec3& theta);

/// A rigid body with mass m and rest inertia tensor I about its centre of mass (body axes).
/// State in world coordinates: centre of mass p, velocity v, rotation R, angular velocity ω; and
/// the accelerations a, α of the last step.
struct RigidBody {
  double mass = 0;
  Mat3 inertia = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  Vec3 v = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  Vec3 omega = Vec3::Zero();
  Vec3 a = Vec3::Zero();
  Vec3 alpha = Vec3::Zero();

  /// One semi-implicit Euler step under the world force F and torque τ about the centre of mass:
  ///   m a = F,   I_w α + ω × I_w ω = τ  (I_w = R I Rᵀ),
  ///   v ← v + dt a,  ω ← ω + dt α,  p ← p + dt v,  R ← exp(dt ω̃) R.
  /// With `stiffness` K (6×6, symmetric: springs on the displacement (Δp, Δθ) of the step, such
  /// as contacts), the step is linearly implicit in them: F, τ become F − K (dt v₊, dt ω₊),
  ///   (M + dt² K) (v₊, ω₊) = M (v, ω) + dt (F, τ − ω × I_w ω),   M = diag(m I, I_w).
  void step(double dt, const Vec3& F, const Vec3& tau,
            const Eigen::Matrix<double, 6, 6>* stiffness = nullptr);
};

}  // namespace substruct::inertia
