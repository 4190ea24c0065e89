// SPDX-License-Identifier: GPL-3.0-or-later
// The `full` coupling plugin against beam theory: a cantilever box beam (L = 1 m, square section
// h = 0.1 m, ν = 0) clamped at x = 0, meshed with linear tets, compared with Euler–Bernoulli's
// static tip deflection and first natural frequency; and the energy behaviour of its integrators
// in a large-deformation StVK swing.
//
// Linear tets are stiff in bending (shear locking) and converge as h²: 10 cells through the
// thickness and 120 along the length bring the tip deflection within 2 % of δ = qL⁴/(8EI)
// (−17 % with 4 × 40 cells). With ν = 0 nothing varies across the width, so one cell spans it
// (and locks less than several would: −3.6 % with 80×8×1 cells, −4.0 % with 80×8×2). The 3-D
// solution itself is about 0.8 % more flexible than Euler–Bernoulli at L/h = 10 (shear deformation,
// Timoshenko: 4EI/(κGAL²) with κ = 5/6).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/implicit_integrator.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"
#include "support/clamped_box_beam.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;
using std::numbers::pi;

constexpr double kLength = 1.0;    // L [m]
constexpr double kHeight = 0.1;    // h [m], square section
constexpr double kDensity = 1000;  // ρ [kg/m³]
const Vec3 kGravity(0, -9.81, 0);

struct BeamSpec {
  int nx, ny, nz;
  double youngs_modulus;
};

// A box-mesh beam written as .veg + .bou (x = 0 face clamped, 1-based) into `dir`.
fs::path write_beam(const fs::path& dir, const BeamSpec& spec) {
  const std::string stem = fmt::format("beam_{}x{}x{}", spec.nx, spec.ny, spec.nz);
  testing::write_clamped_box_beam(dir, stem, Vec3(kLength, kHeight, kHeight), spec.nx, spec.ny,
                                  spec.nz);
  return dir / (stem + ".veg");
}

// A scene, its solvers and the full method, alive together.
struct FullRun {
  FullRun(const PluginHost& host, const fs::path& veg, double youngs_modulus,
          std::vector<Setting> extra)
      : config(make_config(host, veg, youngs_modulus, std::move(extra))),
        scene(load_scene(config)),
        solvers(host, config),
        method(host.create<CouplingMethod>("full", PluginKind::coupling, PluginContext{config})) {
    method->precompute(PrecomputeContext{scene, solvers, veg.parent_path() / "cache"});
    method->reset({}, {});
    const Index n = scene.mesh.num_vertices();
    for (Index v = 0; v < n; ++v)
      if (scene.mesh.vertices(v, 0) == kLength) tip.push_back(v);
  }

  static Config make_config(const PluginHost& host, const fs::path& veg, double youngs_modulus,
                            std::vector<Setting> extra) {
    std::vector<Setting> settings{
        {"scene.mesh", veg.filename().string(), "test"},
        {"scene.fixed", veg.stem().string() + ".bou", "test"},
        {"material.model", "stvk", "test"},
        {"material.youngs_modulus", fmt::format("{}", youngs_modulus), "test"},
        {"material.poisson_ratio", "0", "test"},
        {"material.density", fmt::format("{}", kDensity), "test"},
        {"coupling.plugin", "full", "test"},
        {"solvers.linear", "cholmod", "test"}};
    settings.insert(settings.end(), extra.begin(), extra.end());
    return Config::from_settings(settings, veg.parent_path(), host);
  }

  // Mean vertical displacement of the x = L face.
  double tip_deflection() const {
    Points x;
    method->positions(x);
    double sum = 0;
    for (Index v : tip) sum += x(v, 1) - scene.mesh.vertices(v, 1);
    return sum / double(tip.size());
  }

  Eigen::VectorXd displacement() const {
    Points x;
    method->positions(x);
    return flat(x) - flat(scene.mesh.vertices);
  }

  Config config;
  Scene scene;
  SolverProvider solvers;
  std::unique_ptr<CouplingMethod> method;
  std::vector<Index> tip;
};

class FullBeamTheory : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ =
        new fs::path(fs::temp_directory_path() / fmt::format("substruct-full-beam-{}", getpid()));
    fs::create_directories(*dir_);
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  static fs::path* dir_;
};

