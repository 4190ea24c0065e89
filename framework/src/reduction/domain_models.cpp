// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/domain_models.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "substruct/core/error.hpp"
#include "substruct/core/interrupt.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/memory_budget.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/reduction/reduced_model_memory.hpp"

#include "detail/model_plan.hpp"

namespace substruct {

namespace {

/// The scene's fixed vertices that `sub` uses, as local ids (ascending). Both lists are sorted;
/// the shorter is walked and each entry looked up in the longer (a forest's fixed ground has 10⁴
/// vertices, each of its 10⁵ leaves a few dozen).
std::vector<Index> local_fixed_vertices(const Scene& scene, const SubMesh& sub) {
  const std::vector<Index>& fixed = scene.fixed_vertices;
  std::vector<Index> local;
  if (sub.global_vertex.size() < fixed.size()) {
    for (std::size_t l = 0; l < sub.global_vertex.size(); ++l)
      if (std::binary_search(fixed.begin(), fixed.end(), sub.global_vertex[l]))
        local.push_back(static_cast<Index>(l));
  } else {
    for (Index g : fixed)
      if (const Index l = sub.local_vertex(g); l >= 0) local.push_back(l);
  }
  return local;
}

std::vector<Index> sorted_unique(std::vector<Index> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::string describe(const SimilarityTransform& t) {
  // Rounding leftovers of exact copies (1e-35 m) print as 0.
  const auto tidy = [&t](double x) {
    return std::abs(x) <= 1e-12 * t.translation.norm() ? 0.0 : x;
  };
  std::string text;
  if (t.scale != 1) text += fmt::format("scale {:.6g}", t.scale);
  const Eigen::AngleAxisd rotation(t.rotation);
  if (rotation.angle() > 1e-12) {
    const Vec3& a = rotation.axis();
    text +=
        fmt::format("{}rotation {:.4g}° about ({:.3f}, {:.3f}, {:.3f})", text.empty() ? "" : ", ",
                    rotation.angle() * 180 / std::numbers::pi, a.x(), a.y(), a.z());
  }
  text += fmt::format("{}translation ({:.4g}, {:.4g}, {:.4g})", text.empty() ? "" : ", ",
                      tidy(t.translation.x()), tidy(t.translation.y()), tidy(t.translation.z()));
  return text;
}

/// Sums of the stage timings of the models computed in this run.
struct StageTotals {
  double modes = 0, derivatives = 0, pca = 0, forces = 0;
  int computed = 0, loaded = 0, instances = 0, rigid = 0;
  double load_seconds = 0, instance_seconds = 0;
};

}  // namespace

std::string_view to_string(ModelOrigin origin) {
  switch (origin) {
    case ModelOrigin::computed:
      return "computed";
    case ModelOrigin::cache:
      return "cache";
    case ModelOrigin::instance:
      return "instance";
    case ModelOrigin::rigid:
      return "rigid";
  }
  return "computed";
}

DomainBoundary domain_boundary(const Scene& scene, const TreeView* tree, int domain,
                               BoundaryPolicy policy) {
  const SubMesh& sub = scene.decomposition.domains.at(static_cast<std::size_t>(domain));
  DomainBoundary boundary;
  if (policy == BoundaryPolicy::free) {
    boundary.remove_rigid_modes = true;
    return boundary;
  }
  std::vector<Index> fixed = local_fixed_vertices(scene, sub);
  if (policy == BoundaryPolicy::parent_interface) {
    if (tree == nullptr)
      throw Error("domain_boundary: the parent-interface boundary needs the domain tree");
    const int interface = tree->parent_interface.at(static_cast<std::size_t>(domain));
    if (interface >= 0)
      for (Index g :
           scene.decomposition.interfaces.at(static_cast<std::size_t>(interface)).vertices)
        if (const Index l = sub.local_vertex(g); l >= 0) fixed.push_back(l);
  }
  boundary.fixed_vertices = sorted_unique(std::move(fixed));
  boundary.remove_rigid_modes = boundary.fixed_vertices.empty();
  return boundary;
}

std::vector<int> domain_mode_counts(const Scene& scene, const ReductionSettings& settings,
                                    const std::vector<DomainBoundary>& boundaries) {
  std::vector<ModelRequest> requests;
  for (const SubMesh& sub : scene.decomposition.domains)
    requests.push_back(
        {sub.domain, &sub.mesh, boundaries.at(static_cast<std::size_t>(sub.domain))});
  return detail::mode_counts(requests, settings);
}

std::vector<DomainModel> provide_domain_models(const std::vector<ModelRequest>& requests,
                                               MaterialModel material,
                                               const ReductionSettings& settings,
                                               const SolverProvider& solvers, ModelCache& cache,
                                               bool share_turned) {
  const auto start = Clock::now();
  const auto d = static_cast<int>(requests.size());
  const detail::ModelPlan plan = detail::plan_models(requests, material, settings);
  const std::vector<int>& r = plan.r;
  const std::vector<std::uint64_t>& hashes = plan.hashes;
  const std::vector<InstanceClass>& classes = plan.classes;
  std::vector<const TetMesh*> meshes;
  for (const ModelRequest& q : requests) meshes.push_back(q.mesh);
  // Large domains (settings.shared_solve_dofs): solvers that can share a solve.
  SolverProvider shared_solvers = solvers;
  shared_solvers.set_shared_solves(true);

  // Memory: every representative's model is kept; one at a time is being computed.
  double kept = 0, transient = 0;
  std::string advice;
  Index largest_domain = 0;
  for (const InstanceClass& c : classes) {
    const auto ri = static_cast<std::size_t>(c.representative());
    const ModelMemory m = reduced_model_memory(meshes[ri]->num_vertices(),
                                               meshes[ri]->num_elements(), r[ri], settings);
    kept += m.kept;
    if (m.transient >= transient) advice = m.advice;
    transient = std::max(transient, m.transient);
    largest_domain = std::max(largest_domain, meshes[ri]->num_elements());
  }
  if (settings.force_model == ForceModelKind::cubature &&
      settings.cubature_elements > largest_domain)
    log::info(
        "[reduction] cubature_elements = {}: a domain has at most {} elements; each keeps at "
        "most its own",
        settings.cubature_elements, largest_domain);
  reserve_memory(fmt::format("the reduced models of {} domain{} ({} to compute or load)", d,
                             d == 1 ? "" : "s", classes.size()),
                 kept + transient, advice);

  const bool use_cache = settings.cache && cache.enabled();
  std::vector<DomainModel> result(static_cast<std::size_t>(d));
  StageTotals totals;
  std::size_t total_elements = 0;
  for (const TetMesh* mesh : meshes)
    total_elements += static_cast<std::size_t>(mesh->num_elements());
  Progress progress("reduced models", total_elements);

  for (const InstanceClass& c : classes) {
    const auto ri = static_cast<std::size_t>(c.representative());
    const TetMesh& mesh = *meshes[ri];
    const DomainBoundary& boundary = requests[ri].boundary;
    const int rep = requests[ri].domain;
    DomainModel& dm = result[ri];
    dm.domain = rep;
    dm.representative = rep;
    dm.inputs_hash = hashes[ri];
    const auto domain_start = Clock::now();
    const std::string label = fmt::format("domain {}", rep);
    try {
      if (r[ri] == 0) {
        dm.model = std::make_shared<ReducedModel>(
            compute_reduced_model(mesh, material, boundary, 0, settings, solvers, label));
        dm.origin = ModelOrigin::rigid;
        ++totals.rigid;
        log::info("domain {}: rigid (r = 0{})", rep,
                  boundary.fixed_vertices.size() == std::size_t(mesh.num_vertices())
                      ? ", all vertices fixed"
                      : "");
      } else if (std::optional<ReducedModel> loaded =
                     use_cache ? cache.load(hashes[ri], &mesh) : std::nullopt) {
        dm.model = std::make_shared<ReducedModel>(std::move(*loaded));
        dm.origin = ModelOrigin::cache;
        dm.cache_file = cache.file(hashes[ri]);
        ++totals.loaded;
        totals.load_seconds += seconds_since(domain_start);
        log::info("domain {}: loaded from cache ({})", rep, dm.cache_file.string());
      } else {
        auto model = std::make_shared<ReducedModel>(
            compute_reduced_model(mesh, material, boundary, r[ri], settings,
                                  plan.large[ri] ? shared_solvers : solvers, label));
        dm.origin = ModelOrigin::computed;
        const ReducedBasis& b = model->basis;
        totals.modes += b.seconds_assembly + b.seconds_linear_modes;
        totals.derivatives += b.seconds_derivatives;
        totals.pca += b.seconds_pca;
        totals.forces += model->seconds_force_model;
        ++totals.computed;
        std::string stored;
        if (use_cache) {
          try {
            dm.cache_file = cache.store(hashes[ri], *model);
            stored = ", cached";
          } catch (const Error& e) {
            log::warn("domain {}: not cached: {}", rep, e.what());
          }
        }
        log::info("domain {}: {}{}", rep,
                  detail::computed_summary(*model, seconds_since(domain_start)), stored);
        dm.model = std::move(model);
      }
    } catch (const Interrupted&) {
      throw;  // Ctrl-C is not this domain's error
    } catch (const Error& e) {
      const std::string message = e.what();
      if (message.starts_with(label + ":")) throw;
      throw Error(fmt::format("{}: {}", label, message));
    }
    dm.seconds = seconds_since(domain_start);
    progress.advance(static_cast<std::size_t>(mesh.num_elements()));

    for (std::size_t k = 1; k < c.members.size(); ++k) {
      const Instance& instance = c.members[k];
      const auto ii = static_cast<std::size_t>(instance.domain);
      const auto instance_start = Clock::now();
      DomainModel& im = result[ii];
      im.domain = requests[ii].domain;
      im.representative = rep;
      im.transform = instance.transform;
      im.inputs_hash = hashes[ii];
      im.origin = dm.origin == ModelOrigin::rigid ? ModelOrigin::rigid : ModelOrigin::instance;
      // A rigid model (no basis) is the same for any turn of its domain.
      const bool translated_only =
          instance.transform.scale == 1 &&
          (instance.transform.rotation == Mat3::Identity() || dm.model->r() == 0);
      im.turned_representative = !translated_only && share_turned && instance.transform.scale == 1;
      im.model =
          translated_only || im.turned_representative
              ? dm.model
              : std::make_shared<ReducedModel>(instance_model(*dm.model, instance.transform));
      im.seconds = seconds_since(instance_start);
      ++totals.instances;
      totals.instance_seconds += im.seconds;
      log::info("domain {}: instance of domain {} ({}; {})", im.domain, rep,
                dm.origin == ModelOrigin::cache ? "loaded from cache" : to_string(dm.origin),
                describe(instance.transform));
      progress.advance(static_cast<std::size_t>(meshes[ii]->num_elements()));
    }
  }
  progress.finish();

  std::string parts;
  if (totals.computed > 0)
    parts +=
        fmt::format("{} computed (modes {:.3g} s, derivatives {:.3g} s, pca {:.3g} s, {} {:.3g} s)",
                    totals.computed, totals.modes, totals.derivatives, totals.pca,
                    detail::force_stage_name(settings.force_model), totals.forces);
  auto add = [&parts](int count, const std::string& what) {
    if (count > 0) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", count, what);
  };
  add(totals.loaded, fmt::format("loaded from cache ({:.3g} s)", totals.load_seconds));
  add(totals.instances, fmt::format("instanced ({:.3g} s)", totals.instance_seconds));
  add(totals.rigid, "rigid");
  log::info("reduced models of {} domain{} in {:.3g} s: {}", d, d == 1 ? "" : "s",
            seconds_since(start), parts);
  return result;
}

std::vector<ModelRequest> domain_model_requests(const Scene& scene,
                                                const ReductionSettings& settings,
                                                const std::vector<bool>& rigid) {
  if (!rigid.empty() && rigid.size() != scene.decomposition.domains.size())
    throw Error(fmt::format("domain_model_requests: {} rigid flags for {} domains", rigid.size(),
                            scene.decomposition.domains.size()));
  std::optional<TreeView> tree;
  if (settings.boundary == BoundaryPolicy::parent_interface) {
    try {
      tree = scene.graph.rooted_at(scene.root);
    } catch (const Error& e) {
      throw Error(
          fmt::format("[reduction] boundary = parent-interface needs a tree of domains: {} "
                      "(or use boundary = free | fixed-vertices)",
                      e.what()));
    }
  }
  std::vector<ModelRequest> requests;
  for (const SubMesh& sub : scene.decomposition.domains)
    requests.push_back(
        {sub.domain, &sub.mesh,
         domain_boundary(scene, tree ? &*tree : nullptr, sub.domain, settings.boundary),
         !rigid.empty() && rigid[static_cast<std::size_t>(sub.domain)]});
  return requests;
}

std::vector<DomainModel> build_domain_models(const Scene& scene, const ReductionSettings& settings,
                                             const SolverProvider& solvers, ModelCache& cache,
                                             const std::vector<bool>& rigid, bool share_turned) {
  return provide_domain_models(domain_model_requests(scene, settings, rigid), scene.material_model,
                               settings, solvers, cache, share_turned);
}

void add_model_stats(const std::vector<DomainModel>& models, PrecomputeStats& stats) {
  for (const DomainModel& m : models) {
    switch (m.origin) {
      case ModelOrigin::computed: {
        const ReducedBasis& b = m.model->basis;
        ++stats.models_computed;
        stats.add("modes", b.seconds_assembly + b.seconds_linear_modes);
        stats.add("derivatives", b.seconds_derivatives);
        stats.add("PCA", b.seconds_pca);
        stats.add(detail::force_stage_name(m.model->force_kind), m.model->seconds_force_model);
        break;
      }
      case ModelOrigin::cache:
        ++stats.models_loaded;
        stats.add("cache load", m.seconds);
        break;
      case ModelOrigin::instance:
        ++stats.models_instanced;
        stats.add("instancing", m.seconds);
        break;
      case ModelOrigin::rigid:
        break;
    }
  }
}

}  // namespace substruct
