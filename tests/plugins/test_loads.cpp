// SPDX-License-Identifier: GPL-3.0-or-later
// The gravity and pull load plugins, loaded through the plugin host.
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/loads/load.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct {
namespace {

class LoadsTest : public ::testing::Test {
 protected:
  LoadsTest() {
    scene_.mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 0.2, 0.2), 4, 1, 1);  // 20 vertices
    positions_ = scene_.mesh.vertices;
    velocities_ = Points::Zero(positions_.rows(), 3);
  }

  std::unique_ptr<Load> make(const std::string& name, const std::vector<Setting>& settings) {
    std::vector<Setting> all{{"run.loads", name, "test"}};
    all.insert(all.end(), settings.begin(), settings.end());
    configs_.push_back(std::make_unique<Config>(
        Config::from_settings(all, std::filesystem::temp_directory_path(), host_)));
    return host_.create<Load>(name, PluginKind::load, PluginContext{*configs_.back()});
  }

  ExternalForces at(Load& load, double time) {
    ExternalForces forces;
    load.accumulate(LoadContext{time, scene_, positions_, velocities_}, forces);
    return forces;
  }

  static std::vector<std::string> keys(const PluginDescriptor& d) {
    const auto options = d.options().description();
    std::vector<std::string> names;
    for (const auto& option : options.options()) names.push_back(option->long_name());
    return names;
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  std::vector<std::unique_ptr<Config>> configs_;
  Scene scene_;
  Points positions_, velocities_;
};

TEST_F(LoadsTest, GravityDefaultsToEarthsAlongMinusY) {
  auto gravity = make("gravity", {});
  const ExternalForces forces = at(*gravity, 0.0);
  EXPECT_EQ(forces.gravity, Vec3(0, -9.81, 0));
  EXPECT_TRUE(forces.point_forces.empty());
  EXPECT_EQ(forces.nodal.size(), 0);
  EXPECT_EQ(keys(host_.find("gravity", PluginKind::load)),
            (std::vector<std::string>{"gravity.acceleration", "gravity.ramp"}));
}

TEST_F(LoadsTest, GravityRampsUpSmoothlyOverItsRampTime) {
  auto gravity = make("gravity", {{"gravity.ramp", "0.5", "test"}});
  EXPECT_EQ(at(*gravity, 0.0).gravity, Vec3::Zero());
  // s(τ) = τ²(3 − 2τ): ½ at half the ramp, 0.104 at a fifth, 1 from its end on.
  EXPECT_NEAR(at(*gravity, 0.25).gravity.y(), -9.81 * 0.5, 1e-12);
  EXPECT_NEAR(at(*gravity, 0.1).gravity.y(), -9.81 * 0.2 * 0.2 * (3 - 0.4), 1e-12);
  EXPECT_EQ(at(*gravity, 0.5).gravity, Vec3(0, -9.81, 0));
  EXPECT_EQ(at(*gravity, 3.0).gravity, Vec3(0, -9.81, 0));
  // No jump in the load's rate at either end: the factor's slope is 0 there.
  const double h = 1e-6;
  EXPECT_NEAR(at(*gravity, h).gravity.y() / h, 0, 1e-3);
  EXPECT_NEAR((at(*gravity, 0.5).gravity.y() - at(*gravity, 0.5 - h).gravity.y()) / h, 0, 1e-3);
  EXPECT_THROW(make("gravity", {{"gravity.ramp", "-1", "test"}}), Error);
}

TEST_F(LoadsTest, GravityTakesAnyAccelerationAndAddsToWhatIsThere) {
  auto gravity = make("gravity", {{"gravity.acceleration", "0.5, 0, -3.5", "test"}});
  ExternalForces forces;
  forces.gravity = Vec3(1, 1, 1);
  gravity->accumulate(LoadContext{7.0, scene_, positions_, velocities_}, forces);
  EXPECT_EQ(forces.gravity, Vec3(1.5, 1, -2.5));
  EXPECT_THROW(make("gravity", {{"gravity.acceleration", "0 -9.81", "test"}}), Error);
  EXPECT_THROW(make("gravity", {{"gravity.acceleration", "0 -g 0", "test"}}), Error);
}

TEST_F(LoadsTest, PullAppliesOneForceToEveryListedVertex) {
  auto pull =
      make("pull", {{"pull.vertices", "3 7, 19", "test"}, {"pull.force", "1 2 -3", "test"}});
  for (double t : {0.0, 1.0, 1e6}) {  // the default window never closes
    const ExternalForces forces = at(*pull, t);
    ASSERT_EQ(forces.point_forces.size(), 3u) << "t = " << t;
    const std::vector<Index> expected{3, 7, 19};
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(forces.point_forces[i].vertex, expected[i]);
      EXPECT_EQ(forces.point_forces[i].force, Vec3(1, 2, -3));
    }
    EXPECT_EQ(forces.gravity, Vec3::Zero());
  }
  EXPECT_EQ(keys(host_.find("pull", PluginKind::load)),
            (std::vector<std::string>{"pull.vertices", "pull.force", "pull.start", "pull.end"}));
}

