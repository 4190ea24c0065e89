// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The framework's contact stage: before each step the surface vertices of the tet mesh, at the
/// world positions the simulation has, are tested against the [contact] obstacles, and the
/// penalty responses are added to the step's ExternalForces as point forces with their
/// stiffness K = −∂f/∂x (loads/external_forces.hpp), which every coupling method takes through
/// the contract. The physics, choices and limits: framework/docs/contact.md.
#include <vector>

#include "substruct/contact/obstacle.hpp"
#include "substruct/contact/penalty_response.hpp"
#include "substruct/core/types.hpp"
#include "substruct/loads/external_forces.hpp"

namespace substruct {

class Config;
struct Scene;

/// What the contact stage did over a run.
struct ContactStats {
  long evaluations = 0;        // steps (and resets) evaluated
  long contacts = 0;           // vertex–obstacle contacts (inside), summed over evaluations
  long max_contacts = 0;       // at one evaluation
  long sliding = 0;            // contacts that slid, summed
  long arriving = 0;           // vertices outside brought in by their velocity, summed
  double max_penetration = 0;  // over the run [m]
  Index deepest_vertex = -1;   // where max_penetration was
  double seconds = 0;          // wall time of the stage

  double contacts_per_step() const { return evaluations ? double(contacts) / evaluations : 0; }
  /// The fraction of the contacts that slid (0 without contacts).
  double sliding_share() const { return contacts ? double(sliding) / double(contacts) : 0; }
};

class ContactService {
 public:
  /// The obstacles of `config`'s [contact] section (contact/scene_obstacles.hpp: throws its
  /// errors) and the response's parameters per surface vertex of `scene` (its free boundary
  /// vertices: k = stiffness × a share of the surface area, c = damping × 2√(k m)).
  ContactService(const Config& config, const Scene& scene);

  bool has_obstacles() const { return !obstacles_.empty(); }
  const std::vector<Obstacle>& obstacles() const { return obstacles_; }
  double tolerance() const { return tolerance_; }

  /// Throws Error when a surface vertex at `positions` is deeper than the tolerance inside an
  /// obstacle at `time`, naming the vertex, the obstacle, the depth and the option to change.
  void check_clear(const Points& positions, double time) const;

  /// Releases every friction anchor and zeroes the stats (a new run).
  void reset();
  /// Zeroes the stats only.
  void reset_stats() { stats_ = {}; }

  /// Adds to `forces` the contact forces at `time` for the vertices at `positions` moving with
  /// `velocities`, with their derivative for a step of `dt` that ends at time + dt (a keyframed
  /// obstacle's motion Δo over the step is taken into the force: f + K Δo). Updates the anchors
  /// and the stats.
  void accumulate(double time, double dt, const Points& positions, const Points& velocities,
                  ExternalForces& forces);

  /// The contact springs' energy with the vertices at `positions` at `time` (normal ½ k d²,
  /// friction ½ k |s|² against the anchors as the last accumulate() left them, |s| ≤ μ d) [J].
  double energy_at(const Points& positions, double time) const;
  /// The contacts of the last accumulate().
  long contacts() const { return last_contacts_; }
  /// The vertices the last accumulate() gave a force (inside an obstacle, or arriving), ascending.
  const std::vector<Index>& touching() const { return touching_; }
  const ContactStats& stats() const { return stats_; }

 private:
  std::vector<Obstacle> obstacles_;
  std::vector<Index> vertices_;          // the surface vertices tested, ascending
  std::vector<double> stiffness_;        // k per tested vertex [N/m]
  std::vector<double> damping_;          // c per tested vertex [N s/m]
  std::vector<FrictionAnchor> anchors_;  // per (tested vertex, obstacle)
  double friction_ = 0;
  double tolerance_ = 0;
  long last_contacts_ = 0;
  std::vector<Index> touching_;
  ContactStats stats_;
};

}  // namespace substruct
