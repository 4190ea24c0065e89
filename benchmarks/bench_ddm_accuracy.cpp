// SPDX-License-Identifier: GPL-3.0-or-later
// Fig. 1 and Fig. 7 of Huang et al. 2006 as numbers: the bar (substruct generate bar, made softer:
// E = 1 MPa, so it sags to about half its length) clamped at one end and settling under gravity
// for 3 s, simulated by
//   linear      ddm, one domain, rotation = none   (plain linear FEM: Fig. 1b)
//   global      ddm, one domain, rotation tracked  (one global rotation: Fig. 1c, Fig. 7 top)
//   ddm3, ddm6  ddm, 3 / 6 domains, each tracked   (Fig. 1d, Fig. 7 bottom)
// against the nonlinear `full` ground truth with the StVK and the corotational material (same
// mesh, lumped mass, backward Euler, same damping). Counters, at t = 3 s:
//   tip_m            the free end's downward deflection [m]
//   tip_err          |tip − tip_ref| / |tip_ref|           (against full StVK)
//   pos_err          max_v ‖x_v − x_v,ref‖ / max_v ‖x_v,ref − X_v‖   (the reference's own motion)
//   volume_change    (V − V₀) / V₀ of the whole bar
//   distortion_err   mean_e ‖S_e − S_e,ref‖_F / mean_e ‖S_e,ref − I‖_F, S = RᵀF the element's
//                    stretch (rotation removed): per-element shape error
//   *_corot          the same against full with the corotational material
// One run per case (the time is the run's). Expect the errors to fall linear → global → ddm3 →
// ddm6. benchmarks/ddm_figures.sh runs it and plots the counters.
//
// Fig. 9 (ddm_partition/cpca, ddm_partition/metis): the bar with a stiff clamped half and a soft
// free half (substruct generate bimaterial-bar, E = 1 / 10 MPa), cut into 4 domains by
// `substruct partition --method cpca` (§7) or METIS; counters: soft_domains (domains with most of
// their elements in the soft half), domains, interface_vertices, and pos_err / tip_err of ddm on
// that partition against full StVK after 3 s.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <Eigen/LU>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/kinematics/polar_decomposition.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"

namespace {

using namespace substruct;
namespace fs = std::filesystem;

constexpr long kSteps = 300;  // 3 s at dt = 0.01 s

const PluginHost& host() {
  static const PluginHost h({SUBSTRUCT_PLUGIN_DIR}, false);
  return h;
}

fs::path bar_scene() {
  const fs::path dir = fs::temp_directory_path() / "substruct-bench-ddm-accuracy";
  const fs::path ini = dir / "bar.ini";
  if (fs::exists(ini)) return ini;
  fs::create_directories(dir);
  const std::string command =
      fmt::format("'{}' generate bar --out '{}' --youngs-modulus 1e6 > '{}' 2>&1", SUBSTRUCT_CLI,
                  dir.string(), (dir / "generate.log").string());
  if (std::system(command.c_str()) != 0 || !fs::exists(ini))
    throw Error(fmt::format("could not generate the bar: {}", command));
  return ini;
}

/// The final positions of one variant, simulated once.
const Points& final_positions(const std::string& variant, Scene* scene_out = nullptr) {
  static std::map<std::string, Points> results;
  static std::unique_ptr<Scene> scene;
  auto it = results.find(variant);
  if (it != results.end() && (scene_out == nullptr || scene)) {
    if (scene_out) *scene_out = *scene;
    return it->second;
  }
  std::vector<std::string> o{"--run.exporters=", "--run.loads=gravity", "--full.mass=lumped",
                             "--full.integrator=backward-euler"};
  if (variant == "full_stvk")
    o.insert(o.end(), {"--coupling.plugin=full", "--material.model=stvk"});
  else if (variant == "full_corotational")
    o.insert(o.end(), {"--coupling.plugin=full", "--material.model=corotational"});
  else {
    o.insert(o.end(), {"--coupling.plugin=ddm", "--material.model=linear"});
    if (variant == "linear") o.insert(o.end(), {"--scene.domains=single", "--ddm.rotation=none"});
    if (variant == "global") o.push_back("--scene.domains=single");
    if (variant == "ddm3") o.push_back("--scene.domains=sets");
    if (variant == "ddm6") o.push_back("--scene.domains=auto:6");
  }
  Simulation sim(Config::load(bar_scene(), o, host()), host());
  sim.precompute();
  sim.reset();
  StepStats stats;
  for (long s = 0; s < kSteps; ++s) sim.step(stats);
  if (!scene) scene = std::make_unique<Scene>(sim.scene());
  if (scene_out) *scene_out = *scene;
  return results[variant] = sim.positions();
}

struct Shape {
  double volume = 0;
  std::vector<Mat3> stretch;  // S = RᵀF per element
};

Shape shape_of(const TetMesh& mesh, const TetGeometry& geometry, const Points& x) {
  Shape s;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    Mat3 Ds;
    for (int k = 0; k < 3; ++k)
      Ds.col(k) = (x.row(mesh.tets(e, k + 1)) - x.row(mesh.tets(e, 0))).transpose();
    const Mat3 F = Ds * geometry.Dm_inv[static_cast<std::size_t>(e)];
    s.volume += F.determinant() * geometry.volume[static_cast<std::size_t>(e)];
    s.stretch.push_back(polar_decomposition(F).S);
  }
  return s;
}