fs::path* FullBeamTheory::dir_ = nullptr;

// Euler–Bernoulli: I = h⁴/12, A = h², q = ρAg.
constexpr double kArea = kHeight * kHeight;
constexpr double kInertia = kHeight * kHeight * kHeight * kHeight / 12;

// (a) and (b): E = 1 GPa, so that gravity bends the beam by δ/L ≈ 1.5e-3 (geometrically linear
// for StVK); (a) static deflection, (b) free vibration released from it.
TEST_F(FullBeamTheory, StaticDeflectionAndFirstFrequencyMatchEulerBernoulli) {
  const auto start = std::chrono::steady_clock::now();
  const double E = 1e9;
  const fs::path veg = write_beam(*dir_, {120, 10, 1, E});

  // (a) Static: backward Euler with dt = 100 s, far above the beam's periods (ω₁dt ≈ 1e4), is a
  // static solve regularised by M/dt² ≈ 1e-8 K; three steps from rest reach equilibrium.
  FullRun statics(host_, veg, E, {{"full.integrator", "backward-euler", "test"}});
  ExternalForces gravity;
  gravity.gravity = kGravity;
  StepStats stats;
  for (int i = 0; i < 3; ++i) statics.method->step(100.0, gravity, stats);
  const double delta = -statics.tip_deflection();
  const double q = kDensity * kArea * 9.81;
  const double delta_eb = q * std::pow(kLength, 4) / (8 * E * kInertia);
  const double deflection_error = delta / delta_eb - 1;
  std::printf(
      "[ beam ] 120×10×1 mesh, %d free DOFs: tip deflection %.6e m, Euler–Bernoulli "
      "%.6e m: %+.2f %%\n",
      statics.method->dofs(), delta, delta_eb, 100 * deflection_error);
  EXPECT_LT(std::abs(deflection_error), 0.025);
  for (const char* stage : {"assembly", "factorization", "solve"})
    EXPECT_TRUE(std::any_of(stats.stage_seconds.begin(), stats.stage_seconds.end(),
                            [&](const auto& s) { return s.first == stage && s.second > 0; }))
        << stage;

  // The same equilibrium from the integrator's own static solve (Newton on f_int(u) = M g).
  {
    const ElasticForceModel model(statics.scene.mesh, MaterialModel::stvk);
    SecondOrderSystem system;
    system.mass = consistent_mass(statics.scene.mesh);
    system.internal_forces = elastic_internal_forces(model);
    system.fixed_dofs = vertex_dofs(statics.scene.fixed_vertices);
    const Eigen::VectorXd g = kGravity.replicate(statics.scene.mesh.num_vertices(), 1);
    const Eigen::VectorXd f = system.mass * g;
    auto solver = statics.solvers.linear();
    ImplicitIntegrator integrator(system, *solver);
    integrator.static_equilibrium(f);
    const Eigen::VectorXd u = statics.displacement();
    EXPECT_LT((integrator.displacement() - u).norm(), 1e-6 * u.norm());
  }

  // (b) Free vibration from the static deflection u_s, gravity off, trapezoidal Newmark with 25
  // steps per Euler–Bernoulli period for 2.1 periods, with the linear material (K₀, the
  // small-strain limit of StVK: at δ/L ≈ 1.5e-3 they differ by O(δ/L); (a) checked StVK itself).
  // The period is read from the zero crossings of s(t) = u_sᵀ M u(t): the release shape is almost
  // all mode 1, and in s(t) each mode weighs by the square of its content (mode 2 by ~2e-4,
  // against ~3 % in the tip's motion).
  const double f1_eb =
      1.8751 * 1.8751 / (2 * pi * kLength * kLength) * std::sqrt(E * kInertia / (kDensity * kArea));
  const double dt = 1 / (25 * f1_eb);
  const Eigen::VectorXd u_static = statics.displacement();
  const Eigen::VectorXd Mu_static = consistent_mass(statics.scene.mesh) * u_static;
  FullRun dynamics(host_, veg, E, {{"material.model", "linear", "test"}});
  dynamics.method->reset(u_static, {});
  std::vector<double> signal{Mu_static.dot(dynamics.displacement())};
  std::vector<double> tip{dynamics.tip_deflection()};
  const ExternalForces none;
  StepStats vibration;
  for (int i = 0; i < 53; ++i) {
    dynamics.method->step(dt, none, vibration);
    signal.push_back(Mu_static.dot(dynamics.displacement()));
    tip.push_back(dynamics.tip_deflection());
  }
  // The frequency from the zero crossings (both directions, half a period apart) of a signal; the
  // trapezoidal rule maps ω to Ω with tan(Ω dt/2) = ω dt/2, whose period elongation is undone.
  auto frequency = [dt](const std::vector<double>& x, double& discrete) {
    std::vector<double> crossings;
    for (std::size_t i = 1; i < x.size(); ++i)
      if ((x[i - 1] < 0) != (x[i] < 0))
        crossings.push_back(dt * (double(i - 1) + x[i - 1] / (x[i - 1] - x[i])));
    EXPECT_GE(crossings.size(), 4u);
    discrete = double(crossings.size() - 1) / (2 * (crossings.back() - crossings.front()));
    return std::tan(pi * discrete * dt) / (pi * dt);
  };
  double discrete = 0, tip_discrete = 0;
  const double f1 = frequency(signal, discrete);
  const double f1_tip = frequency(tip, tip_discrete);
  const double frequency_error = f1 / f1_eb - 1;
  std::printf(
      "[ beam ] first frequency %.4f Hz (discrete %.4f Hz; from the tip alone %.4f Hz), "
      "Euler–Bernoulli %.4f Hz: %+.2f %%\n",
      f1, discrete, f1_tip, f1_eb, 100 * frequency_error);
  EXPECT_LT(std::abs(frequency_error), 0.01);
  EXPECT_LT(std::abs(f1_tip / f1_eb - 1), 0.02);
  // Undamped and linear: the trapezoidal rule keeps the amplitude; the sampled extreme is within
  // cos(π/25) of it.
  const double lowest = *std::min_element(signal.begin(), signal.end());
  EXPECT_GT(-lowest / signal.front(), std::cos(pi / 25) - 1e-3);
  EXPECT_LT(-lowest / signal.front(), 1 + 1e-6);
  std::printf("[ beam ] static + vibration: %.1f s; %d Newton iterations in %zu steps\n",
              seconds_since(start), vibration.iterations, signal.size() - 1);
  for (const auto& [stage, seconds] : vibration.stage_seconds)
    std::printf("   %s %.2f s\n", stage.c_str(), seconds);
}

