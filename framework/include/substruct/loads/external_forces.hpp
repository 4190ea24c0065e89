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

/// The derivative of a point force that depends on where its vertex goes (a contact):
/// K = −∂f/∂x [N/m], symmetric positive semi-definite. Over a step the force on the vertex is
/// f(x₊) ≈ f − K (x₊ − x), x its position when the loads were evaluated (the step's start) and f
/// the vertex's point forces; a method whose step is implicit adds K to its tangent (a reduced
/// one projects it, Uᵀ Rᵀ K R U), one that applies f explicitly ignores it and states the
/// Δt limit that follows. A contact's damping enters K as c/Δt (framework/docs/contact.md).
struct PointStiffness {
  Index vertex;  // global volumetric vertex
  Mat3 stiffness;
};

/// Loads add to this each step; every coupling method turns it into its own generalized
/// forces (a reduced method projects it; gravity is kept separate so that methods can use
/// precomputed projections of M g, e.g. the sandwich transform of Barbič–Zhao).
struct ExternalForces {
  Vec3 gravity = Vec3::Zero();                  // uniform acceleration g [m/s²]: body force ρ g
  std::vector<PointForce> point_forces;         // concentrated forces on vertices
  Eigen::VectorXd nodal;                        // distributed nodal forces (3N), empty when none
  std::vector<PointStiffness> point_stiffness;  // −∂f/∂x of point forces; empty: none

  void clear() {
    gravity.setZero();
    point_forces.clear();
    nodal.resize(0);
    point_stiffness.clear();
  }
  /// Adds point forces and `nodal` into a 3N vector (gravity excluded: it needs a mass matrix).
  void add_concentrated_to(Eigen::VectorXd& f) const {
    for (const PointForce& p : point_forces) f.segment<3>(3 * p.vertex) += p.force;
    if (nodal.size() == f.size()) f += nodal;
  }
};

}  // namespace substruct
