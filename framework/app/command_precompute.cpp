// substruct precompute SCENE.ini [--section.key=value …]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/solver_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/reduction/domain_models.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/sim/simulation.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::cli {

namespace {

namespace fs = std::filesystem;

std::string origin_text(const DomainModel& m) {
  switch (m.origin) {
    case ModelOrigin::computed:
      return "computed";
    case ModelOrigin::cache:
      return "cache hit";
    case ModelOrigin::instance:
      return fmt::format("instance of {}", m.representative);
    case ModelOrigin::rigid:
      return m.representative == m.domain ? "rigid" : fmt::format("rigid, as {}", m.representative);
  }
  return "";
}

std::string ms(double seconds) {
  return fmt::format("{:.1f}", 1e3 * seconds);
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
  const SolverProvider solvers(host, config);
  ModelCache cache(settings.cache ? cache_dir(config, scene) : fs::path());

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
  std::fflush(stdout);

  const std::vector<DomainModel> models = build_domain_models(scene, settings, solvers, cache);

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
               model.r(), origin_text(m), ms(m.seconds),
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
