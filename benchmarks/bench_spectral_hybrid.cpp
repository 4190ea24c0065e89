// SPDX-License-Identifier: GPL-3.0-or-later
// Frames per second of the spectral-hybrid coupling (Yang et al. 2010, Table 1: CPU simulation,
// Core 2 Duo 2.93 GHz): one whole simulation step — loads, the method's step (spectral forces,
// Newmark with multipliers) and the world positions and velocities of every vertex through the
// CPU geometry plugin (one thread) — timed together, under gravity.
//   bar1    substruct generate hybrid-bar (324 tets, 100 modes; paper's Bar1: 323 tets, 100
//           modes, 269.1 fps)
//   bar2    … --cells 30 6 5 --length 1.5 --height 0.3 --width 0.25 --modes 200 (5,400 tets;
//           paper's Bar2: 5,372 tets, 200 modes, 31.9 fps)
//   large   … --cells 60 12 8 --length 3 --height 0.6 --width 0.4 --modes 50 (34,560 tets; the
//           paper's dragon: 32,959 tets, 50 modes, 10.3 fps)
//   limb    substruct generate limb --modes 100 (1,920 tets; the Armadillo leg: 13,852 tets,
//           100 modes, 14.3 fps)
// large/gpu_geometry is the same step with the positions and velocities by geometry-cuda (the
// paper's GPU column), skipped where no GPU is usable.
// Goals (one core): ≥ 2,000 steps/s on bar1 and ≥ 500 on large. The offline stages are printed
// (stderr) as the paper's three columns: build M, K (assembly of every region's matrices, timed
// here on their sub-meshes), the eigenproblem (the bases' time less that assembly) and
// "initialize linear system" (Ψ, masses, constraint rows, the factored multiplier system).
// Scenes live in $TMPDIR/substruct-bench-spectral-hybrid, without a basis cache.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "generated_scene.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/domains/sub_mesh.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"

namespace {

using namespace substruct;
namespace fs = std::filesystem;

fs::path work_dir() {
  return fs::temp_directory_path() / "substruct-bench-spectral-hybrid";
}

const PluginHost& host() {
  static const PluginHost h({SUBSTRUCT_PLUGIN_DIR}, false);
  return h;
}

struct Case {
  const char* name;
  const char* generate;  // substruct generate arguments
  const char* paper;     // the paper's row of Table 1
};

const Case kCases[] = {
    {"bar1", "hybrid-bar --modes 100", "Bar1 323 tets, 100 modes: 269.1 fps CPU"},
    {"bar2", "hybrid-bar --cells 30 6 5 --length 1.5 --height 0.3 --width 0.25 --modes 200",
     "Bar2 5,372 tets, 200 modes: 31.9 fps CPU"},
    {"large", "hybrid-bar --cells 60 12 8 --length 3 --height 0.6 --width 0.4 --modes 50",
     "Dragon 32,959 tets, 50 modes: 10.3 fps CPU, 35.6 fps GPU"},
    {"limb", "limb --youngs-modulus 1e6 --modes 100", "Armadillo 13,852 tets, 100 modes: 14.3 fps"},
};

/// `substruct generate …` into the work folder, once.
fs::path generated(const Case& c) {
  return bench::generated_scene(work_dir(), c.name, c.generate);
}

std::map<std::string, std::unique_ptr<Simulation>>& simulations() {
  host();  // constructed first, destroyed last
  static std::map<std::string, std::unique_ptr<Simulation>> cache;
  return cache;
}

double stage(const PrecomputeStats& stats, const std::string& name) {
  for (const auto& [s, seconds] : stats.stage_seconds)
    if (s == name) return seconds;
  return 0;
}

// The paper's first column: every region's stiffness at rest and consistent mass, assembled on
// its own sub-mesh (the work inside the spectral bases' time).
double assembly_seconds(const Scene& scene) {
  const auto start = Clock::now();
  for (const SubMesh& sub : scene.decomposition.domains) {
    const ElasticForceModel model(sub.mesh, MaterialModel::stvk);
    const SparseMatrix K = model.stiffness(Eigen::VectorXd::Zero(model.num_dofs()));
    const SparseMatrix M = consistent_mass(sub.mesh);
    benchmark::DoNotOptimize(K.nonZeros() + M.nonZeros());
  }
  return seconds_since(start);
}

// `gpu`: the world positions and velocities by geometry-cuda (the paper's GPU column) instead of
// geometry-cpu on one thread; skipped with CUDA's reason where no GPU is usable.
void step_case(benchmark::State& state, const Case& c, bool gpu) {
  try {
    auto& sim = simulations()[fmt::format("{}{}", c.name, gpu ? "/gpu" : "")];
    if (!sim) {
      std::vector<std::string> overrides{"--run.exporters=", "--run.loads=gravity",
                                         "--spectral-hybrid.cache=false"};
      if (gpu)
        overrides.push_back("--solvers.geometry=cuda");
      else
        overrides.insert(overrides.end(), {"--solvers.geometry=cpu", "--geometry-cpu.threads=1"});
      sim = std::make_unique<Simulation>(Config::load(generated(c), overrides, host()), host());
      const double precompute = sim->precompute();
      const PrecomputeStats& p = sim->precompute_stats();
      const double assembly = assembly_seconds(sim->scene());
      const double bases = stage(p, "spectral bases (M, K, eigenproblem)");
      const double init = stage(p, "modal rotation matrices Ψ, masses") +
                          stage(p, "constraints, multiplier system");
      std::fprintf(stderr,
                   "%s: %d tets, %d DOFs, precompute %.3f s: build M, K %.3f s | eigenproblem "
                   "%.3f s | initialize linear system %.3f s (paper: %s)\n",
                   c.name, sim->scene().mesh.num_elements(), static_cast<int>(sim->method().dofs()),
                   precompute, assembly, std::max(0.0, bases - assembly), init, c.paper);
      state.counters["precompute_s"] = precompute;
    }
    sim->reset();
    StepStats stats;
    for (int s = 0; s < 5; ++s) sim->step(stats);
    for (auto _ : state) {
      if (sim->step_index() == 300) sim->reset();
      const auto start = Clock::now();
      sim->step(stats);  // loads, the method's step, world positions and velocities
      state.SetIterationTime(seconds_since(start));
    }
    state.counters["tets"] = sim->scene().mesh.num_elements();
    state.counters["DOFs"] = static_cast<double>(sim->method().dofs());
    state.counters["fps"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
  } catch (const Error& e) {
    state.SkipWithError(e.what());
  }
}

void register_benchmarks() {
  for (const Case& c : kCases)
    for (const bool gpu : {false, true}) {
      if (gpu && std::string_view(c.name) != "large") continue;
      benchmark::RegisterBenchmark(
          fmt::format("spectral_hybrid_step/{}{}", c.name, gpu ? "/gpu_geometry" : "").c_str(),
          [&c, gpu](benchmark::State& s) { step_case(s, c, gpu); })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond)
          ->MinTime(1.0);
    }
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  simulations().clear();
  return 0;
}
