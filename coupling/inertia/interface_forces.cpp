// SPDX-License-Identifier: GPL-3.0-or-later
#include "interface_forces.hpp"

#include <cmath>

#include "substruct/core/error.hpp"
#include "substruct/kinematics/interface_frame_columns.hpp"

namespace substruct::inertia {

Vec3 interface_jacobian(Lumping lumping, const FrameColumns& model, const InterfaceKinematics& itf,
                        const FrameMotion& parent, const Subtree& subtree,
                        const Eigen::VectorXd& qdot, double scale,
                        Eigen::Ref<Eigen::Matrix<double, 3, Eigen::Dynamic>> sJ) {
  const double m = subtree.mass;
  const Vec3& w = parent.omega;
  const double* T = model.turn ? model.turn->data() : nullptr;
  Eigen::Vector4d c_dot;  // ċ = J q̇, and a zero
  if (lumping == Lumping::interface) {
    // Eq. 16: J = â
    interface_point_jacobian(model.r, model.columns, T, nullptr, nullptr, qdot.data(), scale,
                             sJ.data(), sJ.outerStride(), c_dot.data());
    const Vec3 frame_acc =
        parent.a + parent.alpha.cross(itf.x) + w.cross(w.cross(itf.x)) + 2 * w.cross(itf.v);
    return subtree.force - m * frame_acc;
  }
  // L2: J_c = â − (R d)~ J_ω with J_ω = Ω A (Eq. 7 is linear in Ȧ).
  if (!itf.has_omega_map)
    throw Error(
        "interface_jacobian: the centre-of-mass lumping needs the interface's angular-velocity "
        "map (interface kinematics made with free_alpha)");
  const Vec3 Rd = itf.R * subtree.d;
  interface_point_jacobian(model.r, model.columns, T, Rd.data(), itf.omega_map.data(), qdot.data(),
                           scale, sJ.data(), sJ.outerStride(), c_dot.data());
  const Vec3 c = itf.x + Rd;
  const Vec3 acc = parent.a + parent.alpha.cross(c) + w.cross(w.cross(c)) +
                   2 * w.cross(c_dot.head<3>()) + itf.omega.cross(itf.omega.cross(Rd)) +
                   itf.alpha_free.cross(Rd);
  return subtree.force - m * acc;
}

void add_interface_force(Lumping lumping, const FrameColumns& model, const InterfaceKinematics& itf,
                         const FrameMotion& parent, const Subtree& subtree,
                         const Eigen::VectorXd& qdot, Eigen::MatrixXd* M, Eigen::VectorXd& f0) {
  const int r = model.r;
  if (r == 0) return;
  Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, r);
  const Vec3 net = interface_jacobian(lumping, model, itf, parent, subtree, qdot, 1.0, J);
  if (M) M->noalias() += subtree.mass * (J.transpose() * J);
  f0.noalias() += J.transpose() * net;
}

void InterfaceForceBatch::reset(int children, int r) {
  if (W_.rows() == 3 * children && W_.cols() == r) return;
  W_.setZero(3 * children, r);
  scaled_net_.setZero(3 * children);
}

void InterfaceForceBatch::skip(int k) {
  W_.middleRows<3>(3 * k).setZero();
  scaled_net_.segment<3>(3 * k).setZero();
}

void InterfaceForceBatch::set(int k, Lumping lumping, const FrameColumns& model,
                              const InterfaceKinematics& itf, const FrameMotion& parent,
                              const Subtree& subtree, const Eigen::VectorXd& qdot) {
  if (W_.cols() == 0) return;
  // Rows √m̄ J_k and net / √m̄: Wᵀ W = Σ m̄ J_kᵀ J_k and the product of the scaled rows and nets
  // is Σ J_kᵀ net_k.
  const double root = std::sqrt(subtree.mass);
  const Vec3 net =
      interface_jacobian(lumping, model, itf, parent, subtree, qdot, root, W_.middleRows<3>(3 * k));
  scaled_net_.segment<3>(3 * k) = net / root;
}

void InterfaceForceBatch::add_to(Eigen::MatrixXd* M, Eigen::VectorXd& f0) const {
  if (W_.cols() == 0) return;
  f0.noalias() += W_.transpose() * scaled_net_;  // Σ_k J_kᵀ net_k
  if (!M) return;
  // Σ_k m̄_k J_kᵀ J_k = Wᵀ W: a symmetric rank update (half the products of Wᵀ W), the lower
  // triangle then mirrored.
  M->selfadjointView<Eigen::Lower>().rankUpdate(W_.transpose());
  M->triangularView<Eigen::StrictlyUpper>() = M->transpose();
}

}  // namespace substruct::inertia
