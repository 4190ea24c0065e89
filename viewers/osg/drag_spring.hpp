// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The mouse spring (Zhao 2014, §4.3): while the user drags, a linear spring pulls the picked
// vertex towards the dragged point, f = k (target − x), so the force grows with the drag. It is a
// load like any other, added to the simulation's loads.
#include "substruct/loads/load.hpp"

namespace substruct::viewer {

class DragSpring final : public Load {
 public:
  void grab(Index vertex, const Vec3& target, double stiffness);
  void move_to(const Vec3& target) { target_ = target; }
  void release() { vertex_ = -1; }

  bool active() const { return vertex_ >= 0; }
  Index vertex() const { return vertex_; }
  const Vec3& target() const { return target_; }
  double stiffness() const { return stiffness_; }
  /// The force of the last evaluation [N].
  const Vec3& force() const { return force_; }

  void accumulate(const LoadContext& context, ExternalForces& forces) override;

 private:
  Index vertex_ = -1;
  Vec3 target_ = Vec3::Zero();
  double stiffness_ = 0;
  Vec3 force_ = Vec3::Zero();
};

}  // namespace substruct::viewer
