// SPDX-License-Identifier: GPL-3.0-or-later
#include "frequency_matching.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/domains/sub_mesh.hpp"
#include "substruct/reduction/linear_modes.hpp"

namespace substruct::inertia {

std::vector<int> subtree_domains(const TreeView& tree, int domain) {
  std::vector<int> domains{domain};
  for (std::size_t k = 0; k < domains.size(); ++k)
    for (int c : tree.children[static_cast<std::size_t>(domains[k])]) domains.push_back(c);
  return domains;
}

SubtreeMode subtree_lowest_mode(const Scene& scene, const TreeView& tree, int domain,
                                EigenSolver& solver) {
  const Decomposition& decomposition = scene.decomposition;
  std::vector<Index> elements;
  for (int d : subtree_domains(tree, domain)) {
    const auto& own = decomposition.domains[static_cast<std::size_t>(d)].global_element;
    elements.insert(elements.end(), own.begin(), own.end());
  }
  std::sort(elements.begin(), elements.end());
  const SubMesh sub = extract_sub_mesh(scene.mesh, elements, domain);

  // Held: the interface to the parent and the scene's fixed vertices inside the subtree.
  DomainBoundary boundary;
  const int interface = tree.parent_interface[static_cast<std::size_t>(domain)];
  if (interface >= 0)
    for (Index g : decomposition.interfaces[static_cast<std::size_t>(interface)].vertices)
      if (const Index l = sub.local_vertex(g); l >= 0) boundary.fixed_vertices.push_back(l);
  for (Index g : scene.fixed_vertices)
    if (const Index l = sub.local_vertex(g); l >= 0) boundary.fixed_vertices.push_back(l);
  boundary.remove_rigid_modes = boundary.fixed_vertices.empty();

  EigenPairs pairs;
  try {
    pairs = linear_modes(sub.mesh, boundary, 1, solver);
  } catch (const Error& e) {
    throw Error(
        fmt::format("inertia: frequency matching: the lowest mode of the subtree rooted at "
                    "domain {} ({} elements): {}",
                    domain, elements.size(), e.what()));
  }
  SubtreeMode mode;
  mode.frequency_hz = std::sqrt(std::max(pairs.values[0], 0.0)) / (2 * std::numbers::pi);
  mode.displacement = Eigen::VectorXd::Zero(3 * scene.mesh.num_vertices());
  double peak = 0;
  for (std::size_t l = 0; l < sub.global_vertex.size(); ++l) {
    const Vec3 u = pairs.vectors.col(0).segment<3>(3 * static_cast<Index>(l));
    const Index g = sub.global_vertex[l];
    mode.displacement.segment<3>(3 * g) = u;
    if (u.norm() > peak) {
      peak = u.norm();
      mode.peak_vertex = g;
    }
  }
  if (!(peak > 0))
    throw Error(fmt::format(
        "inertia: frequency matching: the subtree rooted at domain {} has no free vertex", domain));
  mode.displacement /= peak;
  return mode;
}

FrequencyMatch match_frequency(double target_hz, const std::function<double(double)>& reduced_hz,
                               double tolerance, int max_evaluations) {
  if (!(target_hz > 0) || !std::isfinite(target_hz))
    throw Error(fmt::format("frequency matching: the target frequency must be positive, found {}",
                            target_hz));
  const double bound = std::log(20.0);
  const double log_target = std::log(target_hz);
  FrequencyMatch best;
  double best_miss = INFINITY;
  // g(x) = log f(e^x) − log f_target, driven to 0.
  double x = 0, previous_x = NAN, previous_g = NAN, slope = 1;
  for (int k = 0; k < max_evaluations; ++k) {
    const double alpha = std::exp(x);
    const double f = reduced_hz(alpha);
    ++best.evaluations;
    if (!(f > 0) || !std::isfinite(f)) break;
    if (k == 0) best.initial_hz = f;
    const double g = std::log(f) - log_target;
    if (std::abs(g) < best_miss) {
      best_miss = std::abs(g);
      best.alpha = alpha;
      best.matched_hz = f;
    }
    if (std::abs(f / target_hz - 1) <= tolerance) break;
    if (std::isfinite(previous_g) && x != previous_x)
      slope = std::clamp((g - previous_g) / (x - previous_x), 0.05, 1.5);
    previous_x = x;
    previous_g = g;
    x = std::clamp(x - g / slope, -bound, bound);
    if (x == previous_x) break;  // at a bound and still pushing outwards
  }
  best.converged = std::abs(best.matched_hz / target_hz - 1) <= tolerance;
  return best;
}

}  // namespace substruct::inertia
