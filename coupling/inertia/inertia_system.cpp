// SPDX-License-Identifier: GPL-3.0-or-later
#include "inertia_system.hpp"

#include <algorithm>

#include <Eigen/Cholesky>

#include "substruct/core/prefetch.hpp"
#include "substruct/kinematics/skew.hpp"

namespace substruct::inertia {
namespace {
constexpr int kChildRun = 16;  // children per run of over_children: four batches of four
}  // namespace

// each(first, last) over runs of kChildRun of domain i's children, the same runs on any number
// of threads (ChildFrameRows::kinematics takes a run's children four at a time); the root's
// runs at once on the step's threads, since nothing else can run while it steps. (Below the
// root, siblings keep the threads busy.)
template <class Body>
void InertiaSystem::over_children(int i, Body&& each) {
  const auto children = static_cast<int>(tree.domains[static_cast<std::size_t>(i)].children.size());
  const auto run = [&](std::size_t c) {
    const int first = static_cast<int>(c) * kChildRun;
    each(first, std::min(children, first + kChildRun));
  };
  const auto runs = static_cast<std::size_t>((children + kChildRun - 1) / kChildRun);
  if (i == tree.tree.root && runs > 1) {
    tasks.for_each(runs, run);
  } else {
    for (std::size_t c = 0; c < runs; ++c) run(c);
  }
}

void InertiaSystem::reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) {
  const Scene& sc = *scene;
  const Index n = sc.mesh.num_vertices();
  const Eigen::VectorXd u = u0.size() ? u0 : Eigen::VectorXd::Zero(3 * n);
  const Eigen::VectorXd v = v0.size() ? v0 : Eigen::VectorXd::Zero(3 * n);
  step = 0;
  subtree_sums_valid = false;
  body = RigidBody{};
  body.mass = tree.mass;
  body.inertia = tree.inertia;
  body.p = tree.center;
  if (root_kind == RootKind::free_flying) {
    // The rigid part of v: linear momentum / m and ω = I⁻¹ L about the centre of mass.
    Vec3 momentum = Vec3::Zero(), L = Vec3::Zero();
    for (Index g = 0; g < n; ++g) {
      const int i = sc.vertex_domain[static_cast<std::size_t>(g)];
      if (i < 0) continue;
      const InertiaDomain& dom = tree.domains[static_cast<std::size_t>(i)];
      const double m = dom.vertex_mass[local(dom, g)];
      const Vec3 vg = v.segment<3>(3 * g);
      momentum += m * vg;
      L += m * (sc.mesh.vertices.row(g).transpose() - tree.center).cross(vg);
    }
    body.v = momentum / tree.mass;
    body.omega = tree.inertia.ldlt().solve(L);
  }
  fracture.reset(tree.domains.size());
  for (int i : tree.tree.bfs_order) {
    const InertiaDomain& dom = tree.domains[static_cast<std::size_t>(i)];
    DomainState& s = states[static_cast<std::size_t>(i)];
    s.mass_changed = true;
    s.ballistic_started = false;
    place_frame(i);
    s.q = s.qdot = s.qddot = Eigen::VectorXd::Zero(dom.r());
    if (dom.r() > 0) {
      // Local displacement and velocity relative to the frame, projected: q = Uᵀ M u_local.
      const Index nv = static_cast<Index>(dom.global_vertex.size());
      Eigen::VectorXd ul(3 * nv), vl(3 * nv);
      for (Index l = 0; l < nv; ++l) {
        const Index g = dom.global_vertex[static_cast<std::size_t>(l)];
        const Vec3 xw = sc.mesh.vertices.row(g).transpose() + u.segment<3>(3 * g);
        const Vec3 xl = s.R.transpose() * (xw - s.p);
        ul.segment<3>(3 * l) = xl - dom.rest().row(l).transpose();
        vl.segment<3>(3 * l) =
            s.R.transpose() * v.segment<3>(3 * g) - s.motion.v - s.motion.omega.cross(xl);
      }
      const SparseMatrix M = dom.mass_matrix(sc);
      const Eigen::MatrixXd U = dom.basis();
      s.q = U.transpose() * (M * ul);
      s.qdot = U.transpose() * (M * vl);
      s.newmark->set_state(s.q, s.qdot);
    }
    s.child_itf.assign(dom.children.size(), InterfaceKinematics{});
    dom.child_rows.kinematics(s.q, s.qdot, s.qddot, free_alpha(),
                              std::vector<char>(dom.children.size(), 1), s.child_itf);
  }
}

