// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// External forces acting on the object at one instant, in world coordinates.
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

struct PointForce {
  Index vertex;  // global volumetric vertex
  Vec3 force;    // [N]
};

/// Loads add to this each step; every coupling method turns it into its own generalized
/// forces (a reduced method projects it; gravity is kept separate so that methods can use
/// precomputed projections of M g, e.g. the sandwich transform of Barbič–Zhao).
struct ExternalForces {
  Vec3 gravity = Vec3::Zero();           // uniform acceleration g [m/s²]: body force ρ g
  std::vector<PointForce> point_forces;  // concentrated forces on vertices
  Eigen::VectorXd nodal;                 // distributed nodal forces (3N), empty when none

  void clear() {
    gravity.setZero();
    point_forces.clear();
    nodal.resize(0);
  }
  /// Adds point forces and `nodal` into a 3N vector (gravity excluded: it needs a mass matrix).
  void add_concentrated_to(Eigen::VectorXd& f) const {
    for (const PointForce& p : point_forces) f.segment<3>(3 * p.vertex) += p.force;
    if (nodal.size() == f.size()) f += nodal;
  }
};

}  // namespace substruct
