// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a set of model requests needs before anything is computed: each one's basis size, cache
// key and instance class (shared by provide_domain_models and the distributed precompute).
#include <cstdint>
#include <string>
#include <vector>

#include "substruct/reduction/domain_models.hpp"

namespace substruct::detail {

struct ModelPlan {
  std::vector<int> r;                  // basis size per request (0: rigid)
  std::vector<std::uint64_t> hashes;   // model_inputs_hash per request
  std::vector<InstanceClass> classes;  // over request indices; one class per request without
                                       // instancing
  std::vector<char> large;             // above settings.shared_solve_dofs (shared eigen solve)
};

/// Whether `q` has more free DOFs than settings.shared_solve_dofs (when that is set).
bool is_large(const ModelRequest& q, const ReductionSettings& settings);

/// Checks every request's boundary (Error naming the domain when its fixed vertices lie on a
/// point or a line), then sizes, keys and groups them.
ModelPlan plan_models(const std::vector<ModelRequest>& requests, MaterialModel material,
                      const ReductionSettings& settings);

/// The basis size of each request: settings.modes (fixed) or mode_count over these meshes
/// (adaptive); 0 (rigid) when every vertex is fixed.
std::vector<int> mode_counts(const std::vector<ModelRequest>& requests,
                             const ReductionSettings& settings);

/// "computed in 1.2 s (modes 0.3 s, derivatives 0.6 s, pca 0 s, polynomial 0.3 s)".
std::string computed_summary(const ReducedModel& model, double seconds);

/// "polynomial" or "cubature".
std::string force_stage_name(ForceModelKind kind);

}  // namespace substruct::detail
