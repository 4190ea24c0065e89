// SPDX-License-Identifier: GPL-3.0-or-later
#include "model_plan.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/fnv1a.hpp"
#include "substruct/domains/interface.hpp"
#include "substruct/reduction/mode_count.hpp"

namespace substruct::detail {

namespace {

/// What makes two domains' models interchangeable apart from their geometry and materials.
std::uint64_t instancing_key(const DomainBoundary& boundary, int r) {
  Fnv1a h;
  h.add_i64(r);
  h.add_u64(boundary.remove_rigid_modes ? 1 : 0);
  h.add_u64(boundary.fixed_vertices.size());
  for (Index v : boundary.fixed_vertices) h.add_i64(v);
  return h.digest();
}

// Fixed vertices on a point or a line leave the domain free to rotate about them.
void check_boundary(const ModelRequest& q) {
  const auto& fixed = q.boundary.fixed_vertices;
  if (fixed.empty() || Index(fixed.size()) >= q.mesh->num_vertices()) return;
  const int rank = affine_rank(q.mesh->vertices, fixed);
  if (rank < 2)
    throw Error(fmt::format(
        "domain {}: its {} fixed vertices lie on a {}, which leaves it free to rotate; a basis "
        "needs fixed vertices that span a plane (use [reduction] boundary = free, or fix more "
        "vertices)",
        q.domain, fixed.size(), rank == 0 ? "point" : "line"));
}

}  // namespace

std::vector<int> mode_counts(const std::vector<ModelRequest>& requests,
                             const ReductionSettings& settings) {
  Index max_elements = 1;
  for (const ModelRequest& q : requests)
    max_elements = std::max(max_elements, q.mesh->num_elements());
  std::vector<int> r;
  for (const ModelRequest& q : requests) {
    if (Index(q.boundary.fixed_vertices.size()) == q.mesh->num_vertices())
      r.push_back(0);
    else if (settings.mode_count == ModeCountPolicy::fixed)
      r.push_back(settings.modes);
    else
      r.push_back(mode_count(q.mesh->num_elements(), max_elements, settings.r_max));
  }
  return r;
}

bool is_large(const ModelRequest& q, const ReductionSettings& settings) {
  const Index free = 3 * (q.mesh->num_vertices() - Index(q.boundary.fixed_vertices.size()));
  return settings.shared_solve_dofs > 0 && free > settings.shared_solve_dofs;
}

ModelPlan plan_models(const std::vector<ModelRequest>& requests, MaterialModel material,
                      const ReductionSettings& settings) {
  for (const ModelRequest& q : requests) check_boundary(q);
  ModelPlan plan;
  plan.r = mode_counts(requests, settings);
  // Rigid requests after the count: the others' (adaptive) sizes are as without the flag.
  for (std::size_t i = 0; i < requests.size(); ++i)
    if (requests[i].rigid) plan.r[i] = 0;
  // A large domain's model is keyed with the solver that shares a solve (slepc for auto).
  ReductionSettings shared = settings;
  shared.solver_signature = settings.shared_solver_signature;
  std::vector<std::uint64_t> keys;
  std::vector<const TetMesh*> meshes;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const bool large = is_large(requests[i], settings);
    plan.large.push_back(large ? 1 : 0);
    keys.push_back(instancing_key(requests[i].boundary, plan.r[i]));  // instances: both large
    plan.hashes.push_back(model_inputs_hash(*requests[i].mesh, material, requests[i].boundary,
                                            plan.r[i], large ? shared : settings));
    meshes.push_back(requests[i].mesh);
  }
  if (settings.instancing) {
    plan.classes = find_instances(meshes, keys);
  } else {
    for (std::size_t i = 0; i < requests.size(); ++i)
      plan.classes.push_back(InstanceClass{{Instance{static_cast<int>(i), {}}}});
  }
  return plan;
}

std::string computed_summary(const ReducedModel& model, double seconds) {
  const ReducedBasis& b = model.basis;
  return fmt::format(
      "computed in {:.3g} s (modes {:.3g} s, derivatives {:.3g} s, pca {:.3g} s, {} {:.3g} s)",
      seconds, b.seconds_assembly + b.seconds_linear_modes, b.seconds_derivatives, b.seconds_pca,
      force_stage_name(model.force_kind), model.seconds_force_model);
}

std::string force_stage_name(ForceModelKind kind) {
  return kind == ForceModelKind::polynomial ? "polynomial" : "cubature";
}

}  // namespace substruct::detail
