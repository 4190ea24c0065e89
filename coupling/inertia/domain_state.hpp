// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The state of one domain of the inertia coupling while it runs: its reduced coordinates, its
// moving frame F_i (p, R and their motion), the kinematics of the interfaces to its children,
// and its workspace for a step.
#include <algorithm>
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "domain_tree.hpp"
#include "frame_kinematics.hpp"
#include "interface_forces.hpp"
#include "substruct/core/types.hpp"
#include "substruct/reduction/reduced_integrator.hpp"

namespace substruct::inertia {

/// What the root frame is on a scene: the world frame, or the whole object's Newton–Euler body.
enum class RootKind { fixed, free_flying };

struct DomainState {
  std::unique_ptr<ReducedNewmark> newmark;  // null for a rigid domain
  double alpha = 1;                         // frequency scale
  double stiffness = 1;                     // Young's modulus multiplier (procedural)
  Eigen::VectorXd q, qdot, qddot;           // r entries (frozen copies for detached domains)
  Vec3 p = Vec3::Zero();                    // frame origin, world
  Mat3 R = Mat3::Identity();                // frame rotation, world
  FrameMotion motion;                       // in the frame's own axes
  std::vector<InterfaceKinematics> child_itf;
  // Ballistic motion of a detached subtree root: its centre of mass c, velocity, ω (world), and
  // the rest offset of the centre of mass from the frame origin (frame axes).
  Vec3 c = Vec3::Zero(), c_dot = Vec3::Zero(), omega_world = Vec3::Zero(), d = Vec3::Zero();
  bool ballistic_started = false;
  // Workspace.
  Eigen::MatrixXd mass;  // I + Σ_j M_ij
  bool mass_changed = true;
  InterfaceForceBatch children;      // the children's M_ij and f0_ij
  std::vector<char> child_attached;  // per child, before this step's fractures
  Eigen::VectorXd f;
  Eigen::MatrixXd load_stiffness;   // Σ U_vᵀ Rᵀ K_v R U_v of the step's point stiffness (r×r)
  bool has_load_stiffness = false;  // this step
  long solves = 0;  // this step's linear solves (summed after the step: no shared counter)
};

/// A parent's frame and the interface to one child: what the child's frame is placed from (the
/// procedural timestep passes it through a buffer of these, one per substep of the coarser).
struct ParentSlot {
  Vec3 p = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  FrameMotion motion;
  InterfaceKinematics itf;
};

/// The local index of a global vertex of the domain.
inline Index local(const InertiaDomain& dom, Index global) {
  const auto it = std::lower_bound(dom.global_vertex.begin(), dom.global_vertex.end(), global);
  return static_cast<Index>(it - dom.global_vertex.begin());
}

/// x = X̄ + U q (frame coordinates) of local vertex l; `turned` as for basis_rows.
inline Vec3 local_position(const InertiaDomain& dom, const DomainState& s, Index l,
                           Eigen::MatrixXd& turned) {
  Vec3 x = dom.rest().row(l).transpose();
  if (dom.r() > 0) x.noalias() += dom.basis_rows(l, turned) * s.q;
  return x;
}

}  // namespace substruct::inertia
