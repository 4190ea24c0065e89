// SPDX-License-Identifier: GPL-3.0-or-later
#include "frame_kinematics.hpp"

#include "substruct/kinematics/polar_decomposition_derivative.hpp"

namespace substruct::inertia {

InterfaceKinematics rest_interface(const Vec3& x_hat, const Mat3& R_hat) {
  InterfaceKinematics k;
  k.x = x_hat;
  k.R = polar_decomposition(R_hat).R;
  return k;
}

InterfaceKinematics rest_interface(const InterfaceFrameModel& model) {
  return rest_interface(model.x_hat, model.R_hat);
}

void interface_kinematics(const InterfaceFrameModel::State& state, const Mat3& R, const Vec3& omega,
                          const Vec3& omega_dot, const Eigen::Matrix<double, 3, 9>* omega_map,
                          InterfaceKinematics& k) {
  k.x = state.x;  // x̂ + â q
  k.v = state.v;  // â q̇
  k.a = state.a;  // â q̈
  k.R = R;
  k.omega = omega;  // Eq. 7–9
  k.alpha = omega_dot;
  // Eq. 9 is affine in Ä with the linear part of Eq. 7: ω̇ = ω(Ä) + ω̇|_{Ä=0}.
  k.has_omega_map = omega_map != nullptr;
  if (omega_map) {
    k.omega_map = *omega_map;
    k.alpha_free = omega_dot - *omega_map * state.A_ddot.reshaped();
  } else {
    k.omega_map.setZero();
    k.alpha_free.setZero();
  }
}

InterfaceKinematics interface_kinematics(const InterfaceFrameModel::State& state, bool free_alpha) {
  const PolarDecomposition polar = polar_decomposition(state.A);  // A(q) = R S
  Eigen::Matrix<double, 3, 9> map;
  const PolarRotationRates rates =
      polar_rotation_rates(polar, state.A_dot, state.A_ddot, free_alpha ? &map : nullptr);
  InterfaceKinematics k;
  interface_kinematics(state, polar.R, rates.omega, rates.omega_dot, free_alpha ? &map : nullptr,
                       k);
  return k;
}

InterfaceKinematics interface_kinematics(const InterfaceFrameModel& model, const Eigen::VectorXd& q,
                                         const Eigen::VectorXd& qdot, const Eigen::VectorXd& qddot,
                                         bool free_alpha) {
  if (model.r() == 0) return rest_interface(model);
  return interface_kinematics(model.evaluate(q, qdot, qddot), free_alpha);  // Eq. 1, 2, 6
}

void child_frame_motion(const FrameMotion& parent, const InterfaceKinematics& itf,
                        FrameMotion& out) {
  const Vec3& w = parent.omega;
  const Vec3 v = parent.v + w.cross(itf.x) + itf.v;
  const Vec3 a =
      parent.a + parent.alpha.cross(itf.x) + w.cross(w.cross(itf.x)) + 2 * w.cross(itf.v) + itf.a;
  const Vec3 omega = w + itf.omega;
  const Vec3 alpha = parent.alpha + itf.alpha + w.cross(itf.omega);
  // Written in place (a returned FrameMotion is copied through the stack).
  out.v.noalias() = itf.R.transpose() * v;
  out.omega.noalias() = itf.R.transpose() * omega;
  out.a.noalias() = itf.R.transpose() * a;
  out.alpha.noalias() = itf.R.transpose() * alpha;
}

}  // namespace substruct::inertia
