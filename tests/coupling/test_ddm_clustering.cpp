// SPDX-License-Identifier: GPL-3.0-or-later
// The ddm plugin's clustering solvers (Huang et al. 2006, §5.1) on the shipped bar and torus knot:
// the default `clustering` (a Galerkin backward-Euler step on the CPCA clusters' bases) keeps its
// energy bounded over many steps, damped and undamped (the torus knot never above its start, the
// bar after a gain in its first swings), and approaches `hybrid` as its budget grows;
// `clustering-rows` (Eq. 7 as printed) gains energy without bound. SUBSTRUCT_DDM_STEPS=N runs the
// stability tests for N steps instead of their default (the README quotes 10,000).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "support/method_run.hpp"
#include "support/shared_data.hpp"

namespace substruct {
namespace {

using testing::MethodRun;

const Vec3 kGravity(0, -9.81, 0);  // the scenes' [gravity]

class DdmClusteringTest : public ::testing::Test {
 protected:
  std::unique_ptr<MethodRun> run(const std::string& scene, std::vector<std::string> overrides) {
    overrides.insert(overrides.begin(), {"--coupling.plugin=ddm", "--run.exporters="});
    Config config =
        Config::load(testing::share_dir() / "scenes" / (scene + ".ini"), overrides, host_);
    return std::make_unique<MethodRun>(host_, std::move(config), "ddm");
  }
  static int steps(int default_steps) {
    const char* s = std::getenv("SUBSTRUCT_DDM_STEPS");
    return s ? std::max(1, std::atoi(s)) : default_steps;
  }
  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

// Total energy (kinetic + elastic + gravity's potential) along a run released at rest.
struct EnergyTrace {
  std::vector<double> total;
  int completed = 0;     // steps done before a divergence, if any
  double scale = 0;      // max |E(t) − E(0)|: the energy the motion exchanges
  double rise = 0;       // max_t E(t) − E(0): energy gained over the start (≤ 0 when none)
  double late_rise = 0;  // max over the second half of E − E at the half: growth late in the run
  double kinetic_end = 0;
};

EnergyTrace trace_energy(MethodRun& r, int steps, double dt) {
  ExternalForces f;
  f.gravity = kGravity;
  EnergyTrace t;
  t.total.push_back(r.method->energies(kGravity).total());
  try {
    for (int i = 0; i < steps; ++i) {
      r.run(1, dt, f);
      t.total.push_back(r.method->energies(kGravity).total());
      ++t.completed;
    }
  } catch (const Error&) {  // a divergence ends the trace
  }
  const double e0 = t.total.front();
  const std::size_t half = t.total.size() / 2;
  t.rise = -1e300;
  t.late_rise = -1e300;
  for (std::size_t i = 0; i < t.total.size(); ++i) {
    t.scale = std::max(t.scale, std::abs(t.total[i] - e0));
    t.rise = std::max(t.rise, t.total[i] - e0);
    if (i >= half) t.late_rise = std::max(t.late_rise, t.total[i] - t.total[half]);
  }
  t.kinetic_end = r.method->energies(kGravity).kinetic;
  return t;
}

void print(const char* what, const EnergyTrace& t) {
  std::printf(
      "%s: %d steps, E(0) = %.6g J, exchanged %.4g J, max E − E(0) = %.3g J, growth over the "
      "second half %.3g J, final E − E(0) = %.4g J, kinetic at the end %.3g J\n",
      what, t.completed, t.total.front(), t.scale, t.rise, t.late_rise,
      t.total.back() - t.total.front(), t.kinetic_end);
}

// Stable: never above the energy it started with (gravity does the only work), no growth late in
// the run, and it moves (a compression that froze the bar would exchange no energy).
void expect_stable(const EnergyTrace& t, int steps, double least_exchanged) {
  EXPECT_EQ(t.completed, steps);
  EXPECT_GT(t.scale, least_exchanged);
  EXPECT_LT(t.rise, 1e-6 * t.scale);
  EXPECT_LT(t.late_rise, 1e-6 * t.scale);
}

// The bar's domains turn by up to ~40°: the rotation refits still move some of the state out of
// span(Q) faster than the projections' small losses, and the bar gains energy in its first swings
// (21.7 J damped, 38.8 J undamped over hybrid's start, where hybrid loses 7.1 J; README). It is
// bounded: no growth late in the run, and it settles (10,000 steps: the same maxima, growth over
// the second half below 1e-6 J). Eq. 7 as printed gains 6·10⁴ J within 300 steps.
TEST_F(DdmClusteringTest, TheBarStaysBoundedAndSettlesDampedAndUndamped) {
  const int n = steps(1500);
  const EnergyTrace damped = trace_energy(*run("bar", {"--ddm.solver=clustering"}), n, 0.01);
  print("bar, clustering, damped", damped);
  EXPECT_EQ(damped.completed, n);
  EXPECT_GT(damped.scale, 1.0);
  EXPECT_LT(damped.rise, 25.0);
  EXPECT_LT(damped.late_rise, 1e-3 * damped.scale);
  EXPECT_LT(damped.kinetic_end, 1e-6 * damped.scale);  // settled (α = 2/s)
  const EnergyTrace free =
      trace_energy(*run("bar", {"--ddm.solver=clustering", "--material.rayleigh_mass=0",
                                "--material.rayleigh_stiffness=0"}),
                   n, 0.01);
  print("bar, clustering, undamped", free);
  EXPECT_EQ(free.completed, n);
  EXPECT_LT(free.rise, 45.0);
  EXPECT_LT(free.total.back() - free.total.front(), 0.25 * free.rise);  // falling back
  print("bar, hybrid, undamped (for comparison)",
        trace_energy(*run("bar", {"--ddm.solver=hybrid", "--material.rayleigh_mass=0",
                                  "--material.rayleigh_stiffness=0"}),
                     n, 0.01));
}

TEST_F(DdmClusteringTest, TheTorusKnotKeepsItsEnergyFromGrowingDampedAndUndamped) {
  const int n = steps(1500);
  const EnergyTrace damped = trace_energy(*run("torus_knot", {"--ddm.solver=clustering"}), n, 0.01);
  print("torus knot, clustering, damped", damped);
  expect_stable(damped, n, 1e-3);
  EXPECT_LT(damped.kinetic_end, 1e-6 * damped.scale);
  const EnergyTrace free =
      trace_energy(*run("torus_knot", {"--ddm.solver=clustering", "--material.rayleigh_mass=0",
                                       "--material.rayleigh_stiffness=0"}),
                   n, 0.01);
  print("torus knot, clustering, undamped", free);
  expect_stable(free, n, 1e-3);
  print("torus knot, hybrid, undamped (for comparison)",
        trace_energy(*run("torus_knot", {"--ddm.solver=hybrid", "--material.rayleigh_mass=0",
                                         "--material.rayleigh_stiffness=0"}),
                     n, 0.01));
}

// Eq. 7 as printed, with the paper's SVD for W: G̃ unsymmetric and rank-deficient, the velocity
// leaking out of its range as the domains turn. It gains energy within a few hundred steps.
TEST_F(DdmClusteringTest, ThePapersRowWiseCompressionGainsEnergy) {
  // Measured: +6.3·10⁴ J on the bar, +4.1 J on the torus knot (whose sag exchanges 0.3 J).
  for (const auto& [scene, gain] : {std::pair{"bar", 1e3}, std::pair{"torus_knot", 1.0}}) {
    const EnergyTrace t = trace_energy(*run(scene, {"--ddm.solver=clustering-rows"}), 300, 0.01);
    print((std::string(scene) + ", clustering-rows").c_str(), t);
    EXPECT_TRUE(t.completed < 300 || t.rise > gain) << scene;
  }
}

// Table 1's budgets: the trajectory's error against `hybrid` (max over 1 s of the largest vertex
// distance over the largest displacement of hybrid) is a few % at 140 floats per node.
TEST_F(DdmClusteringTest, TheErrorAgainstHybridFallsWithTheBudget) {
  ExternalForces f;
  f.gravity = kGravity;
  for (const char* scene : {"bar", "torus_knot"}) {
    std::vector<double> errors;
    for (const char* budget : {"20", "40", "60", "100", "140"}) {
      auto exact = run(scene, {"--ddm.solver=hybrid"});
      auto compressed =
          run(scene, {"--ddm.solver=clustering", std::string("--ddm.floats_per_node=") + budget});
      double difference = 0, motion = 0;
      for (int i = 0; i < 100; ++i) {
        exact->run(1, 0.01, f);
        compressed->run(1, 0.01, f);
        difference = std::max(difference, (compressed->x() - exact->x()).cwiseAbs().maxCoeff());
        motion = std::max(motion, exact->displacement().cwiseAbs().maxCoeff());
      }
      errors.push_back(difference / motion);
      std::printf("%s, %s floats per node: error against hybrid %.4f (%s)\n", scene, budget,
                  errors.back(), compressed->method->interface_gap() < 1e-9 ? "joined" : "gap");
      EXPECT_LT(compressed->method->interface_gap(), 1e-9) << scene << " " << budget;
    }
    // Measured: bar 1.32 / 0.069 / 0.014 / 0.030 / 0.033, torus knot 3.03 / 0.77 / 0.21 / 0.062 /
    // 0.036 (not monotone on the bar past 60: CPCA's clusters change with m).
    EXPECT_LT(errors.back(), 0.06) << scene;
    EXPECT_LT(errors.back(), 0.1 * errors.front()) << scene;
  }
}

}  // namespace
}  // namespace substruct