void InertiaSystem::gather_loads(const ExternalForces& forces) {
  const std::size_t d = tree.domains.size();
  const Index n = scene->mesh.num_vertices();
  // Only the lists of the domains loaded at the last step are cleared (a tree may have 10⁵
  // domains).
  for (const std::size_t i : loaded) concentrated[i].clear();
  loaded.clear();
  concentrated.resize(d);
  const auto add_concentrated = [&](int i, Index g, const Vec3& f) {
    auto& list = concentrated[static_cast<std::size_t>(i)];
    if (list.empty()) loaded.push_back(static_cast<std::size_t>(i));
    list.emplace_back(g, f);
  };
  for (const PointForce& p : forces.point_forces) {
    const int i = scene->vertex_domain[static_cast<std::size_t>(p.vertex)];
    if (i >= 0) add_concentrated(i, p.vertex, p.force);
  }
  for (const std::size_t i : stiffened) stiffness[i].clear();
  stiffened.clear();
  stiffness.resize(d);
  for (const PointStiffness& k : forces.point_stiffness) {
    const int i = scene->vertex_domain[static_cast<std::size_t>(k.vertex)];
    if (i < 0) continue;
    auto& list = stiffness[static_cast<std::size_t>(i)];
    if (list.empty()) stiffened.push_back(static_cast<std::size_t>(i));
    list.emplace_back(k.vertex, k.stiffness);
  }
  if (forces.nodal.size() != 0)
    for (Index g = 0; g < n; ++g) {
      const Vec3 f = forces.nodal.segment<3>(3 * g);
      const int i = scene->vertex_domain[static_cast<std::size_t>(g)];
      if (i >= 0 && f != Vec3::Zero()) add_concentrated(i, g, f);
    }
}

void InertiaSystem::sum_subtrees(const Vec3& gravity) {
  const std::size_t d = tree.domains.size();
  if (!subtree_sums_valid) {
    mbar.assign(d, 0);
    std::vector<Vec3> moment(d, Vec3::Zero());
    for (auto it = tree.tree.bfs_order.rbegin(); it != tree.tree.bfs_order.rend(); ++it) {
      const auto i = static_cast<std::size_t>(*it);
      const InertiaDomain& dom = tree.domains[i];
      mbar[i] += domain_mass[i];
      moment[i] += dom.first_moment_world;
      if (dom.parent >= 0 && fracture.attached(i)) {
        const auto p = static_cast<std::size_t>(dom.parent);
        mbar[p] += mbar[i];
        moment[p] += moment[i];
      }
    }
    // R̂ = I: the rest axes are F_j's.
    subtree_offset.resize(d);
    for (std::size_t i = 0; i < d; ++i)
      subtree_offset[i] = moment[i] / mbar[i] - tree.domains[i].origin;
    subtree_sums_valid = true;
  }
  fbar.resize(d);
  for (std::size_t i = 0; i < d; ++i) fbar[i] = mbar[i] * gravity;
  for (const std::size_t i : loaded)
    for (const auto& [g, f] : concentrated[i])
      for (auto a = static_cast<int>(i);; a = tree.domains[static_cast<std::size_t>(a)].parent) {
        fbar[static_cast<std::size_t>(a)] += f;
        if (tree.domains[static_cast<std::size_t>(a)].parent < 0 ||
            !fracture.attached(static_cast<std::size_t>(a)))
          break;
      }
}

