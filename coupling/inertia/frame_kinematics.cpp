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
                                         const Eigen::VectorXd& qdot,
                                         const Eigen::VectorXd& qddot) {
  if (model.r() == 0) return rest_interface(model);
  InterfaceKinematics k;
  k.x = model.centroid(q);                             // x̂ + â q  (Eq. 1)
  k.v = model.a_hat * qdot;                            // â q̇
  k.a = model.a_hat * qddot;                           // â q̈
  k.polar = polar_decomposition(model.covariance(q));  // A(q) = R S  (Eq. 2)
  k.R = k.polar.R;
  const Mat3 A_dot = model.covariance_rate(qdot);  // Eq. 6
  const Mat3 A_ddot = model.covariance_rate(qddot);
  const PolarRotationRates rates = polar_rotation_rates(k.polar, A_dot, A_ddot);  // Eq. 7–9
  k.omega = rates.omega;
  k.alpha = rates.omega_dot;
  // Eq. 9 is affine in Ä with the linear part of Eq. 7: ω̇ = ω(Ä) + ω̇|_{Ä=0}.
  k.alpha_free = rates.omega_dot - polar_angular_velocity(k.polar, A_ddot);
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
