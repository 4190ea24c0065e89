// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cache of frequency matching's factors (Zhao 2014, §4.6): one file per key in the cache
// directory, in the shared checked record format (io/checked_record.hpp), so that a stale,
// truncated or corrupt file is not trusted and the factors are computed again.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "substruct/coupling/coupling_method.hpp"
#include "substruct/reduction/domain_models.hpp"

namespace substruct::inertia {

class InertiaSystem;

/// A hash of everything the matching factors depend on: the models, the tree, the fixed
/// vertices, each domain's r, the lumping, root, Newton iterations, γ, ε, the scene's Rayleigh
/// coefficients and, when used, the procedural stiffness and damping of every domain.
std::uint64_t frequency_matching_hash(const InertiaSystem& system, const PrecomputeContext& context,
                                      const std::vector<DomainModel>& models);

/// The file of key `hash` in `cache_dir` (empty when cache_dir is).
std::filesystem::path frequency_matching_file(const std::filesystem::path& cache_dir,
                                              std::uint64_t hash);

/// The factors stored in `file` under `hash`, when it holds exactly factor.size() positive
/// finite ones; false (and a warning naming the file when it is unreadable) otherwise.
bool read_matching_factors(const std::filesystem::path& file, std::uint64_t hash,
                           std::vector<double>& factor);

/// Stores the factors (atomically; a failure is a warning: the run goes on without the cache).
void write_matching_factors(const std::filesystem::path& file, std::uint64_t hash,
                            const std::vector<double>& factor);

}  // namespace substruct::inertia
