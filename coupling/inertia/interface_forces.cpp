#include "interface_forces.hpp"

#include "substruct/kinematics/polar_decomposition_derivative.hpp"
#include "substruct/kinematics/skew.hpp"

namespace substruct::inertia {

void add_interface_force(Lumping lumping, const InterfaceFrameModel& model,
                         const InterfaceKinematics& itf, const FrameMotion& parent,
                         const Subtree& subtree, const Eigen::VectorXd& qdot, Eigen::MatrixXd* M,
                         Eigen::VectorXd& f0) {
  const int r = model.r();
  if (r == 0) return;
  const double m = subtree.mass;
  const Vec3& w = parent.omega;
  if (lumping == Lumping::interface) {
    const auto& a_hat = model.a_hat;
    if (M) M->noalias() += m * (a_hat.transpose() * a_hat);  // M_ij = m̄ âᵀâ
    const Vec3 frame_acc =
        parent.a + parent.alpha.cross(itf.x) + w.cross(w.cross(itf.x)) + 2 * w.cross(itf.v);
    const Vec3 net = subtree.force - m * frame_acc;
    f0.noalias() += a_hat.transpose() * net;  // âᵀ net
    return;
  }
  // L2: J_ω column ℓ = ω of the polar rotation for Ȧ = A^ℓ (Eq. 7 is linear in Ȧ).
  Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, r);
  for (int l = 0; l < r; ++l) J.col(l) = polar_angular_velocity(itf.polar, model.A(l));
  const Vec3 Rd = itf.R * subtree.d;
  J = model.a_hat - hat(Rd) * J;  // J_c = â − (R d)~ J_ω
  const Vec3 c = itf.x + Rd;
  const Vec3 c_dot = J * qdot;
  const Vec3 acc = parent.a + parent.alpha.cross(c) + w.cross(w.cross(c)) + 2 * w.cross(c_dot) +
                   itf.omega.cross(itf.omega.cross(Rd)) + itf.alpha_free.cross(Rd);
  if (M) M->noalias() += m * (J.transpose() * J);
  f0.noalias() += J.transpose() * (subtree.force - m * acc);
}

}  // namespace substruct::inertia
