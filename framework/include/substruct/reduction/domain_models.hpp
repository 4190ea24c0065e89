// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The reduced models of every domain of a scene, as the [reduction] settings ask: each domain's
/// boundary condition and basis size, one model per instance class, loaded from the model cache
/// when its inputs are unchanged, computed (and cached) otherwise.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "substruct/config/reduction_settings.hpp"
#include "substruct/core/stage_timings.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "substruct/reduction/domain_boundary.hpp"
#include "substruct/reduction/instancing.hpp"
#include "substruct/reduction/model_cache.hpp"
#include "substruct/reduction/reduced_model.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct {

/// How a domain got its model in this run.
/// computed: reduced from scratch; cache: loaded from the model cache; instance: transformed from
/// its class representative's model; rigid: r = 0 (no deformation), nothing to compute.
enum class ModelOrigin { computed, cache, instance, rigid };
std::string_view to_string(ModelOrigin origin);

struct DomainModel {
  int domain = 0;
  /// In the domain's local vertex numbering (SubMesh) and rest shape. Domains that are translated
  /// copies of one another share one object.
  std::shared_ptr<const ReducedModel> model;
  /// `model` is the representative's, shared as it is although this domain is a turned copy
  /// (asked for with share_turned): its basis is turned_basis(model->basis.U,
  /// transform.rotation); everything else of the model is this domain's.
  bool turned_representative = false;
  ModelOrigin origin = ModelOrigin::computed;
  int representative = 0;            // the domain whose model this one transforms (itself if none)
  SimilarityTransform transform;     // from the representative's rest shape to this domain's
  std::uint64_t inputs_hash = 0;     // model_inputs_hash of this domain
  std::filesystem::path cache_file;  // the file it was loaded from or stored to; empty otherwise
  double seconds = 0;  // wall time spent on this domain in this run (compute, load or transform)
};

/// The boundary condition of `domain`'s basis (local vertex ids, sorted) under `policy`:
/// parent-interface: the vertices of the interface to its parent in `tree` plus the scene's fixed
///   vertices inside it; the root only the latter, free-flying when there are none;
/// free: nothing fixed, rigid modes removed;
/// fixed-vertices: the scene's fixed vertices inside it, free-flying when there are none.
/// `tree` is needed for parent-interface only (Error when null then).
DomainBoundary domain_boundary(const Scene& scene, const TreeView* tree, int domain,
                               BoundaryPolicy policy);

/// The basis size of each domain: settings.modes (fixed), or mode_count(e, e_max, r_max)
/// (adaptive, Zhao 2014, §4.1 step 10); 0 (rigid) for a domain whose vertices are all fixed.
std::vector<int> domain_mode_counts(const Scene& scene, const ReductionSettings& settings,
                                    const std::vector<DomainBoundary>& boundaries);

/// What one domain's model is made from: its own mesh (local vertex numbering) and the boundary
/// condition of its basis.
struct ModelRequest {
  int domain = 0;
  const TetMesh* mesh = nullptr;
  DomainBoundary boundary;
  /// The method simulates this domain as a rigid body: its model is r = 0 (no basis, no solve,
  /// nothing cached), whatever the settings ask; the others' basis sizes are as without it.
  bool rigid = false;
};

/// The one way to get reduced models, whatever the method's domains are: each request's basis
/// size as the settings ask (modes, or mode_count = adaptive over these meshes; 0 when every
/// vertex is fixed), instance classes among the requests (settings.instancing), each
/// representative loaded from `cache` when it holds a trusted file for its inputs (settings.cache)
/// or computed and stored (a store that fails is a warning), progress and one log line per domain
/// (below). One result per request, in request order. Throws Error naming the domain when its
/// fixed vertices lie on a point or a line, or when it cannot be reduced.
/// With `share_turned`, an instance that is its representative turned (not scaled) shares the
/// representative's model (DomainModel::turned_representative) instead of a turned copy of it.
std::vector<DomainModel> provide_domain_models(const std::vector<ModelRequest>& requests,
                                               MaterialModel material,
                                               const ReductionSettings& settings,
                                               const SolverProvider& solvers, ModelCache& cache,
                                               bool share_turned = false);

/// One request per domain of the scene, in domain order: its sub-mesh and the boundary of
/// settings.boundary; the domains d with rigid[d] are rigid requests (`rigid` empty: none; else
/// one entry per domain). Throws Error when parent-interface asks for a tree the domains do not
/// form, or `rigid` has another size.
std::vector<ModelRequest> domain_model_requests(const Scene& scene,
                                                const ReductionSettings& settings,
                                                const std::vector<bool>& rigid = {});

/// Every domain's reduced model, in domain order: provide_domain_models on the scene's sub-meshes
/// with the boundaries of settings.boundary (the domains d with rigid[d]: r = 0, see
/// ModelRequest::rigid). Instance classes (settings.instancing) are
/// reduced once, by their representative; each representative's model is loaded from `cache`
/// when it holds a trusted file for its inputs (settings.cache), else computed and stored.
/// Logs one line per domain ("domain 3: loaded from cache (FILE)", "domain 3: computed in 1.2 s
/// (modes 0.3 s, derivatives 0.6 s, polynomial 0.3 s), cached", "domain 5: instance of domain 3
/// (…)"), shows progress with the time left across domains, and ends with a per-stage summary.
/// Throws Error, naming the domain, when a domain cannot be reduced (e.g. its fixed vertices lie
/// on a line, which leaves a rotation free; or the solvers fail).
std::vector<DomainModel> build_domain_models(const Scene& scene, const ReductionSettings& settings,
                                             const SolverProvider& solvers, ModelCache& cache,
                                             const std::vector<bool>& rigid = {},
                                             bool share_turned = false);

/// Adds the models' origins (computed, loaded from the cache, instanced) and the stages they took
/// in this run ("modes" (assembly + eigen solve), "derivatives", "PCA", "polynomial" or
/// "cubature", "cache load", "instancing") to `stats`.
void add_model_stats(const std::vector<DomainModel>& models, PrecomputeStats& stats);

}  // namespace substruct
