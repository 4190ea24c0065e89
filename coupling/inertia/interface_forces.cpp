#include "interface_forces.hpp"

#include <cmath>

#include "substruct/kinematics/interface_frame_columns.hpp"
#include "substruct/kinematics/polar_decomposition_derivative.hpp"
#include "substruct/kinematics/skew.hpp"

namespace substruct::inertia {

Vec3 interface_jacobian(Lumping lumping, const FrameColumns& model, const InterfaceKinematics& itf,
                        const FrameMotion& parent, const Subtree& subtree,
                        const Eigen::VectorXd& qdot,
                        Eigen::Ref<Eigen::Matrix<double, 3, Eigen::Dynamic>> J) {
  const double m = subtree.mass;
  const Vec3& w = parent.omega;
  const Mat3& T = model.turn;
  if (lumping == Lumping::interface) {
    for (int l = 0; l < model.r; ++l) {  // Eq. 16: J = â (= T â′)
      const Eigen::Map<const Vec3> a(model.columns + 12 * l);
      if (model.turned)
        J.col(l) = T * a;
      else
        J.col(l) = a;
    }
    const Vec3 frame_acc =
        parent.a + parent.alpha.cross(itf.x) + w.cross(w.cross(itf.x)) + 2 * w.cross(itf.v);
    return subtree.force - m * frame_acc;
  }
  // L2: J_ω = Ω A (Eq. 7 is linear in Ȧ; Ω of polar_angular_velocity_map, A the 9×r columns),
  // J_c = â − B A with B = (R d)~ Ω (3×9). With the columns turned (â = T â′, A^ℓ = T A′^ℓ Tᵀ),
  // row i of B read as a 3×3 matrix b_i acts on vec(T A′ Tᵀ) as Tᵀ b_i T on vec(A′). So
  // J_c = P [â′; A′] with P = [T  −B′] (3×12): one pass over the 12 r columns, P in registers.
  const Vec3 Rd = itf.R * subtree.d;
  const Eigen::Matrix<double, 3, 9> B =
      hat(Rd) * (itf.has_omega_map ? itf.omega_map : polar_angular_velocity_map(itf.polar));
  Eigen::Matrix<double, 3, 12> P;
  if (model.turned) {
    P.leftCols<3>() = T;
    for (int i = 0; i < 3; ++i) {
      const Eigen::Matrix<double, 9, 1> b = B.row(i).transpose();
      const Mat3 turned_b = T.transpose() * Eigen::Map<const Mat3>(b.data()) * T;
      P.row(i).tail<9>() = -turned_b.reshaped().transpose();
    }
  } else {
    P.leftCols<3>() = Mat3::Identity();
    P.rightCols<9>() = -B;
  }
  Vec3 c_dot;  // ċ = J_c q̇
  interface_frame_map(model.r, model.columns, P.data(), J.data(), J.outerStride(), qdot.data(),
                      c_dot.data());
  const Vec3 c = itf.x + Rd;
  const Vec3 acc = parent.a + parent.alpha.cross(c) + w.cross(w.cross(c)) + 2 * w.cross(c_dot) +
                   itf.omega.cross(itf.omega.cross(Rd)) + itf.alpha_free.cross(Rd);
  return subtree.force - m * acc;
}

void add_interface_force(Lumping lumping, const FrameColumns& model, const InterfaceKinematics& itf,
                         const FrameMotion& parent, const Subtree& subtree,
                         const Eigen::VectorXd& qdot, Eigen::MatrixXd* M, Eigen::VectorXd& f0) {
  const int r = model.r;
  if (r == 0) return;
  Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, r);
  const Vec3 net = interface_jacobian(lumping, model, itf, parent, subtree, qdot, J);
  if (M) M->noalias() += subtree.mass * (J.transpose() * J);
  f0.noalias() += J.transpose() * net;
}

void InterfaceForceBatch::reset(int children, int r) {
  if (J_.rows() == 3 * children && J_.cols() == r) return;
  J_.setZero(3 * children, r);
  mass_.setZero(children);
  net_.setZero(3 * children);
}

void InterfaceForceBatch::skip(int k) {
  J_.middleRows<3>(3 * k).setZero();
  mass_[k] = 0;
  net_.segment<3>(3 * k).setZero();
}

void InterfaceForceBatch::set(int k, Lumping lumping, const FrameColumns& model,
                              const InterfaceKinematics& itf, const FrameMotion& parent,
                              const Subtree& subtree, const Eigen::VectorXd& qdot) {
  if (J_.cols() == 0) return;
  mass_[k] = subtree.mass;
  net_.segment<3>(3 * k) =
      interface_jacobian(lumping, model, itf, parent, subtree, qdot, J_.middleRows<3>(3 * k));
}

void InterfaceForceBatch::add_to(Eigen::MatrixXd* M, Eigen::VectorXd& f0) const {
  if (J_.cols() == 0) return;
  f0.noalias() += J_.transpose() * net_;  // Σ_k J_kᵀ net_k
  if (!M) return;
  // Σ_k m̄_k J_kᵀ J_k = Wᵀ W with W's rows √m̄_k J_k: a symmetric rank update (half the
  // products of Wᵀ J), the lower triangle then mirrored.
  W_.resize(J_.rows(), J_.cols());
  for (Eigen::Index k = 0; k < mass_.size(); ++k)
    W_.middleRows<3>(3 * k) = std::sqrt(mass_[k]) * J_.middleRows<3>(3 * k);
  M->selfadjointView<Eigen::Lower>().rankUpdate(W_.transpose());
  M->triangularView<Eigen::StrictlyUpper>() = M->transpose();
}

}  // namespace substruct::inertia
