// SPDX-License-Identifier: GPL-3.0-or-later
#include "drag_spring.hpp"

#include "substruct/scene/scene.hpp"

namespace substruct::viewer {

void DragSpring::grab(Index vertex, const Vec3& target, double stiffness) {
  vertex_ = vertex;
  target_ = target;
  stiffness_ = stiffness;
  force_.setZero();
}

void DragSpring::accumulate(const LoadContext& context, ExternalForces& forces) {
  if (vertex_ < 0 || vertex_ >= context.positions.rows()) {
    force_.setZero();
    return;
  }
  force_ = stiffness_ * (target_ - context.positions.row(vertex_).transpose());
  forces.point_forces.push_back({vertex_, force_});
}

}  // namespace substruct::viewer
