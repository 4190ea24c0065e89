// SPDX-License-Identifier: GPL-3.0-or-later
// substruct precompute SCENE.ini [--section.key=value …]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/coupling_settings.hpp"
#include "substruct/config/solver_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/interrupt.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/reduction/distributed_precompute.hpp"
#include "substruct/reduction/domain_models.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/sim/simulation.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::cli {

namespace {

namespace fs = std::filesystem;

/// The "model" column: where a domain's model came from.
std::string origin_text(ModelOrigin origin, int domain, int representative) {
  switch (origin) {
    case ModelOrigin::computed:
      return "computed";
    case ModelOrigin::cache:
      return "cache hit";
    case ModelOrigin::instance:
      return fmt::format("instance of {}", representative);
    case ModelOrigin::rigid:
      return representative == domain ? "rigid" : fmt::format("rigid, as {}", representative);
  }
  return "";
}

std::string ms(double seconds) {
  return fmt::format("{:.1f}", 1e3 * seconds);
}

/// The distributed precompute's report on rank 0: every domain (with the rank that computed or
/// checked it) and every rank's share.
void print_distributed(const Scene& scene, const DistributedPrecompute& d, double wall) {
  fmt::print("\n{:>6} {:>6} {:>6} {:>4}  {:<16} {:>4} {:>9} {:>9} {:>11} {:>8} {:>9}\n", "domain",
             "tets", "DOFs", "r", "model", "rank", "time[ms]", "modes", "derivatives", "pca",
             "forces");
  int computed = 0, hits = 0, instances = 0, rigid = 0;
  for (const DistributedModelRecord& m : d.domains) {
    const SubMesh& sub = scene.decomposition.domains[static_cast<std::size_t>(m.domain)];
    const bool own = m.origin == ModelOrigin::computed;
    auto stage = [&](double s) { return own ? ms(s) : std::string("-"); };
    const std::string model = origin_text(m.origin, m.domain, m.representative);
    fmt::print("{:>6} {:>6} {:>6} {:>4}  {:<16} {:>4} {:>9} {:>9} {:>11} {:>8} {:>9}\n", m.domain,
               m.tets, 3 * sub.mesh.num_vertices(), m.r, model,
               m.rank == kAllRanks ? std::string("all")
               : m.rank >= 0       ? std::to_string(m.rank)
                                   : std::string("-"),
               own || m.origin == ModelOrigin::cache ? ms(m.seconds) : "-", stage(m.modes),
               stage(m.derivatives), stage(m.pca), stage(m.forces));
    computed += own;
    hits += m.origin == ModelOrigin::cache;
    instances += m.origin == ModelOrigin::instance;
    rigid += m.origin == ModelOrigin::rigid;
  }
  fmt::print("\n{:>6} {:>9} {:>8} {:>10} {:>14} {:>9} {:>10}\n", "rank", "computed", "checked",
             "tets", "cost (tets·r²)", "busy[s]", "models/s");
  double busiest = 0;
  for (const RankShare& r : d.ranks) {
    fmt::print("{:>6} {:>9} {:>8} {:>10} {:>14.4g} {:>9.3f} {:>10.3g}\n", r.rank, r.computed,
               r.checked, r.tets, r.cost, r.busy_seconds,
               r.busy_seconds > 0 ? r.computed / r.busy_seconds : 0.0);
    busiest = std::max(busiest, r.busy_seconds);
  }
  fmt::print(
      "\nprecompute {:.3f} s on {} ranks (models {:.3f} s, the busiest rank {:.3f} s): {} "
      "computed ({:.3g} per second), {} loaded from cache, {} instanced, {} rigid\n",
      wall, d.ranks.size(), d.seconds, busiest, computed, computed > 0 ? computed / d.seconds : 0.0,
      hits, instances, rigid);
}

}  // namespace

