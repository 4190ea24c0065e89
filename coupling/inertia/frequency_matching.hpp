// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Per-domain frequency matching (Zhao 2014, §4.6): each domain's frequency scale α is chosen so
// that the lowest vibration frequency of the subtree rooted at it, simulated reduced and coupled,
// equals the lowest frequency of the same subtree in unreduced FEM, its interface to the parent
// held. Reduced subtrees vibrate too fast for two reasons the thesis names: a small basis is
// stiffer than the mesh, and lumping a child's mass at the interface shortens the pendulum.
#include <functional>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/eigen_solver.hpp"

namespace substruct::inertia {

/// The domains of the subtree of `tree` rooted at `domain`, parents before children.
std::vector<int> subtree_domains(const TreeView& tree, int domain);

/// The lowest vibration mode of a subtree in unreduced FEM.
struct SubtreeMode {
  double frequency_hz = 0;       // √λ / 2π of K φ = λ M φ at rest
  Eigen::VectorXd displacement;  // 3N over the scene's vertices, zero outside; largest |u_v| = 1
  Index peak_vertex = -1;        // the vertex where the mode moves most
};

/// Of the tet mesh of the subtree's domains, held at the interface to the parent of `domain` and
/// at the scene's fixed vertices inside it (without either, the free body's lowest non-rigid
/// mode). Throws Error when the eigen solve fails.
SubtreeMode subtree_lowest_mode(const Scene& scene, const TreeView& tree, int domain,
                                EigenSolver& solver);

/// The result of match_frequency.
struct FrequencyMatch {
  double alpha = 1;        // the scale found
  double initial_hz = 0;   // reduced_hz(1)
  double matched_hz = 0;   // reduced_hz(alpha)
  int evaluations = 0;     // calls of reduced_hz
  bool converged = false;  // |matched / target − 1| ≤ tolerance
};

/// The α in [1/20, 20] with reduced_hz(α) = target_hz, by secant steps on log f against log α,
/// starting at α = 1 with slope 1 (a lone domain's frequencies are proportional to its α; a
/// subtree's rise more slowly). Stops within `tolerance` (relative) or after `max_evaluations`
/// and returns the best α seen. reduced_hz must return a positive finite frequency; a NaN ends
/// the search with the best so far.
FrequencyMatch match_frequency(double target_hz, const std::function<double(double)>& reduced_hz,
                               double tolerance = 0.005, int max_evaluations = 8);

}  // namespace substruct::inertia
