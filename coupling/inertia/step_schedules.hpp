// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a step of the lumped couplings walks the tree root → leaves (Zhao 2014, §5.4): each
// domain's step body (InertiaSystem::step_domain) needs only its parent's new state, so every
// domain whose parent is done, or the domains of one depth level, may run at once on [run]
// threads. Three schedules run the same body:
//   fused:       each domain through all its stages at once, while its data is in cache; its
//                rigid leaves placed at the end of its own task;
//   stage-timed: one depth level at a time, the level's domains through each stage together, so
//                that the frames / system forces / dynamics stages are timed apart;
//   procedural:  each domain 2^N substeps of dt / 2^N (§5.2), its frame read from the buffer its
//                parent fills (§5.4.1).
#include <cstddef>
#include <utility>
#include <vector>

#include "domain_state.hpp"
#include "domain_tree.hpp"
#include "substruct/core/parallel_tasks.hpp"
#include "substruct/core/stage_timings.hpp"
#include "substruct/core/types.hpp"

namespace substruct::inertia {

class InertiaSystem;

class StepSchedules {
 public:
  /// The tree's walks: the bfs order cut into levels, and the same without the rigid leaves.
  void index(const DomainTree& tree);
  /// Each domain's lowest frequency under the scene's material [Hz] (procedural timestep).
  void set_domain_frequencies(std::vector<double> frequency_hz) {
    domain_frequency_ = std::move(frequency_hz);
  }
  /// The substep counts are found again at the next step (the frequency scales may have changed).
  void reset() { substeps_dt_ = 0; }

  /// One step dt of every domain by the schedule the settings choose; `frame_seconds`, the
  /// step's time so far, is reported with the frames stage.
  void run(InertiaSystem& system, double dt, const Vec3& gravity, double frame_seconds,
           StepStats& stats);

 private:
  void fused(InertiaSystem& system, double dt, const Vec3& gravity);
  void stage_timed(InertiaSystem& system, double dt, const Vec3& gravity, double frame_seconds,
                   StepStats& stats);
  void procedural(InertiaSystem& system, double dt, const Vec3& gravity);
  // §5.2: every domain's substep count for a step of dt (again when dt or the scales change),
  // and the buffers from each parent to its children.
  void plan_substeps(const InertiaSystem& system, double dt);
  // One step of domain i as 2^N substeps, its frame from its parent's buffer, its children's
  // buffers filled as it goes; returns the linear solves.
  long step_substeps(InertiaSystem& system, int i, double dt, const Vec3& gravity);

  ParallelTasks::Tree tree_view() const;
  ParallelTasks::Tree task_tree_view() const;
  std::vector<std::size_t> level_starts(const std::vector<int>& order) const;

  const DomainTree* tree_ = nullptr;
  std::vector<int> roots_;
  std::vector<int> subtree_size_;
  std::vector<std::size_t> level_start_;
  // The tree without its rigid leaves (r = 0, no children: most of a plant's domains), and each
  // domain's rigid leaves (leaf, its index as a child).
  std::vector<int> task_order_;
  std::vector<std::size_t> task_level_start_;
  std::vector<std::vector<int>> task_children_;
  std::vector<int> task_subtree_size_;
  std::vector<std::vector<std::pair<int, int>>> rigid_leaves_;
  // Procedural timestep: substeps per step for substeps_dt_ (0: to be found), and per domain
  // the buffer its parent fills.
  std::vector<double> domain_frequency_;
  std::vector<int> substeps_;
  double substeps_dt_ = 0;
  std::vector<std::vector<ParentSlot>> inbox_;
};

}  // namespace substruct::inertia
