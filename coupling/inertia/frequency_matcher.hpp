// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Frequency matching of the domain tree (Zhao 2014, §4.6), in precompute, leaves first: each
// deformable domain's α is chosen so that the reduced subtree rooted at it, its children matched
// already and everything outside it frozen at rest, vibrates at the lowest frequency of the same
// subtree in unreduced FEM (frequency_matching.hpp). The factors found multiply each domain's α;
// they come from the cache directory when it holds them (frequency_matching_cache.hpp).
#include <functional>
#include <vector>

#include <Eigen/Core>

#include "substruct/coupling/coupling_method.hpp"
#include "substruct/reduction/domain_models.hpp"

namespace substruct::inertia {

class InertiaSystem;

/// The coupled simulation the matcher releases subtrees in: back to rest displaced by u0 (3N),
/// and one step of dt without loads.
struct MatchingRun {
  std::function<void(const Eigen::VectorXd& u0)> reset;
  std::function<void(double dt)> step;
};

/// Matches every deformable domain's α and multiplies it into its state (with the precompute
/// report's lines). `use_cache`: [reduction] cache.
void match_frequencies(InertiaSystem& system, const PrecomputeContext& context,
                       const std::vector<DomainModel>& models, bool use_cache,
                       const MatchingRun& run);

}  // namespace substruct::inertia
