// SPDX-License-Identifier: GPL-3.0-or-later
// The `full` coupling plugin's behaviour beyond beam theory (test_full_beam_theory.cpp): its
// options, the external forces it applies, its energies, damping, constraints and divergence.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"
#include "support/clamped_box_beam.hpp"
#include "support/method_run.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

// A 1 m × 0.1 m × 0.1 m box beam, 8×2×2 cells, clamped at x = 0; ρ = 1000, E = 1e6, ν = 0.3.
class FullCouplingTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<testing::SuiteDir>("FullCoupling");
    testing::write_clamped_box_beam(dir_->path(), "beam", Vec3(1, 0.1, 0.1), 8, 2, 2);
  }
  static void TearDownTestSuite() { dir_.reset(); }

  using Run = testing::MethodRun;

  Config config(const std::vector<Setting>& extra) const {
    std::vector<Setting> settings{{"scene.mesh", "beam.veg", "test"},
                                  {"scene.fixed", "beam.bou", "test"},
                                  {"material.youngs_modulus", "1e6", "test"},
                                  {"material.poisson_ratio", "0.3", "test"},
                                  {"material.density", "1000", "test"}};
    settings.insert(settings.end(), extra.begin(), extra.end());
    return Config::from_settings(settings, dir_->path(), host_);
  }

  std::unique_ptr<Run> run(const std::vector<Setting>& extra = {}) {
    const Config c = config(extra);
    return std::make_unique<Run>(host_, c, "full", c.base_dir() / "cache");
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  static inline std::unique_ptr<testing::SuiteDir> dir_;
};

TEST_F(FullCouplingTest, OptionsHaveDefaultsAndBadValuesAreRefused) {
  const auto options = host_.find("full", PluginKind::coupling).options().description();
  std::vector<std::string> keys;
  for (const auto& option : options.options()) keys.push_back(option->long_name());
  EXPECT_EQ(keys, (std::vector<std::string>{"full.integrator", "full.newmark_beta",
                                            "full.newmark_gamma", "full.newton_tolerance",
                                            "full.newton_max_iterations", "full.mass"}));
  const Config defaults = config({});
  EXPECT_EQ(defaults.get<std::string>("full.integrator"), "newmark");
  EXPECT_EQ(defaults.get<double>("full.newmark_beta"), 0.25);
  EXPECT_EQ(defaults.get<double>("full.newmark_gamma"), 0.5);
  EXPECT_EQ(defaults.get<std::string>("full.mass"), "consistent");

  for (const Setting& bad : std::vector<Setting>{{"full.integrator", "euler", "test"},
                                                 {"full.mass", "diagonal", "test"},
                                                 {"full.newmark_gamma", "0.3", "test"},
                                                 {"full.newton_max_iterations", "0", "test"}}) {
    // Refused when the config is read, before the plugin is made.
    EXPECT_THROW(
        {
          const Config c = config({bad});
          host_.create<CouplingMethod>("full", PluginKind::coupling, PluginContext{c});
        },
        Error)
        << bad.key << " = " << bad.value;
  }
}

TEST_F(FullCouplingTest, FixedVerticesStayAndDofsCountTheFreeOnes) {
  auto r = run();
  EXPECT_EQ(r->scene.fixed_vertices.size(), 9u);
  EXPECT_EQ(r->method->dofs(), 3 * (r->scene.mesh.num_vertices() - 9));
  ExternalForces forces;
  forces.gravity = Vec3(0, -9.81, 0);
  StepStats stats;
  for (int i = 0; i < 5; ++i) r->method->step(0.01, forces, stats);
  const Eigen::VectorXd u = r->displacement();
  for (Index v : r->scene.fixed_vertices) EXPECT_EQ(u.segment<3>(3 * v), Vec3::Zero());
  EXPECT_GT(u.norm(), 0);
  EXPECT_GE(stats.iterations, 5);
}

// At rest: no kinetic or elastic energy; gravity's potential −(M g)ᵀ X = m g y_c with the box's
// mass m = ρ L h² and centroid height y_c = h/2.
TEST_F(FullCouplingTest, EnergiesAtRest) {
  for (const std::string mass : {"consistent", "lumped"}) {
    auto r = run({{"full.mass", mass, "test"}});
    const Energies e = r->method->energies(Vec3(0, -9.81, 0));
    EXPECT_EQ(e.kinetic, 0.0);
    EXPECT_NEAR(e.elastic, 0.0, 1e-12);
    EXPECT_NEAR(e.gravity, 1000 * 1 * 0.01 * 9.81 * 0.05, 1e-9) << mass;
  }
}