void accuracy_case(benchmark::State& state, const std::string& variant) {
  try {
    Scene scene;
    for (auto _ : state) final_positions(variant, &scene);
    const TetMesh& mesh = scene.mesh;
    const TetGeometry geometry = TetGeometry::build(mesh);
    const Points& x = final_positions(variant);
    const Shape shape = shape_of(mesh, geometry, x);
    double rest_volume = 0;
    for (double v : geometry.volume) rest_volume += v;
    const Index v = scene.tracked_vertices.back();  // a corner of the free end
    const double tip = mesh.vertices(v, 1) - x(v, 1);
    state.counters["tip_m"] = tip;
    state.counters["volume_change"] = shape.volume / rest_volume - 1;
    for (const std::string reference : {"full_stvk", "full_corotational"}) {
      const std::string suffix = reference == "full_stvk" ? "" : "_corot";
      const Points& r = final_positions(reference);
      const Shape ref = shape_of(mesh, geometry, r);
      const double tip_ref = mesh.vertices(v, 1) - r(v, 1);
      const double motion = (r - mesh.vertices).rowwise().norm().maxCoeff();
      double distortion = 0, ref_distortion = 0;
      for (std::size_t e = 0; e < ref.stretch.size(); ++e) {
        distortion += (shape.stretch[e] - ref.stretch[e]).norm();
        ref_distortion += (ref.stretch[e] - Mat3::Identity()).norm();
      }
      state.counters["tip_err" + suffix] = std::abs(tip - tip_ref) / std::abs(tip_ref);
      state.counters["pos_err" + suffix] = (x - r).rowwise().norm().maxCoeff() / motion;
      state.counters["distortion_err" + suffix] = distortion / ref_distortion;
    }
  } catch (const Error& e) {
    state.SkipWithError(e.what());
  }
}

/// The bimaterial bar, and its partition by `method` into 4 domains (files made once).
std::pair<fs::path, fs::path> bimaterial_partition(const std::string& method) {
  const fs::path dir = fs::temp_directory_path() / "substruct-bench-ddm-accuracy" / "bimaterial";
  const fs::path ini = dir / "bimaterial_bar.ini";
  if (!fs::exists(ini)) {
    fs::create_directories(dir);
    const std::string command = fmt::format("'{}' generate bimaterial-bar --out '{}' > /dev/null",
                                            SUBSTRUCT_CLI, dir.string());
    if (std::system(command.c_str()) != 0) throw Error("could not generate the bimaterial bar");
  }
  const fs::path file = dir / (method + ".domains");
  if (!fs::exists(file)) {
    const std::string command = fmt::format(
        "'{}' partition '{}' --method {} --domains 4 --out '{}' > '{}' 2>&1", SUBSTRUCT_CLI,
        ini.string(), method, file.string(), (dir / (method + ".log")).string());
    if (std::system(command.c_str()) != 0) throw Error("substruct partition failed: " + command);
  }
  return {ini, file};
}

Points run_bimaterial(const fs::path& ini, const std::vector<std::string>& overrides,
                      Scene* scene_out) {
  std::vector<std::string> o{"--run.exporters=", "--run.loads=gravity", "--full.mass=lumped",
                             "--full.integrator=backward-euler"};
  o.insert(o.end(), overrides.begin(), overrides.end());
  Simulation sim(Config::load(ini, o, host()), host());
  sim.precompute();
  sim.reset();
  StepStats stats;
  for (long s = 0; s < kSteps; ++s) sim.step(stats);
  if (scene_out) *scene_out = sim.scene();
  return sim.positions();
}

void partition_case(benchmark::State& state, const std::string& method) {
  try {
    const auto [ini, file] = bimaterial_partition(method);
    Scene scene;
    Points x;
    for (auto _ : state)
      x = run_bimaterial(
          ini,
          {"--coupling.plugin=ddm", "--material.model=linear", "--scene.domains=" + file.string()},
          &scene);
    static const Points reference =
        run_bimaterial(ini, {"--coupling.plugin=full", "--material.model=stvk"}, nullptr);
    const TetMesh& mesh = scene.mesh;
    const std::vector<Index>& soft = mesh.element_sets.at("soft");
    int soft_domains = 0;
    for (const SubMesh& d : scene.decomposition.domains) {
      std::size_t in_soft = 0;
      for (Index e : d.global_element) in_soft += std::binary_search(soft.begin(), soft.end(), e);
      if (2 * in_soft > d.global_element.size()) ++soft_domains;
    }
    std::size_t interface_vertices = 0;
    for (const Interface& i : scene.decomposition.interfaces)
      interface_vertices += i.vertices.size();
    const Index v = scene.tracked_vertices.back();
    const double tip = mesh.vertices(v, 1) - x(v, 1),
                 tip_ref = mesh.vertices(v, 1) - reference(v, 1);
    state.counters["domains"] = scene.num_domains();
    state.counters["soft_domains"] = soft_domains;
    state.counters["interface_vertices"] = static_cast<double>(interface_vertices);
    state.counters["tip_err"] = std::abs(tip - tip_ref) / std::abs(tip_ref);
    state.counters["pos_err"] = (x - reference).rowwise().norm().maxCoeff() /
                                (reference - mesh.vertices).rowwise().norm().maxCoeff();
  } catch (const Error& e) {
    state.SkipWithError(e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (const char* method : {"cpca", "metis"})
    benchmark::RegisterBenchmark(fmt::format("ddm_partition/{}", method).c_str(),
                                 [method](benchmark::State& s) { partition_case(s, method); })
        ->Iterations(1)
        ->Unit(benchmark::kSecond);
  for (const char* variant : {"linear", "global", "ddm3", "ddm6", "full_corotational", "full_stvk"})
    benchmark::RegisterBenchmark(fmt::format("ddm_bar_accuracy/{}", variant).c_str(),
                                 [variant](benchmark::State& s) { accuracy_case(s, variant); })
        ->Iterations(1)
        ->Unit(benchmark::kSecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
