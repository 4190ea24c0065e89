// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/config.hpp"

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "support/temp_dir_test.hpp"

using namespace substruct;
namespace fs = std::filesystem;

namespace {

using substruct::testing::error_message;

class ConfigTest : public substruct::testing::TempDirTest {
 protected:
  /// Writes `text` as dir()/scene.ini; returns its path.
  fs::path write_scene(const std::string& text) const { return write("scene.ini", text); }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

constexpr const char* kScene = R"(# a comment
[scene]
mesh = meshes/beam.veg   # relative to this file
fixed = meshes/beam.bou
[material]
youngs_modulus = 2e6
[coupling]
plugin = full
[run]
dt = 0.005
loads = gravity, pull
[gravity]
acceleration = 0 0 -9.81
)";

}  // namespace

TEST_F(ConfigTest, ReadsTypedValuesDefaultsAndPathsRelativeToTheScene) {
  const Config config = Config::load(write_scene(kScene), {}, host_);
  EXPECT_EQ(config.path("scene.mesh"), dir() / "meshes" / "beam.veg");
  EXPECT_EQ(config.path("scene.fixed"), dir() / "meshes" / "beam.bou");
  EXPECT_DOUBLE_EQ(config.get<double>("material.youngs_modulus"), 2e6);
  EXPECT_TRUE(config.set_by_user("material.youngs_modulus"));
  EXPECT_FALSE(config.has("material.density"));   // no default: the mesh's value is kept
  EXPECT_FALSE(config.set_by_user("run.steps"));  // a default
  EXPECT_EQ(config.get<long>("run.steps"), 100);
  EXPECT_DOUBLE_EQ(config.get<double>("run.dt"), 0.005);
  EXPECT_EQ(config.list("run.loads"), (std::vector<std::string>{"gravity", "pull"}));
  EXPECT_EQ(config.vec3("gravity.acceleration"), Vec3(0, 0, -9.81));
  EXPECT_EQ(config.get<std::string>("solvers.linear"), "cholmod");
  // Defaults of the selected plugins' sections are there too.
  EXPECT_TRUE(config.has("full.integrator"));
}

TEST_F(ConfigTest, CommandLineOverridesWin) {
  const Config config =
      Config::load(write_scene(kScene),
                   {"--run.dt=0.001", "run.steps=7", "--gravity.acceleration=0 -1 0"}, host_);
  EXPECT_DOUBLE_EQ(config.get<double>("run.dt"), 0.001);
  EXPECT_EQ(config.get<long>("run.steps"), 7);
  EXPECT_EQ(config.vec3("gravity.acceleration"), Vec3(0, -1, 0));
}

TEST_F(ConfigTest, UnknownKeyNamesTheLineAndTheNearestKnownKey) {
  const std::string m = error_message([&] {
    Config::load(write_scene("[scene]\nmesh = a.veg\n[material]\nyoungs_modulu = 1e6\n"), {},
                 host_);
  });
  EXPECT_NE(m.find("scene.ini:4"), std::string::npos) << m;
  EXPECT_NE(m.find("unknown key 'material.youngs_modulu'"), std::string::npos) << m;
  EXPECT_NE(m.find("did you mean 'material.youngs_modulus'"), std::string::npos) << m;
}

TEST_F(ConfigTest, UnknownSectionAndUnknownOverrideAreErrors) {
  std::string m = error_message([&] {
    Config::load(write_scene("[scene]\nmesh = a.veg\n[gravty]\nacceleration = 0 0 1\n"), {}, host_);
  });
  EXPECT_NE(m.find("no plugin or framework section '[gravty]'"), std::string::npos) << m;
  EXPECT_NE(m.find("did you mean 'gravity.acceleration'"), std::string::npos) << m;

  m = error_message([&] { Config::load(write_scene(kScene), {"--run.stepz=3"}, host_); });
  EXPECT_NE(m.find("command line: unknown key 'run.stepz'"), std::string::npos) << m;
  EXPECT_NE(m.find("'run.steps'"), std::string::npos) << m;
}

TEST_F(ConfigTest, UnknownPluginListsTheAvailableOnes) {
  const std::string m =
      error_message([&] { Config::load(write_scene(kScene), {"--coupling.plugin=fulll"}, host_); });
  EXPECT_NE(m.find("unknown coupling plugin 'fulll'"), std::string::npos) << m;
  const auto listed = m.find("available coupling plugins: ");
  ASSERT_NE(listed, std::string::npos) << m;
  EXPECT_NE(m.find("full", listed), std::string::npos) << m;
  const std::string l =
      error_message([&] { Config::load(write_scene(kScene), {"--run.loads=hurricane"}, host_); });
  EXPECT_NE(l.find("unknown load plugin 'hurricane'"), std::string::npos) << l;
  EXPECT_NE(l.find("available load plugins: gravity, pull, wind"), std::string::npos) << l;
}

TEST_F(ConfigTest, BadValuesAndSyntaxAreErrorsWithTheirPlace) {
  std::string m =
      error_message([&] { Config::load(write_scene(kScene), {"--run.dt=fast"}, host_); });
  EXPECT_NE(m.find("command line: [run] dt = 'fast': expected a finite number > 0"),
            std::string::npos)
      << m;
  // A bad value in the file names its line.
  m = error_message(
      [&] { Config::load(write_scene(std::string(kScene) + "[run]\nsteps = -2\n"), {}, host_); });
  EXPECT_NE(m.find("scene.ini:15: [run] steps = '-2': expected an integer ≥ 0"), std::string::npos)
      << m;
  m = error_message([&] { Config::load(write_scene("[scene]\nmesh\n"), {}, host_); });
  EXPECT_NE(m.find("scene.ini:2: expected 'key = value'"), std::string::npos) << m;
  m = error_message([&] { Config::load(write_scene("mesh = a.veg\n"), {}, host_); });
  EXPECT_NE(m.find("scene.ini:1: expected a [section]"), std::string::npos) << m;
  m = error_message(
      [&] { Config::load(write_scene(kScene), {"--gravity.acceleration=0 1"}, host_); });
  EXPECT_NE(m.find("command line: [gravity] acceleration = '0 1': expected three finite numbers"),
            std::string::npos)
      << m;
  m = error_message([&] { Config::load(dir() / "missing.ini", {}, host_); });
  EXPECT_NE(m.find("cannot open scene file"), std::string::npos) << m;
}

TEST_F(ConfigTest, SectionsOfOtherInstalledPluginsAreValidatedToo) {
  // A scene may keep settings for methods it does not currently select ...
  const Config config = Config::load(write_scene(std::string(kScene) + "[vtk]\nevery = 2\n"),
                                     {"--run.exporters="}, host_);
  EXPECT_TRUE(config.set_by_user("vtk.every"));
  // ... but they are still checked.
  const std::string m = error_message(
      [&] { Config::load(write_scene(std::string(kScene) + "[vtk]\nevry = 2\n"), {}, host_); });
  EXPECT_NE(m.find("did you mean 'vtk.every'"), std::string::npos) << m;
}

TEST(NearestKey, PicksTheSmallestEditDistance) {
  EXPECT_EQ(nearest_key("run.stps", {"run.dt", "run.steps", "scene.mesh"}), "run.steps");
  EXPECT_EQ(nearest_key("mesh", {"scene.mesh", "run.dt"}), "scene.mesh");
}