void InertiaSystem::step_root_body(double dt) {
  const std::size_t d = tree.domains.size();
  const auto root = static_cast<std::size_t>(tree.tree.root);
  Vec3 torque = Vec3::Zero();
  for (std::size_t i = 0; i < d; ++i) {
    if (fracture.frozen(i)) continue;
    for (const auto& [g, f] : concentrated[i])
      torque += (world_position(static_cast<int>(i), g) - body.p).cross(f);
  }
  body.mass = mbar[root];
  if (stiffened.empty()) {
    body.step(dt, fbar[root], torque);
    return;
  }
  // A vertex at x moves by Δx = Δp + Δθ × r = J (Δp, Δθ), r = x − p, J = [I  −r̃]: its spring
  // K adds Jᵀ K J to the body's 6×6 stiffness.
  Eigen::Matrix<double, 6, 6> K = Eigen::Matrix<double, 6, 6>::Zero();
  for (const std::size_t i : stiffened) {
    if (fracture.frozen(i)) continue;
    for (const auto& [g, Kv] : stiffness[i]) {
      Eigen::Matrix<double, 3, 6> J;
      J.leftCols<3>().setIdentity();
      J.rightCols<3>() = -hat(world_position(static_cast<int>(i), g) - body.p);
      K.noalias() += J.transpose() * Kv * J;
    }
  }
  const Vec3 p0 = body.p;
  const Mat3 R0 = body.R;
  body.step(dt, fbar[root], torque, &K);
  // The modes then take each spring where the body's step left its vertex: f − K Δx_rigid,
  // Δx_rigid = Δp + (R₊ R₀ᵀ − I)(x − p₀), so that the pull the body's motion already answered
  // (an arriving vertex's −k δ n) is not answered again by q. A child's frame also follows its
  // parent's deformation at the interface: that part is not taken off.
  const Mat3 turn = body.R * R0.transpose() - Mat3::Identity();
  for (const std::size_t i : stiffened) {
    if (fracture.frozen(i)) continue;
    for (const auto& [g, Kv] : stiffness[i]) {
      const Vec3 r0 = world_position(static_cast<int>(i), g) - p0;
      concentrated[i].emplace_back(g, -(Kv * ((body.p - p0) + turn * r0)));
    }
  }
}

void InertiaSystem::frame_stage(int i, double h, const Vec3& gravity, const ParentSlot* from) {
  if (from) {
    place_child_frame(states[static_cast<std::size_t>(i)], from->p, from->R, from->motion,
                      from->itf);
    return;
  }
  place_frame(i);
  if (fracture.detached_root(static_cast<std::size_t>(i)))
    advance_ballistic(states[static_cast<std::size_t>(i)],
                      subtree_offset[static_cast<std::size_t>(i)], h, gravity);
}

int InertiaSystem::step_domain(int i, double h, const Vec3& gravity, const ParentSlot* from) {
  frame_stage(i, h, gravity, from);
  assemble_forces(i, gravity);
  const int n = advance_dynamics(i, h);
  update_child_interfaces(i);
  return n;
}

