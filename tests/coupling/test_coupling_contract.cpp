// SPDX-License-Identifier: GPL-3.0-or-later
// The coupling contract the framework enforces for every method (coupling/coupling_method.hpp):
// the lifecycle (precompute → reset → step), the checks of what crosses it (u₀, v₀, dt, the
// external forces), one message format naming the plugin, nothing changed by a refused call,
// and the reduced methods' positions from their layout. Run on every coupling plugin of the tree.
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

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
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using substruct::testing::error_message;

// A 1 m beam of 8×2×2 cells clamped at x = 0, cut in two domains; small bases.
class CouplingContractTest : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<testing::SuiteDir>("CouplingContract");
    testing::write_clamped_box_beam(dir_->path(), "beam", Vec3(1, 0.1, 0.1), 8, 2, 2);
  }
  static void TearDownTestSuite() { dir_.reset(); }

  void SetUp() override {
    config_ = std::make_unique<Config>(
        Config::from_settings({{"scene.mesh", "beam.veg", "test"},
                               {"scene.fixed", "beam.bou", "test"},
                               {"scene.domains", "auto:2", "test"},
                               {"material.youngs_modulus", "1e6", "test"},
                               {"material.poisson_ratio", "0.3", "test"},
                               {"material.density", "1000", "test"},
                               {"reduction.modes", "4", "test"},
                               {"reduction.linear_modes", "4", "test"},
                               {"reduction.modal_derivatives", "false", "test"},
                               {"reduction.cache", "false", "test"}},
                              dir_->path(), host_));
    scene_ = std::make_unique<Scene>(load_scene(*config_));
    solvers_ = std::make_unique<SolverProvider>(host_, *config_);
    method_ =
        host_.create<CouplingMethod>(GetParam(), PluginKind::coupling, PluginContext{*config_});
  }

  void precompute() { method_->precompute(PrecomputeContext{*scene_, *solvers_, {}}); }
  Index n() const { return scene_->mesh.num_vertices(); }

  static std::unique_ptr<testing::SuiteDir> dir_;
  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  std::unique_ptr<Config> config_;
  std::unique_ptr<Scene> scene_;
  std::unique_ptr<SolverProvider> solvers_;
  std::unique_ptr<CouplingMethod> method_;
};
std::unique_ptr<testing::SuiteDir> CouplingContractTest::dir_;

void expect_message(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << message;
}

TEST_P(CouplingContractTest, CallsOutOfOrderAreErrorsNamingThePluginAndTheMissingCall) {
  const std::string plugin = GetParam() + ": ";
  EXPECT_EQ(method_->stage(), CouplingMethod::Stage::created);
  std::string m = error_message([&] { method_->reset({}, {}); });
  expect_message(m, plugin + "reset() called before precompute()");
  m = error_message([&] { (void)method_->dofs(); });
  expect_message(m, plugin + "dofs() called before precompute()");

  precompute();
  EXPECT_EQ(method_->stage(), CouplingMethod::Stage::precomputed);
  EXPECT_GT(method_->dofs(), 0);
  StepStats stats;
  m = error_message([&] { method_->step(0.01, ExternalForces{}, stats); });
  expect_message(m, plugin + "step() called before reset() (the method is precomputed)");
  Points x;
  m = error_message([&] { method_->positions(x); });
  expect_message(m, plugin + "positions() called before reset()");
  m = error_message([&] { precompute(); });
  expect_message(m, plugin + "precompute() called twice");

  method_->reset({}, {});
  EXPECT_EQ(method_->stage(), CouplingMethod::Stage::running);
  method_->step(0.01, ExternalForces{}, stats);
  method_->positions(x);
  EXPECT_EQ(x.rows(), n());
  EXPECT_TRUE(x.allFinite());
}

