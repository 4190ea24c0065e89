// SPDX-License-Identifier: GPL-3.0-or-later
#include "articulated_body.hpp"

#include <cmath>

#include "substruct/core/error.hpp"

namespace substruct::inertia {

namespace {

Mat3 skew(const Vec3& v) {
  Mat3 s;
  s << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return s;
}

}  // namespace

void domain_rigid_terms(const SparseMatrix& M, const Eigen::MatrixXd& U, const Points& X,
                        const Eigen::VectorXd& q, const Eigen::VectorXd& qdot, const Vec3& omega,
                        const Vec3& g, const std::vector<std::pair<Index, Vec3>>& point_forces,
                        ArticulatedNode& node) {
  const Index n = X.rows();
  const int r = static_cast<int>(U.cols());
  // y = X̄ + U q and u̇ = U q̇, vertex by vertex.
  Eigen::VectorXd y = flat(X);
  Eigen::VectorXd udot = Eigen::VectorXd::Zero(3 * n);
  if (r > 0) {
    y.noalias() += U * q;
    udot.noalias() = U * qdot;
  }
  // Φ = [E, −[y]~] (3N×6): α × y = −[y]~ α.
  Eigen::Matrix<double, Eigen::Dynamic, 6> Phi(3 * n, 6);
  // a = g − ω × (ω × y) − 2 ω × u̇ per vertex; f = M a + F.
  Eigen::VectorXd a(3 * n);
  for (Index v = 0; v < n; ++v) {
    const Vec3 yv = y.segment<3>(3 * v);
    Phi.block<3, 3>(3 * v, 0).setIdentity();
    Phi.block<3, 3>(3 * v, 3) = -skew(yv);
    a.segment<3>(3 * v) =
        g - omega.cross(omega.cross(yv)) - 2 * omega.cross(udot.segment<3>(3 * v));
  }
  const Eigen::Matrix<double, Eigen::Dynamic, 6> MPhi = M * Phi;
  Eigen::VectorXd f = M * a;
  for (const auto& [l, F] : point_forces) f.segment<3>(3 * l) += F;
  node.I.noalias() = Phi.transpose() * MPhi;
  node.I = 0.5 * (node.I + node.I.transpose()).eval();  // exactly symmetric
  node.B.resize(6, r);
  if (r > 0) node.B.noalias() = MPhi.transpose() * U;
  node.P.noalias() = Phi.transpose() * f;
  node.modal.resize(r);
  if (r > 0) node.modal.noalias() = U.transpose() * f;
}

void child_link(const FrameColumns& columns, const InterfaceKinematics& itf, const Vec3& omega_i,
                ArticulatedNode& child) {
  const Mat3 Rt = itf.R.transpose();
  child.X.setZero();
  child.X.topLeftCorner<3, 3>() = Rt;
  child.X.topRightCorner<3, 3>() = -Rt * skew(itf.x);  // α_i × x = −[x]~ α_i
  child.X.bottomRightCorner<3, 3>() = Rt;
  const int r = columns.r;
  child.G.resize(6, r);
  const Mat3 T = columns.turn ? *columns.turn : Mat3::Identity();
  for (int l = 0; l < r; ++l) {
    const double* c = columns.columns + 12 * l;
    const Vec3 a_hat = T * Eigen::Map<const Vec3>(c);
    const Mat3 A = T * Eigen::Map<const Mat3>(c + 3) * T.transpose();
    child.G.col(l).head<3>() = Rt * a_hat;
    child.G.col(l).tail<3>() =
        Rt * (itf.omega_map * Eigen::Map<const Eigen::Matrix<double, 9, 1>>(A.data()));
  }
  const Vec3& w = omega_i;
  child.kappa.head<3>() = Rt * (w.cross(w.cross(itf.x)) + 2 * w.cross(itf.v));
  child.kappa.tail<3>() = Rt * (itf.alpha_free + w.cross(itf.omega));
}

void add_child(const ArticulatedNode& child, ArticulatedNode& parent) {
  const Vec6 p = child.pA - child.IA * child.kappa;
  const Mat6X IAG = child.IA * child.G;  // 6×r_parent
  const Mat6 IAX = child.IA * child.X;
  if (parent.H.size() > 0) {
    parent.H.noalias() += child.G.transpose() * IAG;
    parent.B.noalias() += child.X.transpose() * IAG;
    parent.b.noalias() += child.G.transpose() * p;
  }
  parent.I.noalias() += child.X.transpose() * IAX;
  parent.P.noalias() += child.X.transpose() * p;
}

void articulated_eliminate(ArticulatedNode& node, int domain, long step) {
  if (node.H.size() == 0) {
    node.IA = node.I;
    node.pA = node.P;
    return;
  }
  node.H = 0.5 * (node.H + node.H.transpose()).eval();
  node.H_factor.compute(node.H);
  // An indefinite H (StVK's tangent under compression) is factored as well, as ReducedNewmark
  // does; a singular or non-finite one stops the run.
  const double scale = node.H.diagonal().cwiseAbs().maxCoeff();
  if (node.H_factor.info() != Eigen::Success || !node.H.allFinite() ||
      !(node.H_factor.vectorD().cwiseAbs().minCoeff() > 1e-12 * scale))
    throw DivergenceError(domain, step,
                          "inertia: the articulated modal matrix of a domain is singular (the "
                          "time step is too large for its stiffness, or the state stopped being "
                          "finite)");
  const Eigen::MatrixXd HinvBt = node.H_factor.solve(node.B.transpose());  // r×6
  const Eigen::VectorXd Hinvb = node.H_factor.solve(node.b);
  node.IA = node.I - node.B * HinvBt;
  node.IA = 0.5 * (node.IA + node.IA.transpose()).eval();
  node.pA = node.P - node.B * Hinvb;
}

void modal_acceleration(ArticulatedNode& node) {
  if (node.H.size() == 0) {
    node.qddot.resize(0);
    return;
  }
  node.qddot = node.H_factor.solve(node.b - node.B.transpose() * node.A);
}

void child_acceleration(const ArticulatedNode& parent, ArticulatedNode& child) {
  child.A.noalias() = child.X * parent.A;
  child.A += child.kappa;
  if (parent.qddot.size() > 0) child.A.noalias() += child.G * parent.qddot;
}

}  // namespace substruct::inertia