// A soft beam (E = 3 MPa, 16×2×2 cells) released straight under gravity swings down to
// δ/L ≈ 0.45 and back, with 100 steps per period of the linearised beam.
struct Swing {
  std::vector<double> energy;  // total energy per step
  std::vector<double> kinetic;
  std::vector<double> quadrature;  // E(u₊) − E(u) − ½ Δuᵀ(f(u) + f(u₊)) per step
  std::vector<double> newton_bound;
  double lowest_tip = 0;
};

Swing swing(const PluginHost& host, const fs::path& dir, const std::string& integrator,
            const std::string& material, int steps) {
  const double E = 3e6;
  const double tolerance = 1e-8;  // full.newton_tolerance's default
  const fs::path veg = write_beam(dir, {16, 2, 2, E});
  FullRun run(host, veg, E,
              {{"full.integrator", integrator, "test"}, {"material.model", material, "test"}});
  const ElasticForceModel model(run.scene.mesh, parse_material_model(material));
  const double f1_eb =
      1.8751 * 1.8751 / (2 * pi * kLength * kLength) * std::sqrt(E * kInertia / (kDensity * kArea));
  const double dt = 1 / (100 * f1_eb);
  ExternalForces gravity;
  gravity.gravity = kGravity;
  const Eigen::VectorXd f_ext =
      consistent_mass(run.scene.mesh) * kGravity.replicate(run.scene.mesh.num_vertices(), 1);
  Swing s;
  StepStats stats;
  s.energy.push_back(run.method->energies(kGravity).total());
  Eigen::VectorXd u = run.displacement();
  Eigen::VectorXd f = model.internal_force(u);
  for (int i = 0; i < steps; ++i) {
    run.method->step(dt, gravity, stats);
    const Energies e = run.method->energies(kGravity);
    s.energy.push_back(e.total());
    s.kinetic.push_back(e.kinetic);
    const Eigen::VectorXd u_next = run.displacement();
    const Eigen::VectorXd f_next = model.internal_force(u_next);
    const Eigen::VectorXd du = u_next - u;
    s.quadrature.push_back(model.energy(u_next) - model.energy(u) - 0.5 * du.dot(f + f_next));
    // Newton leaves |r| ≤ tol · (force scale) at each end of the step; its work is at most
    // |Δu| · 2 tol (|f_ext| + |f_int| + |M a|), with |M a| ≤ |f_ext| + |f_int| + |r|.
    s.newton_bound.push_back(4 * tolerance * du.norm() * (f_ext.norm() + f_next.norm()));
    s.lowest_tip = std::min(s.lowest_tip, run.tip_deflection());
    u = u_next;
    f = f_next;
  }
  return s;
}