TEST_P(CouplingContractTest, BadInputsAreRefusedWithOneMessageAndChangeNothing) {
  const std::string plugin = GetParam() + ": ";
  precompute();
  method_->reset({}, {});
  ExternalForces pull;
  pull.point_forces.push_back({n() - 1, Vec3(0, -0.5, 0)});
  StepStats stats;
  for (int i = 0; i < 3; ++i) method_->step(0.01, pull, stats);
  Points before;
  method_->positions(before);

  const auto refused = [&](const std::string& part, auto&& call) {
    expect_message(error_message(call), plugin + part);
    Points after;
    method_->positions(after);
    EXPECT_TRUE(after == before) << part;  // the refused call changed nothing
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const double dt : {0.0, -0.01, nan, std::numeric_limits<double>::infinity()})
    refused("step(): dt must be a finite number > 0",
            [&] { method_->step(dt, ExternalForces{}, stats); });
  ExternalForces f;
  f.point_forces.push_back({n(), Vec3(0, 1, 0)});
  refused("step(): a point force acts on vertex " + std::to_string(n()),
          [&] { method_->step(0.01, f, stats); });
  f.point_forces = {{-1, Vec3(0, 1, 0)}};
  refused("step(): a point force acts on vertex -1", [&] { method_->step(0.01, f, stats); });
  f.point_forces = {{0, Vec3(0, nan, 0)}};
  refused("step(): the point force on vertex 0 is not finite",
          [&] { method_->step(0.01, f, stats); });
  f.point_forces.clear();
  f.nodal = Eigen::VectorXd::Ones(5);
  refused("step(): nodal forces: 5 entries where the mesh has 3N = " + std::to_string(3 * n()),
          [&] { method_->step(0.01, f, stats); });
  f.nodal = Eigen::VectorXd::Zero(3 * n());
  f.nodal[4] = nan;
  refused("step(): nodal forces: not finite", [&] { method_->step(0.01, f, stats); });
  f = ExternalForces{};
  f.gravity = Vec3(0, nan, 0);
  refused("step(): gravity is not finite", [&] { method_->step(0.01, f, stats); });
  refused("reset(): u0: 7 entries where", [&] { method_->reset(Eigen::VectorXd::Zero(7), {}); });
  Eigen::VectorXd v0 = Eigen::VectorXd::Zero(3 * n());
  v0[0] = nan;
  refused("reset(): v0: not finite", [&] { method_->reset({}, v0); });
}

TEST_P(CouplingContractTest, ReducedMethodsGetPositionsFromTheirLayout) {
  precompute();
  method_->reset({}, {});
  ExternalForces pull;
  pull.point_forces.push_back({n() - 1, Vec3(0, -0.5, 0.2)});
  StepStats stats;
  for (int i = 0; i < 5; ++i) method_->step(0.01, pull, stats);
  Points x, v;
  method_->positions(x);
  method_->velocities(v);
  const ReducedGeometry* layout = method_->reduced_geometry();
  if (GetParam() == "full" || GetParam() == "ddm") {  // unreduced: their own positions
    EXPECT_EQ(layout, nullptr);
    EXPECT_GT((x - scene_->mesh.vertices).cwiseAbs().maxCoeff(), 1e-6);  // it moved
    return;
  }
  ASSERT_NE(layout, nullptr);
  std::vector<DomainPose> poses;
  method_->domain_poses(poses);
  Points x_kernel, v_kernel;
  reduced_world_state(*layout, poses, &x_kernel, &v_kernel);
  EXPECT_TRUE(x == x_kernel);
  EXPECT_TRUE(v == v_kernel);
  EXPECT_GT((x - scene_->mesh.vertices).cwiseAbs().maxCoeff(), 1e-6);  // it moved
}

INSTANTIATE_TEST_SUITE_P(EveryMethod, CouplingContractTest,
                         ::testing::Values("full", "inertia", "coupling-elements", "ddm",
                                           "spectral-hybrid"),
                         [](const auto& test) {
                           std::string name = test.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace substruct