// f_ext + f_sys + Σ_j f_itf of domain i (Eq. 14–16), and its lumped mass I + Σ_j M_ij.
void InertiaSystem::assemble_forces(int i, const Vec3& gravity) {
  const auto ii = static_cast<std::size_t>(i);
  const InertiaDomain& dom = tree.domains[ii];
  DomainState& s = states[ii];
  if (fracture.frozen(ii) || dom.r() == 0) return;
  const Mat3 Rt = s.R.transpose();
  // f_sys (Eq. 14) and gravity's f_ext, the sandwich transform UᵀME (Rᵀ g), in one product:
  // f_sys's first term is −UᵀME a, so the frame acceleration a − Rᵀg gives both.
  FrameMotion accelerated = s.motion;
  accelerated.a -= Rt * gravity;
  dom.system_force(accelerated, s.q, s.qdot, s.f);
  // Concentrated forces U_vᵀ Rᵀ F.
  Eigen::MatrixXd turned;
  for (const auto& [g, f] : concentrated[ii])
    s.f.noalias() += dom.basis_rows(local(dom, g), turned).transpose() * (Rt * f);
  // Their stiffness in the frame's modes, U_vᵀ Rᵀ K R U_v (the frame's own motion is the
  // parent's or the root body's: not coupled to q here).
  s.has_load_stiffness = ii < stiffness.size() && !stiffness[ii].empty();
  if (s.has_load_stiffness) {
    s.load_stiffness.setZero(dom.r(), dom.r());
    for (const auto& [g, K] : stiffness[ii]) {
      const Eigen::MatrixXd B = dom.basis_rows(local(dom, g), turned);
      const Mat3 K_local = Rt * K * s.R;
      s.load_stiffness.noalias() += B.transpose() * (K_local * B);
    }
  }
  if (dom.children.empty()) return;
  // L1's M_ij = m̄ âᵀâ is constant: the mass I + Σ M_ij is formed again only when a subtree's
  // mass changes (fracture). L2's J_c changes with the state: every step.
  const bool form_mass = settings.lumping == Lumping::center_of_mass || s.mass_changed;
  if (form_mass) s.mass = Eigen::MatrixXd::Identity(dom.r(), dom.r());
  s.children.reset(static_cast<int>(dom.children.size()), dom.r());
  over_children(i, [&](int first, int last) {
    for (auto k = static_cast<std::size_t>(first); k < static_cast<std::size_t>(last); ++k) {
      // The interfaces were made at the end of this domain's last step, and the rest of the
      // tree has stepped since: fetched two children ahead.
      if (k + 2 < static_cast<std::size_t>(last))
        prefetch_lines(&s.child_itf[k + 2], &s.child_itf[k + 2] + 1, false);
      const auto j = static_cast<std::size_t>(dom.children[k]);
      if (!fracture.attached(j)) {
        s.children.skip(static_cast<int>(k));
        continue;
      }
      s.children.set(static_cast<int>(k), settings.lumping,
                     dom.child_rows.columns(static_cast<int>(k)), s.child_itf[k], s.motion,
                     subtree(dom, k, Rt), s.qdot);
    }
  });
  s.children.add_to(form_mass ? &s.mass : nullptr, s.f);
  if (form_mass) s.newmark->set_mass(s.mass);
  s.mass_changed = false;
}

// One semi-implicit Newmark step of domain i's reduced coordinates; returns the linear solves.
int InertiaSystem::advance_dynamics(int i, double dt) {
  const auto ii = static_cast<std::size_t>(i);
  DomainState& s = states[ii];
  if (fracture.frozen(ii) || tree.domains[ii].r() == 0) return 0;
  const int iterations =
      s.newmark->step(dt, s.f, s.has_load_stiffness ? &s.load_stiffness : nullptr);
  s.q = s.newmark->q();
  // The children's frames take the step's average acceleration (q̇₊ − q̇)/dt (= (q̈ + q̈₊)/2
  // for γ = ½), so a child's frame changes velocity exactly as its parent's interface does.
  // The end-of-step q̈₊ of the trapezoidal rule flips sign from step to step on modes too
  // stiff for dt and would drive the children with that noise, pumping energy into them.
  s.qddot = (s.newmark->velocity() - s.qdot) / dt;
  s.qdot = s.newmark->velocity();
  return iterations;
}