int command_precompute(const Args& raw_args) {
  const SceneArguments args = parse_scene_arguments("precompute", raw_args);
  if (args.help) {
    std::printf(
        "usage: substruct precompute SCENE.ini [--section.key=value …]\n"
        "  Builds the reduced model of every domain as the scene's [reduction] section asks\n"
        "  (basis size, modal derivatives, force model, boundary condition, instancing) and\n"
        "  stores it in the model cache ([run] cache_dir, default .substruct-cache beside the\n"
        "  scene), so that later runs load it. Models whose inputs did not change are loaded;\n"
        "  damaged or stale cache files are reported and recomputed.\n"
        "  Prints a table per domain (DOFs, r, where the model came from, timings [ms]).\n"
        "  Under mpirun -n K the models not in the cache are shared out over the ranks by\n"
        "  estimated cost, each rank stores its own, and rank 0 adds a table per rank.\n"
        "  e.g. --reduction.modes=30 --reduction.cache=false; substruct help scene lists "
        "keys.\n");
    return 0;
  }

  const auto start = std::chrono::steady_clock::now();
  PluginHost host(args.global.plugin_paths);
  const Config config = Config::load(args.scene_file, args.overrides, host);
  read_run_settings(config);  // [run] memory_limit, before the scene is read
  const Scene scene = load_scene(config);
  const ReductionSettings settings = ReductionSettings::from_config(config);
  // The domains the scene's method simulates as rigid bodies (e.g. [inertia] rigid_domains)
  // get r = 0 models, as in its runs: nothing to reduce or store for them.
  const std::vector<bool> rigid =
      host.create<CouplingMethod>(coupling_options().read(config).plugin, PluginKind::coupling,
                                  PluginContext{config})
          ->rigid_domains(scene);
  const SolverProvider solvers(host, config);
  ModelCache cache(settings.cache ? cache_dir(config, scene) : fs::path());
  // Under mpirun the ranks share the domains out; rank 0 reports.
  const auto mpi_start = Clock::now();
  const std::unique_ptr<ProcessGroup> group = solvers.processes();
  const double mpi_seconds = seconds_since(mpi_start);
  const bool distributed = group->size() > 1, reporting = group->rank() == 0;
  if (!reporting) {
    log::set_level(log::Level::quiet);
    Progress::set_enabled(false);
    if (std::freopen("/dev/null", "w", stdout) == nullptr) {  // rank 0 prints the report
    }
  }

  std::printf("scene      %s: %d vertices, %d tets, %d domain%s\n", scene.name.c_str(),
              scene.mesh.num_vertices(), scene.mesh.num_elements(), scene.num_domains(),
              scene.num_domains() == 1 ? "" : "s");
  std::printf("reduction  %s modes (r %d, linear %d%s), %s forces, boundary %s, instancing %s\n",
              std::string(to_string(settings.mode_count)).c_str(),
              settings.mode_count == ModeCountPolicy::fixed ? settings.modes : settings.r_max,
              settings.linear_modes, settings.modal_derivatives ? " + derivatives" : "",
              std::string(to_string(settings.force_model)).c_str(),
              std::string(to_string(settings.boundary)).c_str(),
              settings.instancing ? "on" : "off");
  const SolverSettings solver_names = solver_options().read(config);
  std::printf("solvers    eigen %s, linear %s\n", solver_names.eigen.c_str(),
              solver_names.linear.c_str());
  std::printf("cache      %s\n", cache.enabled() ? cache.dir().c_str() : "off");
  if (distributed)
    std::printf(
        "ranks      %d (mpirun; MPI and PETSc started in %.3f s): the models not in the cache "
        "are shared out by cost\n",
        group->size(), mpi_seconds);
  std::fflush(stdout);

  if (distributed) {
    try {
      const DistributedPrecompute d =
          precompute_distributed(domain_model_requests(scene, settings, rigid),
                                 scene.material_model, settings, solvers, cache, *group);
      if (reporting) print_distributed(scene, d, seconds_since(start));
    } catch (const Interrupted& e) {
      if (!reporting) return e.exit_status();  // rank 0 says it
      throw;
    } catch (const Error&) {
      if (!reporting) return 1;
      throw;
    }
    return 0;
  }

  const std::vector<DomainModel> models =
      build_domain_models(scene, settings, solvers, cache, rigid);

  fmt::print("\n{:>6} {:>6} {:>6} {:>5} {:>4}  {:<16} {:>9} {:>9} {:>11} {:>8} {:>9}\n", "domain",
             "tets", "DOFs", "fixed", "r", "model", "time[ms]", "modes", "derivatives", "pca",
             "forces");
  long dofs = 0, reduced = 0;
  int computed = 0, hits = 0;
  double seconds = 0;
  for (const DomainModel& m : models) {
    const SubMesh& sub = scene.decomposition.domains[static_cast<std::size_t>(m.domain)];
    const ReducedModel& model = *m.model;
    const bool own_work = m.origin == ModelOrigin::computed;
    const ReducedBasis& b = model.basis;
    auto stage = [&](double s) { return own_work ? ms(s) : std::string("-"); };
    fmt::print("{:>6} {:>6} {:>6} {:>5} {:>4}  {:<16} {:>9} {:>9} {:>11} {:>8} {:>9}\n", m.domain,
               sub.mesh.num_elements(), 3 * sub.mesh.num_vertices(),
               model.boundary.remove_rigid_modes
                   ? std::string("free")
                   : std::to_string(model.boundary.fixed_vertices.size()),
               model.r(), origin_text(m.origin, m.domain, m.representative), ms(m.seconds),
               stage(b.seconds_assembly + b.seconds_linear_modes), stage(b.seconds_derivatives),
               stage(b.seconds_pca), stage(model.seconds_force_model));
    dofs += 3L * sub.mesh.num_vertices();
    reduced += model.r();
    computed += m.origin == ModelOrigin::computed;
    hits += m.origin == ModelOrigin::cache;
    seconds += m.seconds;
  }
  fmt::print("{:>6} {:>6} {:>6} {:>5} {:>4}  {:<16} {:>9}\n", "total", scene.mesh.num_elements(),
             dofs, "", reduced, fmt::format("{} hit, {} miss", hits, computed), ms(seconds));
  const double wall = seconds_since(start);
  fmt::print("\nprecompute {:.3f} s (models {:.3f} s); {} of {} domains loaded from cache\n", wall,
             seconds, hits, models.size());
  return 0;
}

SUBSTRUCT_COMMAND("precompute", "SCENE.ini [--section.key=value …]",
                  "build and cache the reduced model of every domain, with timings",
                  command_precompute);

}  // namespace substruct::cli
