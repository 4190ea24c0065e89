// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The coupled tree of the inertia coupling while it runs, and Algorithm 1's loop body (Barbič–
// Zhao 2011): per domain, root → leaves,
//   frame:      F_i placed from its parent's new state (Eq. 1–9), or the root's / ballistic one;
//   forces:     f_ext + f_sys (Eq. 14) + Σ_j f0_ij and the lumped mass I + Σ_j M_ij (Eq. 15–16);
//   dynamics:   one semi-implicit Newmark step of (I + Σ_j M_ij) q̈ + D q̇ + f_int(q) = f (Eq. 17);
//   interfaces: the children's interface kinematics at the new state (and fracture, §4.4).
// The step schedules (step_schedules.hpp) run these stages; the leaves → root sums that feed
// them (subtree masses m̄, forces f̄) and the free root's Newton–Euler step come first.
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "domain_state.hpp"
#include "domain_tree.hpp"
#include "fracture.hpp"
#include "inertia_settings.hpp"
#include "rigid_body.hpp"
#include "substruct/core/parallel_tasks.hpp"
#include "substruct/core/types.hpp"
#include "substruct/loads/external_forces.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct::inertia {

class InertiaSystem {
 public:
  InertiaSystem(const InertiaSettings& settings, const ParallelTasks& tasks)
      : settings(settings), tasks(tasks) {}

  /// The domains at rest frames placed from u0, v0 (3N world displacement and velocity; empty:
  /// zero): q = Uᵀ M u_local, q̇ = Uᵀ M v_local; a free root takes v's rigid part.
  void reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0);

  /// Sorts the step's point and nodal forces by domain (concentrated), and the point forces'
  /// stiffness (contacts: loads/external_forces.hpp).
  void gather_loads(const ExternalForces& forces);
  /// Leaves → root: the subtree masses m̄ and centre-of-mass offsets d (again only after a
  /// fracture), and the external forces f̄ (world): gravity on m̄, each concentrated force on its
  /// domain and every ancestor it is attached to.
  void sum_subtrees(const Vec3& gravity);
  /// The free-flying root: Newton–Euler of the whole attached object under f̄ and the point
  /// forces' torque about its centre of mass; the point stiffness, seen as springs on the rigid
  /// motion (J_vᵀ K_v J_v, J_v = [I  −(x_v − p)~]), makes the step linearly implicit.
  void step_root_body(double dt);

  // Algorithm 1's loop body for domain i, stage by stage; step_domain runs them in order.
  /// F_i from `from` (a parent's buffered frame) or, when null, from its parent's state now
  /// (place_frame) with a detached subtree root's ballistic motion.
  void frame_stage(int i, double h, const Vec3& gravity, const ParentSlot* from);
  /// f_ext + f_sys + Σ_j f_itf of domain i (Eq. 14–16), and its lumped mass I + Σ_j M_ij.
  void assemble_forces(int i, const Vec3& gravity);
  /// One semi-implicit Newmark step h of domain i's reduced coordinates; the linear solves.
  int advance_dynamics(int i, double h);
  /// The interfaces to domain i's children at its new state, and fracture.
  void update_child_interfaces(int i);
  /// The four stages of domain i; returns the linear solves.
  int step_domain(int i, double h, const Vec3& gravity, const ParentSlot* from);

  /// The frame of domain i from its parent's state (or the root's / ballistic state).
  void place_frame(int i);
  /// A child's frame from its parent's pose, motion and the interface between them.
  static void place_child_frame(DomainState& s, const Vec3& p, const Mat3& R,
                                const FrameMotion& motion, const InterfaceKinematics& itf);
  /// Fetches domain i's frame (p, R, motion) for writing: a rigid leaf's state is written once
  /// a step, by its parent, and a large tree's states do not stay in the cache.
  void prefetch_frame(int i) const;

  /// World position of global vertex `global` as domain i holds it.
  Vec3 world_position(int i, Index global) const;
  /// The linear solves of this step's domains.
  long solves(const std::vector<int>& domains) const;
  /// Whether the children's interface kinematics need Ω and the q̈ = 0 part of ω̇_ij.
  bool free_alpha() const { return settings.lumping != Lumping::interface; }

  /// Logs the step's fractures and marks what they change (fracture.hpp).
  void report_fractures();

  const InertiaSettings& settings;
  const ParallelTasks& tasks;
  const Scene* scene = nullptr;
  RootKind root_kind = RootKind::fixed;
  DomainTree tree;
  std::vector<DomainState> states;
  Fracture fracture;                // which domains are attached, which frozen
  std::vector<double> domain_mass;  // m_i, by domain id
  RigidBody body;                   // the free root
  long step = 0;
  // Per-step workspace.
  std::vector<std::vector<std::pair<Index, Vec3>>> concentrated;  // (global vertex, world force)
  std::vector<std::size_t> loaded;  // the domains with concentrated forces at the last step
  std::vector<std::vector<std::pair<Index, Mat3>>> stiffness;  // (global vertex, world K)
  std::vector<std::size_t> stiffened;  // the domains with point stiffness at the last step
  std::vector<double> mbar;
  std::vector<Vec3> fbar;
  std::vector<Vec3> subtree_offset;  // d: the subtree's rest centre of mass − o_j (F_j axes)
  bool subtree_sums_valid = false;   // mbar and subtree_offset (until a fracture or reset)

 private:
  Subtree subtree(const InertiaDomain& dom, std::size_t k, const Mat3& Rt) const;
  template <class Body>
  void over_children(int i, Body&& body);
};

}  // namespace substruct::inertia
