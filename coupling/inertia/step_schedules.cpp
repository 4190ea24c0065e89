// SPDX-License-Identifier: GPL-3.0-or-later
#include "step_schedules.hpp"

#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>

#include "inertia_system.hpp"
#include "procedural_timestep.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/stopwatch.hpp"

namespace substruct::inertia {
namespace {
constexpr int kMaxSubstepExponent = 12;  // 4096 substeps per step
}  // namespace

void StepSchedules::index(const DomainTree& tree) {
  tree_ = &tree;
  roots_ = {tree.tree.root};
  level_start_ = level_starts(tree.tree.bfs_order);
  subtree_size_ = subtree_sizes(tree.tree.bfs_order, tree.tree.children);
  // The rigid leaves need only their frames placed: their parent places them at the end of its
  // own task, with its interfaces still in cache, instead of one task each.
  const std::size_t d = tree.domains.size();
  rigid_leaves_.assign(d, {});
  task_children_.assign(d, {});
  task_order_.clear();
  for (const int i : tree.tree.bfs_order) {
    const InertiaDomain& dom = tree.domains[static_cast<std::size_t>(i)];
    const auto parent = static_cast<std::size_t>(dom.parent);
    if (dom.parent >= 0 && dom.r() == 0 && dom.children.empty()) {
      rigid_leaves_[parent].emplace_back(i, dom.child_index);
      continue;
    }
    task_order_.push_back(i);
    if (dom.parent >= 0) task_children_[parent].push_back(i);
  }
  task_level_start_ = level_starts(task_order_);
  task_subtree_size_ = subtree_sizes(task_order_, task_children_);
}

// Where each depth level of a breadth-first order starts, and its end.
std::vector<std::size_t> StepSchedules::level_starts(const std::vector<int>& order) const {
  std::vector<std::size_t> start;
  for (std::size_t k = 0; k < order.size(); ++k)
    if (k == 0 || tree_->tree.depth[static_cast<std::size_t>(order[k])] !=
                      tree_->tree.depth[static_cast<std::size_t>(order[k - 1])])
      start.push_back(k);
  start.push_back(order.size());
  return start;
}

ParallelTasks::Tree StepSchedules::tree_view() const {
  return {&tree_->tree.bfs_order, &level_start_, &tree_->tree.children, &roots_, &subtree_size_};
}

ParallelTasks::Tree StepSchedules::task_tree_view() const {
  return {&task_order_, &task_level_start_, &task_children_, &roots_, &task_subtree_size_};
}

void StepSchedules::run(InertiaSystem& system, double dt, const Vec3& gravity, double frame_seconds,
                        StepStats& stats) {
  if (system.settings.timestep == TimestepMode::procedural) {
    stats.add("frames", frame_seconds);
    const auto t0 = Clock::now();
    procedural(system, dt, gravity);
    stats.iterations += static_cast<int>(system.solves(tree_->tree.bfs_order));
    stats.add("domains", seconds_since(t0));
  } else if (!system.settings.stage_timing) {
    stats.add("frames", frame_seconds);
    const auto t0 = Clock::now();
    fused(system, dt, gravity);
    stats.iterations += static_cast<int>(system.solves(task_order_));
    stats.add("domains", seconds_since(t0));
    system.report_fractures();
  } else {
    stage_timed(system, dt, gravity, frame_seconds, stats);
    system.report_fractures();
  }
}

void StepSchedules::fused(InertiaSystem& system, double dt, const Vec3& gravity) {
  system.tasks.down_tree(task_tree_view(), system.settings.schedule, [&](int i) {
    DomainState& s = system.states[static_cast<std::size_t>(i)];
    s.solves = system.step_domain(i, dt, gravity, nullptr);
    // The rigid leaves straight from the interfaces just made (their own domain's data is not
    // read); a frozen one (a detached subtree's) the general way.
    const auto& leaves = rigid_leaves_[static_cast<std::size_t>(i)];
    for (std::size_t l = 0; l < leaves.size(); ++l) {
      const auto [j, k] = leaves[l];
      if (l + 2 < leaves.size()) system.prefetch_frame(leaves[l + 2].first);
      if (system.fracture.frozen(static_cast<std::size_t>(j)))
        system.frame_stage(j, dt, gravity, nullptr);
      else
        InertiaSystem::place_child_frame(system.states[static_cast<std::size_t>(j)], s.p, s.R,
                                         s.motion, s.child_itf[static_cast<std::size_t>(k)]);
    }
  });
}

void StepSchedules::stage_timed(InertiaSystem& system, double dt, const Vec3& gravity,
                                double frame_seconds, StepStats& stats) {
  const std::vector<int>& order = tree_->tree.bfs_order;
  double t_frames = frame_seconds, t_sys = 0, t_dyn = 0;
  for (std::size_t level = 0; level + 1 < level_start_.size(); ++level) {
    const std::size_t b = level_start_[level];
    const std::size_t count = level_start_[level + 1] - b;
    auto each = [&](auto&& body) {
      system.tasks.for_each(count, [&](std::size_t k) { body(order[b + k]); });
    };
    auto t0 = Clock::now();
    each([&](int i) { system.frame_stage(i, dt, gravity, nullptr); });
    t_frames += seconds_since(t0);
    t0 = Clock::now();
    each([&](int i) { system.assemble_forces(i, gravity); });
    t_sys += seconds_since(t0);
    t0 = Clock::now();
    each([&](int i) {
      system.states[static_cast<std::size_t>(i)].solves = system.advance_dynamics(i, dt);
    });
    t_dyn += seconds_since(t0);
    t0 = Clock::now();
    each([&](int i) { system.update_child_interfaces(i); });
    t_frames += seconds_since(t0);
  }
  stats.iterations += static_cast<int>(system.solves(order));
  stats.add("frames", t_frames);
  stats.add("system forces", t_sys);
  stats.add("dynamics", t_dyn);
}

void StepSchedules::procedural(InertiaSystem& system, double dt, const Vec3& gravity) {
  plan_substeps(system, dt);
  system.tasks.down_tree(tree_view(), system.settings.schedule, [&](int i) {
    system.states[static_cast<std::size_t>(i)].solves = step_substeps(system, i, dt, gravity);
  });
}

void StepSchedules::plan_substeps(const InertiaSystem& system, double dt) {
  if (dt == substeps_dt_) return;
  const DomainTree& tree = *tree_;
  const std::size_t d = tree.domains.size();
  std::vector<double> omega(d, 0.0);
  for (const InertiaDomain& dom : tree.domains) {
    const auto i = static_cast<std::size_t>(dom.id);
    const DomainState& s = system.states[i];
    // K' = α s K, M' = M/α (unit M): ω' = α √s ω.
    if (dom.r() > 0) omega[i] = 2 * M_PI * domain_frequency_[i] * s.alpha * std::sqrt(s.stiffness);
  }
  const double quality = system.settings.timestep_quality;
  const std::vector<int> N = substep_exponents(omega, tree.tree.parent, tree.tree.bfs_order, dt,
                                               quality, kMaxSubstepExponent);
  substeps_.assign(d, 1);
  std::map<int, int> histogram;  // substeps → domains
  for (std::size_t i = 0; i < d; ++i) {
    substeps_[i] = 1 << N[i];
    ++histogram[substeps_[i]];
  }
  inbox_.assign(d, {});
  for (const InertiaDomain& dom : tree.domains)
    if (dom.parent >= 0) {
      const SubstepExchange x{substeps_[static_cast<std::size_t>(dom.parent)],
                              substeps_[static_cast<std::size_t>(dom.id)]};
      inbox_[static_cast<std::size_t>(dom.id)].resize(static_cast<std::size_t>(x.slots()));
    }
  std::string counts;
  for (const auto& [n, domains] : histogram) counts += fmt::format(" {}×{}", domains, n);
  log::info("inertia: procedural timestep (Q = {:g}, dt = {:g} s): domains × substeps:{}", quality,
            dt, counts);
  substeps_dt_ = dt;
}

long StepSchedules::step_substeps(InertiaSystem& system, int i, double dt, const Vec3& gravity) {
  const auto ii = static_cast<std::size_t>(i);
  const InertiaDomain& dom = tree_->domains[ii];
  const DomainState& s = system.states[ii];
  const int n = substeps_[ii];
  const double h = dt / n;
  long iterations = 0;
  for (int e = 0; e < n; ++e) {
    const ParentSlot* from = nullptr;  // the root: its own frame
    if (dom.parent >= 0) {
      const SubstepExchange x{substeps_[static_cast<std::size_t>(dom.parent)], n};
      from = &inbox_[ii][static_cast<std::size_t>(x.read_slot(e))];
    }
    iterations += system.step_domain(i, h, gravity, from);
    for (std::size_t k = 0; k < dom.children.size(); ++k) {
      const auto j = static_cast<std::size_t>(dom.children[k]);
      const SubstepExchange x{n, substeps_[j]};
      if (const int w = x.write_slot(e); w >= 0)
        inbox_[j][static_cast<std::size_t>(w)] = {s.p, s.R, s.motion, s.child_itf[k]};
    }
  }
  return iterations;
}

}  // namespace substruct::inertia
