// SPDX-License-Identifier: GPL-3.0-or-later
// Assembly of elastic energy, internal force and tangent stiffness (ElasticForceModel::evaluate)
// per tetrahedron, on structured box meshes of 10⁵ and 10⁶ tets and on the beam3 mesh (450 tets).
// Vega's StVK element force + stiffness costs 17–20 µs per tet on this machine class.
#include <map>
#include <random>
#include <utility>

#include <benchmark/benchmark.h>

#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/element_kernels.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace {

using namespace substruct;

// n×n×n cells of 6 tets in a 1 m cube (101,400 tets for 26×26×25; 998,250 for 55³).
const TetMesh& box(int nx, int ny, int nz) {
  static std::map<std::tuple<int, int, int>, TetMesh> cache;
  auto it = cache.find({nx, ny, nz});
  if (it == cache.end())
    it = cache
             .emplace(std::make_tuple(nx, ny, nz),
                      make_box_mesh(Vec3::Zero(), Vec3::Ones(), nx, ny, nz))
             .first;
  return it->second;
}
const TetMesh& box_100k() {
  return box(26, 26, 25);
}
const TetMesh& box_1m() {
  return box(55, 55, 55);
}
const TetMesh& beam3() {
  static const TetMesh mesh =
      read_veg(std::filesystem::path(SUBSTRUCT_SOURCE_DIR) / "share/meshes/beam3_tet.veg");
  return mesh;
}

// A deterministic small random displacement (about 1 % of a cell).
Eigen::VectorXd displacement(const TetMesh& mesh, double amplitude) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> d(-amplitude, amplitude);
  Eigen::VectorXd u(3 * mesh.num_vertices());
  for (auto& x : u) x = d(rng);
  return u;
}

void report(benchmark::State& state, const TetMesh& mesh) {
  const auto tets = static_cast<double>(mesh.num_elements());
  state.counters["tets"] = tets;
  state.counters["time_per_tet"] = benchmark::Counter(
      tets, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Energy + internal force + stiffness, the matrix refilled in place.
void BM_EnergyForceStiffness(benchmark::State& state, MaterialModel model, const TetMesh& (*mesh)(),
                             double amplitude) {
  const ElasticForceModel efm(mesh(), model);
  const Eigen::VectorXd u = displacement(mesh(), amplitude);
  double E = 0;
  Eigen::VectorXd f;
  SparseMatrix K;
  efm.evaluate(u, &E, &f, &K);  // allocates K once
  for (auto _ : state) {
    efm.evaluate(u, &E, &f, &K);
    benchmark::DoNotOptimize(E);
    benchmark::DoNotOptimize(K.valuePtr());
  }
  report(state, mesh());
  state.counters["nnz"] = static_cast<double>(K.nonZeros());
}

// Energy + internal force only (explicit integration).
void BM_EnergyForce(benchmark::State& state, MaterialModel model, const TetMesh& (*mesh)(),
                    double amplitude) {
  const ElasticForceModel efm(mesh(), model);
  const Eigen::VectorXd u = displacement(mesh(), amplitude);
  double E = 0;
  Eigen::VectorXd f;
  for (auto _ : state) {
    efm.evaluate(u, &E, &f, nullptr);
    benchmark::DoNotOptimize(E);
    benchmark::DoNotOptimize(f.data());
  }
  report(state, mesh());
}

// The element kernel alone (no gather from the mesh, no scatter): the arithmetic cost.
void BM_ElementKernel(benchmark::State& state, MaterialModel model) {
  Vec12 x;
  x << 0.01, -0.02, 0.0, 1.02, 0.01, -0.01, 0.03, 0.99, 0.02, 0.02, 0.01, 1.01;
  const Mat3 Dm_inv = Mat3::Identity();
  const Material material;
  double E;
  Vec12 f;
  Mat12 K;
  for (auto _ : state) {
    benchmark::DoNotOptimize(x.data());
    element_forces(model, {&x, &Dm_inv, 1.0 / 6, material.lambda(), material.mu()}, &E, &f, &K);
    benchmark::DoNotOptimize(K.data());
  }
  state.counters["time_per_tet"] = benchmark::Counter(
      1, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Building the model: rest geometry, sparsity pattern, element → value-slot map.
void BM_Construct(benchmark::State& state, MaterialModel model, const TetMesh& (*mesh)()) {
  for (auto _ : state) {
    ElasticForceModel efm(mesh(), model);
    benchmark::DoNotOptimize(&efm);
  }
  report(state, mesh());
}

constexpr double kBoxAmplitude = 0.01 / 26;  // 1 % of a cell of the 10⁵ box
constexpr double kBeamAmplitude = 0.0004;    // 1 % of beam3's 0.04 m cells

BENCHMARK_CAPTURE(BM_ElementKernel, linear, MaterialModel::linear);
BENCHMARK_CAPTURE(BM_ElementKernel, stvk, MaterialModel::stvk);
BENCHMARK_CAPTURE(BM_ElementKernel, corotational, MaterialModel::corotational);

BENCHMARK_CAPTURE(BM_EnergyForceStiffness, stvk_beam3, MaterialModel::stvk, beam3, kBeamAmplitude)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_EnergyForceStiffness, corotational_beam3, MaterialModel::corotational, beam3,
                  kBeamAmplitude)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_EnergyForceStiffness, linear_beam3, MaterialModel::linear, beam3,
                  kBeamAmplitude)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_EnergyForce, stvk_beam3, MaterialModel::stvk, beam3, kBeamAmplitude)
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_CAPTURE(BM_EnergyForceStiffness, stvk_box100k, MaterialModel::stvk, box_100k,
                  kBoxAmplitude)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_EnergyForceStiffness, corotational_box100k, MaterialModel::corotational,
                  box_100k, kBoxAmplitude)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_EnergyForceStiffness, linear_box100k, MaterialModel::linear, box_100k,
                  kBoxAmplitude)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_EnergyForce, stvk_box100k, MaterialModel::stvk, box_100k, kBoxAmplitude)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Construct, stvk_box100k, MaterialModel::stvk, box_100k)
    ->Unit(benchmark::kMillisecond);

// 10⁶ tets (≈ 0.6 GB with the matrix): measured once.
BENCHMARK_CAPTURE(BM_Construct, stvk_box1m, MaterialModel::stvk, box_1m)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_EnergyForceStiffness, stvk_box1m, MaterialModel::stvk, box_1m,
                  kBoxAmplitude * 26 / 55)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
