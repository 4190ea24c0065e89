// SPDX-License-Identifier: GPL-3.0-or-later
// Reduced StVK steps, the work of Vega FEM's reduced baseline
// (../shared/reference/vega-baseline.md): a random mass-orthonormal basis (UᵀMU = I, zero rows
// at the fixed vertices of the .bou file), the exact cubic polynomials, implicit Newmark
// (β = ¼, γ = ½) with one Newton iteration per step and a dense Cholesky solve, dt = 1/150 s,
// stiffness damping 0.01, constant reduced force Uᵀ M g, g = (0, −1, 0), for r = 10, 20, 30, 40
// (and, on beam3, the leaf sizes r = 5 and 8 of the generated trees, where Vega has no figure).
//
//   step/MESH/r              one Newmark step (force + stiffness + dense solve)
//   force_stiffness/MESH/r   one evaluation of f(q) and K(q)
//   force_stiffness_cubature/MESH/r   the same by cubature (An et al. 2008; trained once, outside
//                            the timing, to 1 % training error; counter `elements`)
//   precompute/MESH/r        building the polynomial coefficients (one iteration per repetition)
//
// Each reports Vega's single-thread time for the same work as the counter vega_us (vega_s and
// the ratio vega/ours as speedup for the precompute). With --benchmark_repetitions the
// aggregates include the minimum, the steadiest statistic on a shared machine.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <Eigen/Cholesky>

#include "substruct/fem/mass.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/reduction/cubature.hpp"
#include "substruct/reduction/reduced_integrator.hpp"
#include "substruct/reduction/reduced_stvk.hpp"

namespace {

using namespace substruct;
namespace fs = std::filesystem;

struct Case {
  const char* name;
  fs::path mesh;
  fs::path bou;
};

Case beam3() {
  const fs::path share = fs::path(SUBSTRUCT_SOURCE_DIR) / "share" / "meshes";
  return {"beam3", share / "beam3_tet.veg", share / "beam3.bou"};
}
Case dragon() {
  const fs::path data = fs::path(SUBSTRUCT_SHARED_DATA) / "asianDragon";
  return {"asianDragon", data / "asianDragon.veg", data / "asianDragon.bou"};
}

// Vega FEM, one thread: {precompute [s], Newmark step [µs], force + stiffness [µs]}; null for the
// sizes it was not run at (the leaf sizes).
struct VegaTimes {
  double precompute_s, step_us, force_stiffness_us;
};
const VegaTimes* vega(const std::string& mesh, int r) {
  static const std::map<std::pair<std::string, int>, VegaTimes> table = {
      {{"beam3", 10}, {0.047, 3.3, 1.9}},      {{"beam3", 20}, {0.36, 17.6, 14.5}},
      {{"beam3", 30}, {1.93, 64, 57}},         {{"beam3", 40}, {8.30, 228, 193}},
      {{"asianDragon", 10}, {0.33, 3.5, 1.8}}, {{"asianDragon", 20}, {2.20, 18.2, 14.2}},
      {{"asianDragon", 30}, {10.1, 69, 57}},   {{"asianDragon", 40}, {52.1, 222, 206}}};
  const auto it = table.find({mesh, r});
  return it == table.end() ? nullptr : &it->second;
}

struct Problem {
  TetMesh mesh;
  Eigen::MatrixXd U;      // 3N×r, UᵀMU = I
  Eigen::VectorXd force;  // Uᵀ M g
};

// The mesh, a random mass-orthonormal basis (seeded by r) and the reduced gravity; made once per
// mesh and r.
const Problem* problem(const Case& c, int r) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<Problem>> cache;
  auto& slot = cache[{c.name, r}];
  if (slot) return slot.get();
  if (!fs::exists(c.mesh)) return nullptr;
  auto p = std::make_unique<Problem>();
  p->mesh = read_tet_mesh(c.mesh);
  const std::vector<Index> fixed = read_bou(c.bou, p->mesh.num_vertices());
  const SparseMatrix M = consistent_mass(p->mesh);
  std::mt19937_64 rng(static_cast<unsigned>(r));
  std::normal_distribution<double> normal;
  Eigen::MatrixXd U(3 * p->mesh.num_vertices(), r);
  for (auto& x : U.reshaped()) x = normal(rng);
  for (Index v : fixed) U.middleRows<3>(3 * v).setZero();
  const Eigen::MatrixXd G = U.transpose() * (M * U);  // = LLᵀ;  U ← U L⁻ᵀ
  const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(G).matrixL();
  p->U = L.triangularView<Eigen::Lower>().solve(U.transpose()).transpose();
  Eigen::VectorXd g = Eigen::VectorXd::Zero(p->U.rows());
  for (Eigen::Index v = 0; v < g.size() / 3; ++v) g[3 * v + 1] = -1;
  p->force = p->U.transpose() * (M * g);
  slot = std::move(p);
  return slot.get();
}

// The polynomial of a problem, built once (the precompute benchmark builds its own).
const ReducedStVKPolynomial& polynomial(const Case& c, int r) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<ReducedStVKPolynomial>> cache;
  auto& slot = cache[{c.name, r}];
  if (!slot) {
    const Problem* p = problem(c, r);
    slot = std::make_unique<ReducedStVKPolynomial>(p->mesh, p->U);
  }
  return *slot;
}

