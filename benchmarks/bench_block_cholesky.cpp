// SPDX-License-Identifier: GPL-3.0-or-later
// Block-sparse Cholesky against CHOLMOD on systems shaped like the coupling-elements method's
// A Q' = b (Wu, Mukherjee & Wang 2015, §4.3): one dense block of 6 + r unknowns per domain
// (rigid velocity and angular velocity, r = 20 reduced velocities), dense coupling blocks
// between neighbouring domains. Both solvers factor the same matrix; the counters give the
// scalars stored in each factor (block-cholesky: dense blocks counted fully; CHOLMOD: the
// non-zeros of L under its AMD ordering, the generic ordering of the paper's Fig. 4), their
// ratio, and the block factor's size under the natural (domain index) order.
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "substruct/config/config.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/solvers/solver_provider.hpp"
#include "support/block_systems.hpp"

namespace {

using namespace substruct;
using namespace substruct::testing;

constexpr Index kBlockSize = 6 + 20;

struct System {
  BlockStructure blocks;
  SparseMatrix A;
  Eigen::VectorXd b;
};

System make_system(const Couplings& couplings, int domains) {
  System s;
  s.blocks = block_structure(std::vector<Index>(domains, kBlockSize), couplings);
  std::mt19937 rng(2015);
  s.A = random_block_matrix(s.blocks, true, rng);
  s.b = Eigen::VectorXd::Ones(s.A.rows());
  return s;
}

const PluginHost& host() {
  static const PluginHost h({SUBSTRUCT_PLUGIN_DIR}, false);
  return h;
}

// [solvers] linear = NAME, analysed for A (with the blocks when it uses them).
std::unique_ptr<LinearSolver> analysed(const std::string& linear, const System& s,
                                       const std::string& ordering = "auto") {
  const Config config = Config::from_settings(
      {{"solvers.linear", linear, "bench"}, {"block-cholesky.ordering", ordering, "bench"}},
      std::filesystem::temp_directory_path(), host());
  std::unique_ptr<LinearSolver> solver = SolverProvider(host(), config).linear();
  solver->analyze(s.A, MatrixProperties{true, true, s.blocks});
  return solver;
}

void add_counters(benchmark::State& state, const System& s) {
  const double block = double(analysed("block-cholesky", s)->info().factor_nonzeros);
  const double cholmod = double(analysed("cholmod", s)->info().factor_nonzeros);
  state.counters["dofs"] = double(s.A.rows());
  state.counters["nnz_block"] = block;
  state.counters["nnz_cholmod"] = cholmod;
  state.counters["cholmod/block"] = cholmod / block;
  state.counters["nnz_block_natural"] =
      double(analysed("block-cholesky", s, "natural")->info().factor_nonzeros);
}

void factorize(benchmark::State& state, const System& s, const std::string& linear) {
  const std::unique_ptr<LinearSolver> solver = analysed(linear, s);
  for (auto _ : state) solver->factorize(s.A);
  state.SetLabel(solver->info().method);
  add_counters(state, s);
}

void solve(benchmark::State& state, const System& s, const std::string& linear) {
  const std::unique_ptr<LinearSolver> solver = analysed(linear, s);
  solver->factorize(s.A);
  Eigen::VectorXd x;
  for (auto _ : state) {
    solver->solve(s.b, x);
    benchmark::DoNotOptimize(x.data());
  }
  state.SetLabel(solver->info().method);
  add_counters(state, s);
}

void register_benchmarks() {
  std::mt19937 rng(100);
  static const std::vector<std::pair<std::string, System>> systems = {
      {"armadillo_tree_11", make_system(armadillo_graph(), 11)},
      {"ring_8", make_system(ring_graph(8), 8)},
      {"grid_4x4", make_system(grid_graph(4, 4), 16)},
      {"tree_100", make_system(random_tree_graph(100, rng), 100)}};
  for (const auto& [name, system] : systems)
    for (const std::string linear : {"block-cholesky", "cholmod"}) {
      const System* s = &system;
      benchmark::RegisterBenchmark(("factorize/" + name + "/" + linear).c_str(),
                                   [s, linear](benchmark::State& st) { factorize(st, *s, linear); })
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("solve/" + name + "/" + linear).c_str(),
                                   [s, linear](benchmark::State& st) { solve(st, *s, linear); })
          ->Unit(benchmark::kMicrosecond);
    }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
