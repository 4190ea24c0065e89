// SPDX-License-Identifier: GPL-3.0-or-later
// Full-space StVK implicit steps, the work of Vega FEM's full-space baseline
// (../shared/reference/vega-baseline.md): consistent mass, implicit Newmark (β = ¼, γ = ½) or
// backward Euler, one Newton iteration per step, dt = 1/150 s, stiffness damping 0.01,
// gravity (0, −1, 0), fixed vertices from the .bou file. Linear solver: the `cholmod` plugin.
// Vega, one thread: beam3 10.1 ms (Newmark), 10.6 ms (backward Euler); asianDragon 51.9 ms,
// 56.7 ms. Our step evaluates f_int and K twice (before and after the solve, to measure the
// residual), Vega's once.
#include <filesystem>
#include <memory>

#include <benchmark/benchmark.h>

#include "substruct/config/config.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/implicit_integrator.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace {

using namespace substruct;
namespace fs = std::filesystem;

struct Case {
  fs::path mesh;
  fs::path bou;
};

Case beam3() {
  const fs::path share = fs::path(SUBSTRUCT_SOURCE_DIR) / "share" / "meshes";
  return {share / "beam3_tet.veg", share / "beam3.bou"};
}
Case dragon() {
  const fs::path data = fs::path(SUBSTRUCT_SHARED_DATA) / "asianDragon";
  return {data / "asianDragon.veg", data / "asianDragon.bou"};
}

void full_step(benchmark::State& state, Case c, TimeScheme scheme) {
  if (!fs::exists(c.mesh)) {
    state.SkipWithError(("mesh not found: " + c.mesh.string()).c_str());
    return;
  }
  const TetMesh mesh = read_tet_mesh(c.mesh);
  const std::vector<Index> fixed = read_bou(c.bou, mesh.num_vertices());
  const ElasticForceModel model(mesh, MaterialModel::stvk);

  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Config config =
      Config::from_settings({{"scene.mesh", c.mesh.string(), "bench"}}, c.mesh.parent_path(), host);
  std::unique_ptr<LinearSolver> solver =
      host.create<LinearSolver>("cholmod", PluginKind::linear_solver, PluginContext{config});

  SecondOrderSystem system;
  system.mass = consistent_mass(mesh);
  system.internal_forces = elastic_internal_forces(model);
  system.rayleigh_stiffness = 0.01;
  for (Index v : fixed)
    for (Index k = 0; k < 3; ++k) system.fixed_dofs.push_back(3 * v + k);
  system.rest_position_norm = flat(mesh.vertices).norm();
  IntegratorSettings settings;
  settings.scheme = scheme;
  settings.newton_max_iterations = 1;
  ImplicitIntegrator integrator(std::move(system), *solver, settings);

  // f = M g, g = (0, −1, 0)
  Eigen::VectorXd g = Eigen::VectorXd::Zero(3 * mesh.num_vertices());
  for (Index v = 0; v < mesh.num_vertices(); ++v) g[3 * v + 1] = -1;
  const Eigen::VectorXd f = integrator.system().mass * g;
  const double dt = 1.0 / 150;
  integrator.step(dt, f);  // the first step also computes the initial acceleration
  for (auto _ : state) benchmark::DoNotOptimize(integrator.step(dt, f));
  state.counters["dofs"] = double(integrator.dofs().num_free());
  state.counters["tets"] = double(mesh.num_elements());
}

BENCHMARK_CAPTURE(full_step, beam3_newmark, beam3(), TimeScheme::newmark)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(full_step, beam3_backward_euler, beam3(), TimeScheme::backward_euler)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(full_step, dragon_newmark, dragon(), TimeScheme::newmark)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(full_step, dragon_backward_euler, dragon(), TimeScheme::backward_euler)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