TEST_F(LoadsTest, PullTakesOneForcePerVertex) {
  auto pull =
      make("pull", {{"pull.vertices", "0 5", "test"}, {"pull.force", "1 0 0  0 -2 0.5", "test"}});
  const ExternalForces forces = at(*pull, 0.0);
  ASSERT_EQ(forces.point_forces.size(), 2u);
  EXPECT_EQ(forces.point_forces[0].force, Vec3(1, 0, 0));
  EXPECT_EQ(forces.point_forces[1].force, Vec3(0, -2, 0.5));
  // Summed into a 3N vector as every coupling method does.
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * scene_.mesh.num_vertices());
  forces.add_concentrated_to(f);
  EXPECT_EQ(f.segment<3>(0), Vec3(1, 0, 0));
  EXPECT_EQ(f.segment<3>(15), Vec3(0, -2, 0.5));
  EXPECT_DOUBLE_EQ(f.sum(), -0.5);
}

TEST_F(LoadsTest, PullActsOnlyInsideItsTimeWindow) {
  auto pull = make("pull", {{"pull.vertices", "2", "test"},
                            {"pull.force", "0 10 0", "test"},
                            {"pull.start", "0.5", "test"},
                            {"pull.end", "1.25", "test"}});
  // start ≤ t < end
  EXPECT_TRUE(at(*pull, 0.0).point_forces.empty());
  EXPECT_TRUE(at(*pull, 0.4999).point_forces.empty());
  EXPECT_EQ(at(*pull, 0.5).point_forces.size(), 1u);
  EXPECT_EQ(at(*pull, 1.2499).point_forces.size(), 1u);
  EXPECT_TRUE(at(*pull, 1.25).point_forces.empty());
  EXPECT_TRUE(at(*pull, 3.0).point_forces.empty());

  auto open_ended = make("pull", {{"pull.vertices", "2", "test"},
                                  {"pull.force", "0 10 0", "test"},
                                  {"pull.end", "inf", "test"}});
  EXPECT_EQ(at(*open_ended, 1e9).point_forces.size(), 1u);
}

TEST_F(LoadsTest, PullRejectsBadSettings) {
  EXPECT_THROW(make("pull", {}), Error);  // no vertices
  EXPECT_THROW(make("pull", {{"pull.vertices", "1 2", "test"}, {"pull.force", "1 2", "test"}}),
               Error);
  EXPECT_THROW(make("pull", {{"pull.vertices", "1 2", "test"}, {"pull.force", "1 2 3 4", "test"}}),
               Error);
  EXPECT_THROW(make("pull", {{"pull.vertices", "1", "test"}, {"pull.force", "1 x 3", "test"}}),
               Error);
  EXPECT_THROW(make("pull", {{"pull.vertices", "-1", "test"}, {"pull.force", "1 2 3", "test"}}),
               Error);
  EXPECT_THROW(make("pull", {{"pull.vertices", "1", "test"},
                             {"pull.force", "1 2 3", "test"},
                             {"pull.start", "2", "test"},
                             {"pull.end", "1", "test"}}),
               Error);
  // A vertex the scene's mesh does not have is named when the load is applied.
  auto pull = make("pull", {{"pull.vertices", "4 20", "test"}, {"pull.force", "1 2 3", "test"}});
  try {
    at(*pull, 0.0);
    FAIL() << "a force on a missing vertex was applied";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("vertex 20"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace substruct
