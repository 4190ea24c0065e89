#include "frame_kinematics.hpp"

#include "substruct/kinematics/polar_decomposition_derivative.hpp"

namespace substruct::inertia {

InterfaceKinematics rest_interface(const InterfaceFrameModel& model) {
  InterfaceKinematics k;
  k.x = model.x_hat;
  k.polar = polar_decomposition(model.R_hat);
  k.R = k.polar.R;
  return k;
}

InterfaceKinematics interface_kinematics(const InterfaceFrameModel& model, const Eigen::VectorXd& q,
                                         const Eigen::VectorXd& qdot, const Eigen::VectorXd& qddot,
                                         bool free_alpha) {
  if (model.r() == 0) return rest_interface(model);
  const InterfaceFrameModel::State state = model.evaluate(q, qdot, qddot);  // Eq. 1, 2, 6
  InterfaceKinematics k;
  k.x = state.x;                           // x̂ + â q
  k.v = state.v;                           // â q̇
  k.a = state.a;                           // â q̈
  k.polar = polar_decomposition(state.A);  // A(q) = R S
  k.R = k.polar.R;
  const PolarRotationRates rates = polar_rotation_rates(k.polar, state.A_dot, state.A_ddot);
  k.omega = rates.omega;  // Eq. 7–9
  k.alpha = rates.omega_dot;
  // Eq. 9 is affine in Ä with the linear part of Eq. 7: ω̇ = ω(Ä) + ω̇|_{Ä=0}.
  if (free_alpha) k.alpha_free = rates.omega_dot - polar_angular_velocity(k.polar, state.A_ddot);
  return k;
}

FrameMotion child_frame_motion(const FrameMotion& parent, const InterfaceKinematics& itf) {
  const Vec3& w = parent.omega;
  const Vec3 v = parent.v + w.cross(itf.x) + itf.v;
  const Vec3 a =
      parent.a + parent.alpha.cross(itf.x) + w.cross(w.cross(itf.x)) + 2 * w.cross(itf.v) + itf.a;
  const Vec3 omega = w + itf.omega;
  const Vec3 alpha = parent.alpha + itf.alpha + w.cross(itf.omega);
  const Mat3 Rt = itf.R.transpose();
  return FrameMotion{Rt * v, Rt * omega, Rt * a, Rt * alpha};
}

}  // namespace substruct::inertia
