// SPDX-License-Identifier: GPL-3.0-or-later
#include "articulated_step.hpp"

#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "discrete_gradient.hpp"
#include "inertia_system.hpp"
#include "rigid_body.hpp"
#include "substruct/core/error.hpp"

namespace substruct::inertia {
namespace {

// The free root's frame after a midpoint step h from `body` under the step's acceleration A
// (frame axes R_A): p + h v + (h²/2) a, v + h a, ω + h α, exp(h ω_½) R with ω_½ = ω + (h/2) α.
RigidBody advance_root(const RigidBody& body, const Mat3& R_A, const Vec6& A, double h) {
  RigidBody next = body;
  const Vec3 a = R_A * A.head<3>(), alpha = R_A * A.tail<3>();
  next.p = body.p + h * body.v + 0.5 * h * h * a;
  next.v = body.v + h * a;
  next.omega = body.omega + h * alpha;
  next.R = rotation_exp(h * (body.omega + 0.5 * h * alpha)) * body.R;
  next.a = a;
  next.alpha = alpha;
  return next;
}

// The state at θ between two states of the free root (its rotation θ of the turn).
RigidBody between(const RigidBody& a, const RigidBody& b, double theta) {
  RigidBody m = b;
  m.p = (1 - theta) * a.p + theta * b.p;
  m.v = (1 - theta) * a.v + theta * b.v;
  m.omega = (1 - theta) * a.omega + theta * b.omega;
  const Eigen::AngleAxisd turn(b.R * a.R.transpose());
  m.R = Eigen::AngleAxisd(theta * turn.angle(), turn.axis()).toRotationMatrix() * a.R;
  return m;
}

}  // namespace

void ArticulatedStep::precompute(const DomainTree& tree) {
  modal_mass_.clear();
  for (const InertiaDomain& dom : tree.domains)
    modal_mass_.push_back(dom.U().transpose() * (dom.M * dom.U()));
}

void ArticulatedStep::solve(InertiaSystem& system, double theta, double c_q, double c_v,
                            bool gradient, const Vec3& gravity) {
  const std::vector<int>& order = system.tree.tree.bfs_order;
  nodes_.resize(system.tree.domains.size());
  std::vector<std::pair<Index, Vec3>> loads;
  Eigen::VectorXd f;
  Eigen::MatrixXd K;
  for (const int i : order) {
    const auto ii = static_cast<std::size_t>(i);
    const InertiaDomain& dom = system.tree.domains[ii];
    const DomainState& s = system.states[ii];
    ArticulatedNode& node = nodes_[ii];
    const Mat3 Rt = s.R.transpose();
    loads.clear();
    for (const auto& [g, F] : system.concentrated[ii]) loads.emplace_back(local(dom, g), Rt * F);
    domain_rigid_terms(dom.M, dom.U(), dom.rest(), s.q, s.qdot, s.motion.omega, Rt * gravity, loads,
                       node);
    if (dom.r() > 0) {
      // M_r a + D q̇ + f(q) = Uᵀ f_known + couplings, f(q) ≈ f(q_lin) + K(q_lin)(q − q_lin),
      // D = a_R M_r + b_R K(q_lin) (Rayleigh).
      const Eigen::MatrixXd& Mr = modal_mass_[ii];
      const double sc = s.stiffness;
      dom.model->forces->evaluate(lin_q_[ii], nullptr, &f, &K);
      f *= sc;
      K *= sc;
      const ReducedNewmarkSettings& ns = s.newmark->settings();
      const Eigen::MatrixXd D = ns.mass_damping * Mr + ns.stiffness_damping * K;
      node.H = Mr + c_v * D + c_q * K;
      node.b = node.modal - f - K * (pred_q_[ii] - lin_q_[ii]) - D * pred_v_[ii];
      if (gradient) {
        // The discrete gradient along the last solve's step Δq = (q_θ − q)/θ, from its q_θ where
        // f was just taken: b −= c M_r Δq with c = (W(q₊) − W(q) − f(q_½)·Δq) / |Δq|²_M, so that
        // the elastic work over the step is W(q₊) − W(q) + (f(q_θ) − f(q_½))·Δq: exact at θ = ½,
        // for θ > ½ the θ-rule's numerical damping, (θ − ½)|Δq|²_K on a linear force.
        const Eigen::VectorXd dq = (lin_q_[ii] - start_q_[ii]) / theta;
        double W_next = 0;
        dom.model->forces->evaluate(start_q_[ii] + dq, &W_next, nullptr, nullptr);
        if (theta != 0.5) {
          dom.model->forces->evaluate(start_q_[ii] + 0.5 * dq, nullptr, &f_mid_, nullptr);
          f_mid_ *= sc;
        }
        node.b -=
            discrete_gradient_correction(start_energy_[ii], sc * W_next, theta != 0.5 ? f_mid_ : f,
                                         dq, Mr, start_q_[ii].dot(Mr * start_q_[ii]));
      }
    } else {
      node.H.resize(0, 0);
      node.b.resize(0);
    }
    if (dom.parent >= 0) {
      const DomainState& ps = system.states[static_cast<std::size_t>(dom.parent)];
      const auto k = static_cast<std::size_t>(dom.child_index);
      child_link(system.tree.domains[static_cast<std::size_t>(dom.parent)].child_rows.columns(
                     dom.child_index),
                 ps.child_itf[k], ps.motion.omega, node);
    }
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    ArticulatedNode& node = nodes_[static_cast<std::size_t>(*it)];
    articulated_eliminate(node, *it, system.step);
    const int parent = system.tree.domains[static_cast<std::size_t>(*it)].parent;
    if (parent >= 0) add_child(node, nodes_[static_cast<std::size_t>(parent)]);
  }
  for (const int i : order) {
    ArticulatedNode& node = nodes_[static_cast<std::size_t>(i)];
    const int parent = system.tree.domains[static_cast<std::size_t>(i)].parent;
    if (parent >= 0) {
      child_acceleration(nodes_[static_cast<std::size_t>(parent)], node);
    } else if (system.root_kind == RootKind::fixed) {
      node.A.setZero();
    } else {
      // A free root carries no wrench: IA A = pA.
      node.A = node.IA.ldlt().solve(node.pA);
    }
    modal_acceleration(node);
  }
}

long ArticulatedStep::step(InertiaSystem& system, double dt, const Vec3& gravity) {
  const std::vector<int>& order = system.tree.tree.bfs_order;
  const std::size_t d = system.tree.domains.size();
  // The equations at θ of the step (θ = γ; ½: the midpoint): q_θ = q + θh q̇ + θ(h²/2) a.
  const double theta = system.settings.newmark_gamma;
  const double c_q = theta * dt * dt / 2, c_v = theta * dt;
  pred_q_.resize(d);
  pred_v_.resize(d);
  lin_q_.resize(d);
  start_q_.resize(d);
  start_v_.resize(d);
  mid_v_.resize(d);
  start_energy_.resize(d);
  for (std::size_t i = 0; i < d; ++i) {
    const DomainState& s = system.states[i];
    start_q_[i] = s.q;
    start_v_[i] = s.qdot;
    pred_q_[i] = s.q + theta * dt * s.qdot;
    pred_v_[i] = s.qdot;
    lin_q_[i] = s.q;  // Newton from qₙ, as ReducedNewmark
    start_energy_[i] = 0;
    if (s.newmark)
      system.tree.domains[i].model->forces->evaluate(s.q, &start_energy_[i], nullptr, nullptr);
    start_energy_[i] *= s.stiffness;
  }
  const RigidBody start_body = system.body;
  Mat3 solved_in = system.body.R;  // the axes of the root frame the last solve was made in
  long solves = 0;
  for (int it = 0; it < system.settings.articulated_solves; ++it) {
    if (it > 0) {
      // Frames and interfaces at the last solve's midpoint state.
      for (std::size_t i = 0; i < d; ++i) {
        DomainState& s = system.states[i];
        if (!s.newmark) continue;
        s.q = lin_q_[i];
        s.qdot = mid_v_[i];
      }
      if (system.root_kind == RootKind::free_flying)
        system.body =
            between(start_body,
                    advance_root(start_body, solved_in,
                                 nodes_[static_cast<std::size_t>(system.tree.tree.root)].A, dt),
                    theta);
      solved_in = system.body.R;
      for (const int i : order) {
        system.place_frame(i);
        system.update_child_interfaces(i);
      }
    }
    // From the second solve on, the elastic force is the discrete gradient along the last
    // solve's step (discrete_gradient.hpp): the midpoint rule's f(q_θ) gains energy on the
    // large deformations of StVK.
    solve(system, theta, c_q, c_v, it > 0, gravity);
    solves += static_cast<long>(d);
    for (std::size_t i = 0; i < d; ++i)
      if (nodes_[i].qddot.size()) {
        lin_q_[i] = pred_q_[i] + c_q * nodes_[i].qddot;
        mid_v_[i] = pred_v_[i] + c_v * nodes_[i].qddot;
      }
  }
  for (std::size_t i = 0; i < d; ++i) {
    DomainState& s = system.states[i];
    if (!s.newmark) continue;
    const Eigen::VectorXd& a = nodes_[i].qddot;
    s.q = start_q_[i] + dt * start_v_[i] + 0.5 * dt * dt * a;
    s.qdot = start_v_[i] + dt * a;
    s.qddot = a;
    if (!s.q.allFinite() || !s.qdot.allFinite())
      throw DivergenceError(static_cast<int>(i), system.step, "inertia: the state is not finite");
    s.newmark->set_state(s.q, s.qdot);
  }
  if (system.root_kind == RootKind::free_flying)
    system.body = advance_root(start_body, solved_in,
                               nodes_[static_cast<std::size_t>(system.tree.tree.root)].A, dt);
  for (const int i : order) {
    system.place_frame(i);
    system.update_child_interfaces(i);
  }
  return solves;
}

}  // namespace substruct::inertia