// Consistent and lumped mass have the same row sums, so gravity's nodal forces M g agree, and so
// do static equilibria (backward Euler with dt far above the periods is a static solve).
TEST_F(FullCouplingTest, LumpedAndConsistentMassGiveTheSameStaticDeflection) {
  ExternalForces forces;
  forces.gravity = Vec3(0, -0.5, 0);
  std::vector<Eigen::VectorXd> u;
  for (const std::string mass : {"consistent", "lumped"}) {
    auto r = run({{"full.mass", mass, "test"}, {"full.integrator", "backward-euler", "test"}});
    StepStats stats;
    for (int i = 0; i < 3; ++i) r->method->step(1e3, forces, stats);
    u.push_back(r->displacement());
  }
  EXPECT_GT(u[0].norm(), 1e-3);
  EXPECT_LT((u[0] - u[1]).norm(), 1e-7 * u[0].norm());
}

// Gravity (M g), point forces and nodal forces enter f_ext additively: with the linear material
// the response to their sum is the sum of the responses.
TEST_F(FullCouplingTest, ExternalForcesSuperpose) {
  const Index tip = 8;  // vertex (8, 0, 0)
  ExternalForces gravity, point, nodal, all;
  gravity.gravity = Vec3(0, -1.5, 0.3);
  point.point_forces.push_back({tip, Vec3(0.2, 0.4, -0.1)});
  auto probe = run();
  nodal.nodal = Eigen::VectorXd::Zero(3 * probe->scene.mesh.num_vertices());
  for (Eigen::Index i = 0; i < nodal.nodal.size(); ++i) nodal.nodal[i] = 0.01 * std::sin(double(i));
  all = gravity;
  all.point_forces = point.point_forces;
  all.nodal = nodal.nodal;
  std::vector<Eigen::VectorXd> u;
  for (const ExternalForces* f : {&gravity, &point, &nodal, &all}) {
    auto r = run({{"material.model", "linear", "test"}});
    StepStats stats;
    for (int i = 0; i < 10; ++i) r->method->step(0.005, *f, stats);
    u.push_back(r->displacement());
  }
  EXPECT_LT((u[0] + u[1] + u[2] - u[3]).norm(), 1e-9 * u[3].norm());
  EXPECT_GT(u[1].norm(), 0);
  EXPECT_GT(u[2].norm(), 0);
}

// Without damping the trapezoidal rule keeps the energy of a linear system; Rayleigh damping
// (α M + β K) makes it fall at every step.
TEST_F(FullCouplingTest, RayleighDampingDissipates) {
  ExternalForces forces;
  forces.gravity = Vec3(0, -9.81, 0);
  for (const bool damped : {false, true}) {
    std::vector<Setting> settings{{"material.model", "linear", "test"}};
    if (damped) {
      settings.push_back({"material.rayleigh_mass", "0.5", "test"});
      settings.push_back({"material.rayleigh_stiffness", "0.001", "test"});
    }
    auto r = run(settings);
    StepStats stats;
    double previous = r->method->energies(forces.gravity).total();
    const double start = previous;
    for (int i = 0; i < 60; ++i) {
      r->method->step(0.01, forces, stats);
      const double e = r->method->energies(forces.gravity).total();
      if (damped) {
        EXPECT_LT(e, previous + 1e-12) << "step " << i;
      } else {
        EXPECT_NEAR(e, start, 1e-9 * std::abs(start)) << "step " << i;
      }
      previous = e;
    }
    if (damped) {
      EXPECT_LT(previous, start - 1e-3);
    }
  }
}

TEST_F(FullCouplingTest, ForcesOnMissingVerticesAreRefused) {
  auto r = run();
  StepStats stats;
  ExternalForces point;
  point.point_forces.push_back({r->scene.mesh.num_vertices(), Vec3(0, 1, 0)});
  EXPECT_THROW(r->method->step(0.01, point, stats), Error);
  ExternalForces nodal;
  nodal.nodal = Eigen::VectorXd::Ones(5);
  EXPECT_THROW(r->method->step(0.01, nodal, stats), Error);
}

TEST_F(FullCouplingTest, NonFiniteStateIsADivergenceErrorNamingTheStep) {
  auto r = run();
  // A NaN state cannot even be set: the framework refuses it at reset().
  Eigen::VectorXd u0 = Eigen::VectorXd::Zero(3 * r->scene.mesh.num_vertices());
  u0[3 * 40 + 1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(r->method->reset(u0, {}), Error);
  // A finite but absurd load drives the state to overflow within a few steps: the method stops
  // with a divergence error naming the domain and the step.
  ExternalForces absurd;
  absurd.point_forces.push_back({40, Vec3(0, std::numeric_limits<double>::max(), 0)});
  StepStats stats;
  try {
    for (int step = 0; step < 5; ++step) r->method->step(0.01, absurd, stats);
    FAIL() << "an overflowing state was stepped without an error";
  } catch (const DivergenceError& e) {
    EXPECT_GE(e.step(), 1);
    EXPECT_LE(e.step(), 5);
    EXPECT_EQ(e.domain(), 0);
  }
}

}  // namespace
}  // namespace substruct