bool skip_without_mesh(benchmark::State& state, const Case& c, int r) {
  if (problem(c, r)) return false;
  const std::string why = "mesh not found (skipped): " + c.mesh.string();
  std::fprintf(stderr, "%s\n", why.c_str());
  state.SkipWithError(why.c_str());
  return true;
}

void step(benchmark::State& state, Case c) {
  const int r = static_cast<int>(state.range(0));
  if (skip_without_mesh(state, c, r)) return;
  const Problem& p = *problem(c, r);
  const ReducedStVKPolynomial& poly = polynomial(c, r);
  ReducedNewmarkSettings settings;
  settings.max_iterations = 1;
  settings.stiffness_damping = 0.01;
  ReducedNewmark integrator(poly, settings);
  const double dt = 1.0 / 150;
  integrator.step(dt, p.force);  // the first step also computes the initial acceleration
  for (auto _ : state) benchmark::DoNotOptimize(integrator.step(dt, p.force));
  if (const VegaTimes* v = vega(c.name, r)) state.counters["vega_us"] = v->step_us;
  state.counters["q_norm"] = integrator.q().norm();
}

void force_stiffness(benchmark::State& state, Case c) {
  const int r = static_cast<int>(state.range(0));
  if (skip_without_mesh(state, c, r)) return;
  const Problem& p = *problem(c, r);
  const ReducedStVKPolynomial& poly = polynomial(c, r);
  ReducedNewmarkSettings settings;
  settings.stiffness_damping = 0.01;
  ReducedNewmark integrator(poly, settings);
  for (int k = 0; k < 30; ++k) integrator.step(1.0 / 150, p.force);  // a deformed state
  const Eigen::VectorXd q = integrator.q();
  Eigen::VectorXd f(r);
  Eigen::MatrixXd K(r, r);
  for (auto _ : state) {
    poly.evaluate(q, nullptr, &f, &K);
    benchmark::DoNotOptimize(f.data());
    benchmark::DoNotOptimize(K.data());
  }
  if (const VegaTimes* v = vega(c.name, r)) state.counters["vega_us"] = v->force_stiffness_us;
}

void force_stiffness_cubature(benchmark::State& state, Case c) {
  const int r = static_cast<int>(state.range(0));
  if (skip_without_mesh(state, c, r)) return;
  const Problem& p = *problem(c, r);
  const CubatureForceModel cubature = CubatureForceModel::train(p.mesh, p.U, CubatureSettings{});
  ReducedNewmarkSettings settings;
  settings.stiffness_damping = 0.01;
  ReducedNewmark integrator(polynomial(c, r), settings);
  for (int k = 0; k < 30; ++k) integrator.step(1.0 / 150, p.force);  // a deformed state
  const Eigen::VectorXd q = integrator.q();
  Eigen::VectorXd f(r);
  Eigen::MatrixXd K(r, r);
  for (auto _ : state) {
    cubature.evaluate(q, nullptr, &f, &K);
    benchmark::DoNotOptimize(f.data());
    benchmark::DoNotOptimize(K.data());
  }
  state.counters["elements"] = double(cubature.elements().size());
  state.counters["training_error"] = cubature.training_error();
}

void precompute(benchmark::State& state, Case c) {
  const int r = static_cast<int>(state.range(0));
  if (skip_without_mesh(state, c, r)) return;
  const Problem& p = *problem(c, r);
  double seconds = 0;
  for (auto _ : state) {
    const ReducedStVKPolynomial poly(p.mesh, p.U);
    seconds = poly.precompute_seconds();
    benchmark::DoNotOptimize(poly.coefficients().data());
  }
  state.counters["precompute_s"] = seconds;
  if (const VegaTimes* v = vega(c.name, r)) {
    state.counters["vega_s"] = v->precompute_s;
    state.counters["speedup"] = v->precompute_s / seconds;
  }
}

double minimum(const std::vector<double>& v) {
  return *std::min_element(v.begin(), v.end());
}

BENCHMARK_CAPTURE(step, beam3, beam3())
    ->Arg(5)
    ->Arg(8)
    ->DenseRange(10, 40, 10)
    ->Unit(benchmark::kMicrosecond)
    ->ComputeStatistics("min", minimum);
BENCHMARK_CAPTURE(force_stiffness, beam3, beam3())
    ->Arg(5)
    ->Arg(8)
    ->DenseRange(10, 40, 10)
    ->Unit(benchmark::kMicrosecond)
    ->ComputeStatistics("min", minimum);
BENCHMARK_CAPTURE(force_stiffness_cubature, beam3, beam3())
    ->DenseRange(10, 40, 10)
    ->Unit(benchmark::kMicrosecond)
    ->ComputeStatistics("min", minimum);
BENCHMARK_CAPTURE(precompute, beam3, beam3())
    ->DenseRange(10, 40, 10)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->ComputeStatistics("min", minimum);
BENCHMARK_CAPTURE(step, asianDragon, dragon())
    ->DenseRange(10, 40, 10)
    ->Unit(benchmark::kMicrosecond)
    ->ComputeStatistics("min", minimum);
BENCHMARK_CAPTURE(force_stiffness, asianDragon, dragon())
    ->DenseRange(10, 40, 10)
    ->Unit(benchmark::kMicrosecond)
    ->ComputeStatistics("min", minimum);
BENCHMARK_CAPTURE(precompute, asianDragon, dragon())
    ->DenseRange(10, 40, 10)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->ComputeStatistics("min", minimum);

}  // namespace

BENCHMARK_MAIN();