// The interfaces to domain i's children at its new state, and fracture.
void InertiaSystem::update_child_interfaces(int i) {
  const auto ii = static_cast<std::size_t>(i);
  const InertiaDomain& dom = tree.domains[ii];
  DomainState& s = states[ii];
  if (fracture.frozen(ii)) return;
  s.child_attached.resize(dom.children.size());
  for (std::size_t k = 0; k < dom.children.size(); ++k)
    s.child_attached[k] = fracture.attached(static_cast<std::size_t>(dom.children[k])) ? 1 : 0;
  for (std::size_t k = 0; k < dom.children.size(); ++k) {
    const int j = dom.children[k];
    if (!s.child_attached[k]) continue;
    if (settings.fracture_threshold > 0 && dom.r() > 0) {
      const double norm2 = interface_force_norm2(
          settings.lumping, dom.child_rows.columns(static_cast<int>(k)), s.child_itf[k], s.motion,
          subtree(dom, k, s.R.transpose()), s.qdot, s.qddot);
      if (norm2 > settings.fracture_threshold) fracture.detach(j, norm2, tree, states);
    }
  }
  over_children(i, [&](int first, int last) {
    dom.child_rows.kinematics(s.q, s.qdot, s.qddot, free_alpha(), s.child_attached, s.child_itf,
                              first, last);
  });
}

Vec3 InertiaSystem::world_position(int i, Index global) const {
  const InertiaDomain& dom = tree.domains[static_cast<std::size_t>(i)];
  const DomainState& s = states[static_cast<std::size_t>(i)];
  Eigen::MatrixXd turned;
  return s.p + s.R * local_position(dom, s, local(dom, global), turned);
}

// Fetches domain i's frame (p, R, motion) for writing: a rigid leaf's state is written once a
// step, by its parent, and a large tree's states do not stay in the cache.
void InertiaSystem::prefetch_frame(int i) const {
  const DomainState& s = states[static_cast<std::size_t>(i)];
  prefetch_lines(&s.p, &s.motion + 1, true);
}

// The frame of domain i from its parent's state (or the root's / ballistic state).
void InertiaSystem::place_frame(int i) {
  const InertiaDomain& dom = tree.domains[static_cast<std::size_t>(i)];
  DomainState& s = states[static_cast<std::size_t>(i)];
  // A detached subtree's root, once started, moves by advance_ballistic.
  if (fracture.detached_root(static_cast<std::size_t>(i)) && s.ballistic_started) return;
  if (dom.parent < 0) {
    if (root_kind == RootKind::fixed) {
      s.p = Vec3::Zero();
      s.R = Mat3::Identity();
      s.motion = FrameMotion{};
    } else {
      const Mat3 Rt = body.R.transpose();
      s.p = body.p;
      s.R = body.R;
      s.motion = FrameMotion{Rt * body.v, Rt * body.omega, Rt * body.a, Rt * body.alpha};
    }
    return;
  }
  const DomainState& ps = states[static_cast<std::size_t>(dom.parent)];
  place_child_frame(s, ps.p, ps.R, ps.motion,
                    ps.child_itf[static_cast<std::size_t>(dom.child_index)]);
}

// A child's frame from its parent's pose, motion and the interface between them.
void InertiaSystem::place_child_frame(DomainState& s, const Vec3& p, const Mat3& R,
                                      const FrameMotion& motion, const InterfaceKinematics& itf) {
  s.p.noalias() = R * itf.x;  // p_j = p_i + R_i x_ij
  s.p += p;
  s.R.noalias() = R * itf.R;  // R_j = R_i R_ij
  child_frame_motion(motion, itf, s.motion);
}

// The subtree rooted at the k-th child of dom, as dom sees it (Rt = R_iᵀ).
Subtree InertiaSystem::subtree(const InertiaDomain& dom, std::size_t k, const Mat3& Rt) const {
  const auto j = static_cast<std::size_t>(dom.children[k]);
  Subtree t;
  t.mass = mbar[j];
  t.force = Rt * fbar[j];
  t.d = subtree_offset[j];
  return t;
}

void InertiaSystem::report_fractures() {
  if (fracture.report(step, settings.fracture_threshold, tree, states)) subtree_sums_valid = false;
}

// The linear solves of this step's domains.
long InertiaSystem::solves(const std::vector<int>& domains) const {
  long sum = 0;
  for (const int i : domains) sum += states[static_cast<std::size_t>(i)].solves;
  return sum;
}

}  // namespace substruct::inertia
