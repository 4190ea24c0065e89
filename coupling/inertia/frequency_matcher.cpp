// SPDX-License-Identifier: GPL-3.0-or-later
#include "frequency_matcher.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "frequency_matching.hpp"
#include "frequency_matching_cache.hpp"
#include "inertia_system.hpp"
#include "substruct/core/damped_vibration.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::inertia {
namespace {

// The lowest frequency of the reduced subtree `members` (its root first) released from the
// unreduced subtree's mode at a small amplitude, everything else held at rest, no loads: the
// dominant vibration of the motion's coordinate along that mode, s(t) = Σ_v φ_v · u_v(t) (the
// mode's own shape filters out the other vibrations, e.g. a branch's under a swaying trunk),
// over six periods of the FEM frequency.
double reduced_subtree_frequency(InertiaSystem& system, const MatchingRun& run,
                                 const std::vector<int>& members, const SubtreeMode& mode) {
  const Scene& scene = *system.scene;
  run.reset((1e-4 * scene.size()) * mode.displacement);
  std::vector<char> inside(system.tree.domains.size(), 0);
  for (int i : members) inside[static_cast<std::size_t>(i)] = 1;
  system.fracture.freeze_outside(inside);
  // The vertices that move in the mode, each with a subtree domain holding it.
  std::vector<std::pair<Index, int>> probes;
  std::vector<char> seen(static_cast<std::size_t>(scene.mesh.num_vertices()), 0);
  for (int i : members)
    for (Index g : system.tree.domains[static_cast<std::size_t>(i)].global_vertex)
      if (!seen[static_cast<std::size_t>(g)] &&
          mode.displacement.segment<3>(3 * g).squaredNorm() > 1e-6) {
        seen[static_cast<std::size_t>(g)] = 1;
        probes.emplace_back(g, i);
      }
  const auto coordinate = [&] {
    double s = 0;
    for (const auto& [g, i] : probes)
      s += mode.displacement.segment<3>(3 * g).dot(system.world_position(i, g) -
                                                   scene.mesh.vertices.row(g).transpose());
    return s;
  };
  const int steps = 240;
  const double dt = 1 / (40 * mode.frequency_hz);
  Eigen::VectorXd signal(steps + 1);
  signal[0] = coordinate();
  for (int k = 1; k <= steps; ++k) {
    run.step(dt);
    signal[k] = coordinate();
  }
  return dominant_vibration(signal, dt).frequency_hz;
}

// Whether domain d holds any of the scene's fixed vertices.
bool has_fixed_vertices(const InertiaSystem& system, int d) {
  const InertiaDomain& dom = system.tree.domains[static_cast<std::size_t>(d)];
  for (Index v : system.scene->fixed_vertices)
    if (std::binary_search(dom.global_vertex.begin(), dom.global_vertex.end(), v)) return true;
  return false;
}

}  // namespace

// Leaves first: a subtree is matched with its children matched already and everything outside
// it held at rest.
void match_frequencies(InertiaSystem& system, const PrecomputeContext& context,
                       const std::vector<DomainModel>& models, bool use_cache,
                       const MatchingRun& run) {
  const Scene& scene = context.scene;
  std::vector<double> factor(system.tree.domains.size(), 1.0);
  const std::uint64_t hash = frequency_matching_hash(system, context, models);
  const std::filesystem::path file =
      frequency_matching_file(use_cache ? context.cache_dir : std::filesystem::path(), hash);
  if (!read_matching_factors(file, hash, factor)) {
    for (DomainState& s : system.states)
      if (s.newmark) s.newmark->set_frequency_scale(1);
    const std::unique_ptr<EigenSolver> solver = context.solvers.eigen();
    Progress progress("inertia: frequency matching", system.tree.domains.size());
    std::vector<std::string> lines;
    // A leaf whose model is an instance of another leaf's (a moved, turned or uniformly scaled
    // copy, held at its interface alike) has that leaf's frequency ratio, so its factor.
    std::map<int, double> leaf_factor;  // by representative
    const auto instance_leaf = [&](int d) {
      const auto dd = static_cast<std::size_t>(d);
      return system.tree.domains[dd].children.empty() && dd < models.size() &&
             system.tree.tree.parent[dd] >= 0 && !has_fixed_vertices(system, d);
    };
    int reused = 0;
    for (auto it = system.tree.tree.bfs_order.rbegin(); it != system.tree.tree.bfs_order.rend();
         ++it) {
      const int d = *it;
      progress.advance();
      if (system.tree.domains[static_cast<std::size_t>(d)].r() == 0) continue;  // rigid: no α
      const int representative = models[static_cast<std::size_t>(d)].representative;
      if (instance_leaf(d) && instance_leaf(representative))
        if (auto known = leaf_factor.find(representative); known != leaf_factor.end()) {
          factor[static_cast<std::size_t>(d)] = known->second;
          system.states[static_cast<std::size_t>(d)].newmark->set_frequency_scale(known->second);
          ++reused;
          continue;
        }
      const SubtreeMode mode = subtree_lowest_mode(scene, system.tree.tree, d, *solver);
      const std::vector<int> members = subtree_domains(system.tree.tree, d);
      auto& newmark = *system.states[static_cast<std::size_t>(d)].newmark;
      const FrequencyMatch match = match_frequency(mode.frequency_hz, [&](double alpha) {
        newmark.set_frequency_scale(alpha);
        return reduced_subtree_frequency(system, run, members, mode);
      });
      // A match that misses by more than 5 % keeps α = 1: the reduced subtree's lowest
      // vibration does not follow this domain's α (it is another domain's), and forcing it
      // would distort this one.
      const bool usable = std::abs(match.matched_hz / mode.frequency_hz - 1) <= 0.05;
      const double alpha = usable ? match.alpha : 1.0;
      factor[static_cast<std::size_t>(d)] = alpha;
      newmark.set_frequency_scale(alpha);
      if (instance_leaf(d) && instance_leaf(representative)) leaf_factor[representative] = alpha;
      lines.push_back(fmt::format(
          "inertia: frequency matching: domain {} ({} domains in its subtree): FEM {:.4g} Hz, "
          "reduced {:.4g} Hz → α = {:.4g} gives {:.4g} Hz ({} runs){}",
          d, members.size(), mode.frequency_hz, match.initial_hz, match.alpha, match.matched_hz,
          match.evaluations,
          usable ? (match.converged ? "" : " (within 5 %)")
                 : ": more than 5 % off, this domain keeps α = 1"));
    }
    progress.finish();
    for (const std::string& line : lines) log::info("{}", line);
    if (reused > 0)
      log::info("inertia: frequency matching: {} instanced leaves took their representative's α",
                reused);
    write_matching_factors(file, hash, factor);
  } else {
    log::info("inertia: frequency matching: the factors of {} domains from {}", factor.size(),
              file.string());
  }
  double low = INFINITY, high = 0;
  for (const InertiaDomain& dom : system.tree.domains) {
    DomainState& s = system.states[static_cast<std::size_t>(dom.id)];
    if (!s.newmark) continue;
    const double f = factor[static_cast<std::size_t>(dom.id)];
    low = std::min(low, f);
    high = std::max(high, f);
    s.alpha *= f;
    s.newmark->set_frequency_scale(s.alpha);
  }
  log::info("inertia: frequency matching: α factors from {:.4g} to {:.4g}", low, high);
  if (context.stats) {
    context.stats->report("matched α min", low);
    context.stats->report("matched α max", high);
  }
}

}  // namespace substruct::inertia
