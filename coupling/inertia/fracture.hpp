// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Fracture (Zhao 2014, §4.4): when the reduced interface force of a child subtree,
// ‖f_itf‖² = ‖−M_ij q̈_i + f0_ij‖² (Eq. 15), exceeds fracture_threshold, the subtree leaves its
// parent and becomes one rigid body on a ballistic path: its deformation is frozen, its centre
// of mass keeps its velocity and falls under gravity, it keeps its world angular velocity, and
// its parent no longer feels it.
#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "domain_state.hpp"
#include "domain_tree.hpp"
#include "interface_forces.hpp"
#include "substruct/core/types.hpp"

namespace substruct::inertia {

/// ‖f_itf‖² = ‖f0_ij − M_ij q̈_i‖² (Eq. 15) of child `columns` at its parent's new state.
double interface_force_norm2(Lumping lumping, const FrameColumns& columns,
                             const InterfaceKinematics& itf, const FrameMotion& parent,
                             const Subtree& subtree, const Eigen::VectorXd& qdot,
                             const Eigen::VectorXd& qddot);

/// Ballistic flight of a detached subtree's root frame: the first call (its start) takes the
/// centre of mass c = p + R d, its velocity and the world ω from the frame just placed; each
/// further call moves c under g, turns R by exp(dt ω) and places the frame from c.
void advance_ballistic(DomainState& s, const Vec3& d, double dt, const Vec3& g);

/// Which domains are attached to their parents and which are frozen (every domain of a detached
/// subtree; frequency matching freezes the domains outside the subtree it runs), by domain, side
/// by side: a parent reads its children's every step, and a DomainState is hundreds of bytes.
class Fracture {
 public:
  /// Every domain attached, none frozen.
  void reset(std::size_t domains) {
    attached_.assign(domains, 1);
    frozen_.assign(domains, 0);
  }
  /// Frozen: the domains with inside[i] = 0.
  void freeze_outside(const std::vector<char>& inside);

  bool attached(std::size_t i) const { return attached_[i] != 0; }
  bool frozen(std::size_t i) const { return frozen_[i] != 0; }
  /// Whether domain i is the root of a subtree that broke off (it moves ballistically).
  bool detached_root(std::size_t i) const { return frozen_[i] && !attached_[i]; }

  /// Subtree j leaves its parent: frozen at rest in its frame (q̇ = q̈ = 0). Called while the
  /// parent steps: the subtree has not started its step, so it is the caller's alone; the
  /// ancestors, which other threads may be reading, are told by report().
  void detach(int j, double norm2, const DomainTree& tree, std::vector<DomainState>& states);
  /// The step's fractures, in domain order: logged, and every ancestor's lumped mass marked to be
  /// formed again. Returns whether there were any (the subtree sums are then stale).
  bool report(long step, double threshold, const DomainTree& tree,
              std::vector<DomainState>& states);

 private:
  std::vector<char> attached_, frozen_;
  std::mutex mutex_;
  std::vector<std::pair<int, double>> fractures_;  // this step's: (domain, ‖f_itf‖²)
};

}  // namespace substruct::inertia