// (c) The trapezoidal rule conserves energy exactly for linear systems. For StVK its energy change
// in a step is the trapezoidal-quadrature error of the internal work along the step,
//     q = E(u₊) − E(u) − ½ Δuᵀ(f_int(u) + f_int(u₊))
// (see test_implicit_integrator), plus the work of the Newton residual, at most
// |Δu| · 2 tol · (force scale). Both are checked step by step. q is third order in Δu and changes
// sign as the beam swings down and back, so the energy error stays bounded instead of drifting:
// over 4 periods it stays below 2e-3 of the largest kinetic energy (measured: 4e-4).
TEST_F(FullBeamTheory, TrapezoidalNewmarkConservesEnergyInALargeSwing) {
  const auto start = std::chrono::steady_clock::now();
  const int steps = 400;
  for (const std::string material : {"stvk", "linear"}) {
    const Swing s = swing(host_, *dir_, "newmark", material, steps);
    const double exchanged = *std::max_element(s.kinetic.begin(), s.kinetic.end());
    double worst_identity = 0, deviation = 0, largest_quadrature = 0;
    for (int i = 0; i < steps; ++i) {
      const double change = s.energy[i + 1] - s.energy[i];
      const double mismatch = std::abs(change - s.quadrature[i]);
      EXPECT_LE(mismatch, s.newton_bound[i] + 1e-12 * exchanged) << material << ", step " << i;
      worst_identity = std::max(worst_identity, mismatch / exchanged);
      deviation = std::max(deviation, std::abs(s.energy[i + 1] - s.energy[0]) / exchanged);
      largest_quadrature = std::max(largest_quadrature, std::abs(s.quadrature[i]) / exchanged);
    }
    std::printf(
        "[ swing ] %s: tip down to %.3f m; largest kinetic energy %.4g J; energy "
        "deviation at most %.3g of it (at the end %.3g); largest step quadrature error "
        "%.2g, identity mismatch %.2g\n",
        material.c_str(), -s.lowest_tip, exchanged, deviation,
        (s.energy.back() - s.energy.front()) / exchanged, largest_quadrature, worst_identity);
    EXPECT_GT(-s.lowest_tip, 0.3 * kLength);  // a large deformation
    if (material == "stvk") {
      EXPECT_LT(deviation, 2e-3);
    } else {
      EXPECT_LT(largest_quadrature, 1e-9);  // E is quadratic: exact up to round-off
      EXPECT_LT(deviation, 1e-9);
    }
  }
  std::printf("[ swing ] trapezoidal: %.1f s\n", seconds_since(start));
}

// (d) Backward Euler dissipates: for a step, E₊ − E = −½|v₊ − v|²_M − (the convexity gap of the
// elastic energy along the step) ≤ 0 (up to the Newton residual's work).
TEST_F(FullBeamTheory, BackwardEulerDissipatesEnergyMonotonically) {
  const int steps = 200;
  const Swing s = swing(host_, *dir_, "backward-euler", "stvk", steps);
  const double exchanged = *std::max_element(s.kinetic.begin(), s.kinetic.end());
  for (int i = 0; i < steps; ++i)
    EXPECT_LE(s.energy[i + 1] - s.energy[i], s.newton_bound[i] + 1e-12 * exchanged) << "step " << i;
  const double lost = (s.energy.front() - s.energy.back()) / exchanged;
  std::printf("[ swing ] backward Euler lost %.3g of the largest kinetic energy in %d steps\n",
              lost, steps);
  EXPECT_GT(lost, 0.05);
}

}  // namespace
}  // namespace substruct
