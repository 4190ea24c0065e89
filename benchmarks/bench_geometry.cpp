// Geometry update (DESIGN: coupling.step → geometry plugin → viewer/writers), single thread:
//   world_state/SCENE       x = p + R (X̄ + U q) of every volumetric vertex from the inertia
//                           method's frames, shared interface vertices averaged (geometry-cpu)
//   world_velocity/SCENE    the same with the velocities v = R (ν + ω × x̃ + U q̇)
//   render/SCENE            the render surface (tet boundary here): positions and smooth normals
// on share/scenes/flower.ini (12 domains) and share/scenes/tree.ini (313 domains, 33k tets), after
// 20 steps under gravity. Models are cached in $TMPDIR/substruct-bench-geometry.
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "substruct/config/config.hpp"
#include "substruct/geometry/render_surface.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"
#include "substruct/solvers/geometry_solver.hpp"

namespace {

using namespace substruct;
namespace fs = std::filesystem;

const PluginHost& host() {
  static const PluginHost h({SUBSTRUCT_PLUGIN_DIR}, false);
  return h;
}

struct Case {
  std::unique_ptr<Simulation> sim;
  std::unique_ptr<GeometrySolver> geometry;
  std::vector<DomainPose> poses;
  RenderSurface surface;
};

// The scene simulated by inertia for 20 steps, its poses and a geometry-cpu solver on one thread.
Case& scene_case(const std::string& scene) {
  static std::map<std::string, Case> cases;
  Case& c = cases[scene];
  if (c.sim) return c;
  const fs::path file = fs::path(SUBSTRUCT_SOURCE_DIR) / "share/scenes" / (scene + ".ini");
  const std::string cache =
      (fs::temp_directory_path() / "substruct-bench-geometry" / scene).string();
  const Config config =
      Config::load(file,
                   {"--coupling.plugin=inertia", "--run.exporters=", "--run.cache_dir=" + cache,
                    "--geometry-cpu.threads=1"},
                   host());
  c.sim = std::make_unique<Simulation>(config, host());
  c.sim->reset();
  StepStats stats;
  for (int k = 0; k < 20; ++k) c.sim->step(stats);
  c.sim->method().domain_poses(c.poses);
  c.geometry = SolverProvider(host(), c.sim->config()).geometry();
  c.geometry->set_layout(*c.sim->method().reduced_geometry());
  c.surface = render_surface(c.sim->scene().mesh,
                             c.sim->scene().render_mesh ? &*c.sim->scene().render_mesh : nullptr);
  c.geometry->set_surface(c.surface);
  return c;
}

void world_state(benchmark::State& state, const std::string& scene, bool velocity) {
  Case& c = scene_case(scene);
  Points x, v;
  for (auto _ : state) {
    c.geometry->world_state(c.poses, x, velocity ? &v : nullptr);
    benchmark::DoNotOptimize(x.data());
  }
  state.counters["vertices"] = double(x.rows());
  state.counters["domains"] = double(c.poses.size());
}

void render(benchmark::State& state, const std::string& scene) {
  Case& c = scene_case(scene);
  Points x, y, n;
  c.geometry->world_state(c.poses, x, nullptr);
  for (auto _ : state) {
    c.geometry->render(x, y, n);
    benchmark::DoNotOptimize(n.data());
  }
  state.counters["render_vertices"] = double(y.rows());
}

BENCHMARK_CAPTURE(world_state, flower, std::string("flower"), false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(world_state, tree, std::string("tree"), false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(world_state, tree_with_velocity, std::string("tree"), true)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(render, flower, std::string("flower"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(render, tree, std::string("tree"))->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
