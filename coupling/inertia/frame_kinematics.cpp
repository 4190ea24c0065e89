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

namespace {

// Eq. 7–9 from the interface's centroid, covariance and their rates.
InterfaceKinematics kinematics_of(const InterfaceFrameModel::State& state, bool free_alpha) {
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
  if (free_alpha) {
    k.omega_map = polar_angular_velocity_map(k.polar);
    k.has_omega_map = true;
    k.alpha_free = rates.omega_dot - k.omega_map * state.A_ddot.reshaped();
  }
  return k;
}

}  // namespace

InterfaceKinematics interface_kinematics(const InterfaceFrameModel& model, const Eigen::VectorXd& q,
                                         const Eigen::VectorXd& qdot, const Eigen::VectorXd& qddot,
                                         bool free_alpha) {
  if (model.r() == 0) return rest_interface(model);
  return kinematics_of(model.evaluate(q, qdot, qddot), free_alpha);  // Eq. 1, 2, 6
}

ChildFrameRows::ChildFrameRows(const std::vector<InterfaceFrameModel>& frames) {
  if (frames.empty() || frames.front().r() == 0) return;
  r_ = frames.front().r();
  columns_.resize(12, static_cast<Eigen::Index>(frames.size()) * r_);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const InterfaceFrameModel& f = frames[k];
    auto block = columns_.middleCols(static_cast<Eigen::Index>(k) * r_, r_);
    block.topRows<3>() = f.a_hat;
    block.bottomRows<9>() = f.A_columns;
  }
}

void ChildFrameRows::kinematics(const std::vector<InterfaceFrameModel>& frames,
                                const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                                const Eigen::VectorXd& qddot, bool free_alpha,
                                const std::vector<char>& attached,
                                std::vector<InterfaceKinematics>& out) const {
  if (r_ == 0) {  // a rigid parent: its children's interfaces stay at rest
    for (std::size_t k = 0; k < frames.size(); ++k)
      if (attached[k]) out[k] = rest_interface(frames[k]);
    return;
  }
  for (std::size_t k = 0; k < frames.size(); ++k) {
    if (!attached[k]) continue;
    const InterfaceFrameModel& f = frames[k];
    // Eq. 1, 2, 6: [â; A] [q q̇ q̈] over child k's r columns of 12 contiguous values, the 12×3
    // sums in registers.
    double y[3][12] = {};
    const double* c = columns_.data() + 12 * static_cast<Eigen::Index>(k) * r_;
    for (int l = 0; l < r_; ++l, c += 12) {
      const double a0 = q[l], a1 = qdot[l], a2 = qddot[l];
      for (int i = 0; i < 12; ++i) {
        y[0][i] += a0 * c[i];
        y[1][i] += a1 * c[i];
        y[2][i] += a2 * c[i];
      }
    }
    InterfaceFrameModel::State state;
    state.x = f.x_hat + Eigen::Map<const Vec3>(y[0]);
    state.v = Eigen::Map<const Vec3>(y[1]);
    state.a = Eigen::Map<const Vec3>(y[2]);
    state.A = f.R_hat + Eigen::Map<const Mat3>(y[0] + 3);
    state.A_dot = Eigen::Map<const Mat3>(y[1] + 3);
    state.A_ddot = Eigen::Map<const Mat3>(y[2] + 3);
    out[k] = kinematics_of(state, free_alpha);
  }
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
