// SPDX-License-Identifier: GPL-3.0-or-later
// The wind load plugin: a constant wind plus 4D Perlin turbulence on sample vertices of every
// domain (Zhao 2014, ch. 6), loaded through the plugin host on the flower scene's mesh.
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/loads/load.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/scene.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

class WindLoad : public ::testing::Test {
 protected:
  WindLoad() : scene_(load_scene(config({}))) {
    positions_ = scene_.mesh.vertices;
    velocities_ = Points::Zero(positions_.rows(), 3);
  }

  Config config(const std::vector<Setting>& extra) {
    const std::filesystem::path meshes =
        std::filesystem::path(SUBSTRUCT_SOURCE_DIR) / "share/meshes";
    std::vector<Setting> s{{"scene.mesh", (meshes / "flower.veg").string(), "test"},
                           {"scene.fixed", (meshes / "flower.bou").string(), "test"},
                           {"scene.domains", "sets", "test"},
                           {"run.loads", "wind", "test"}};
    s.insert(s.end(), extra.begin(), extra.end());
    return Config::from_settings(s, std::filesystem::temp_directory_path(), host_);
  }

  std::unique_ptr<Load> make(const std::vector<Setting>& settings) {
    configs_.push_back(std::make_unique<Config>(config(settings)));
    return host_.create<Load>("wind", PluginKind::load, PluginContext{*configs_.back()});
  }

  ExternalForces at(Load& load, double time) {
    ExternalForces forces;
    load.accumulate(LoadContext{time, scene_, positions_, velocities_}, forces);
    return forces;
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  std::vector<std::unique_ptr<Config>> configs_;
  Scene scene_;
  Points positions_, velocities_;
};

double mass_of(const Scene& scene) {
  const TetGeometry g = TetGeometry::build(scene.mesh);
  double m = 0;
  for (Index e = 0; e < scene.mesh.num_elements(); ++e)
    m += g.volume[static_cast<std::size_t>(e)] * scene.mesh.material_of(e).density;
  return m;
}

TEST_F(WindLoad, ASteadyWindPushesTheWholeMassAtTheSamplesOfEveryDomain) {
  auto wind = make({{"wind.turbulence", "0", "test"},
                    {"wind.strength", "3", "test"},
                    {"wind.direction", "0 0 2", "test"},
                    {"wind.samples", "4", "test"}});
  const ExternalForces f = at(*wind, 0.7);
  EXPECT_EQ(f.point_forces.size(), 4u * static_cast<std::size_t>(scene_.num_domains()));
  Vec3 total = Vec3::Zero();
  std::map<int, int> per_domain;
  for (const PointForce& p : f.point_forces) {
    total += p.force;
    EXPECT_EQ(p.force.head<2>().norm(), 0.0);
    ++per_domain[scene_.vertex_domain[static_cast<std::size_t>(p.vertex)]];
  }
  // F = m a with a = 3 m/s² along +z, whatever the time.
  EXPECT_NEAR(total.z(), 3 * mass_of(scene_), 1e-9 * mass_of(scene_));
  EXPECT_EQ(f.gravity, Vec3::Zero());
}

TEST_F(WindLoad, TurbulenceIsRepeatableBoundedSmoothAndSeeded) {
  const std::vector<Setting> s{{"wind.strength", "0", "test"},
                               {"wind.turbulence", "5", "test"},
                               {"wind.octaves", "1", "test"},
                               {"wind.frequency", "1", "test"}};
  auto a = make(s);
  auto b = make(s);
  std::vector<Setting> other = s;
  other.push_back({"wind.seed", "2", "test"});
  auto c = make(other);
  const ExternalForces fa = at(*a, 0.3), fb = at(*b, 0.3), fc = at(*c, 0.3);
  ASSERT_EQ(fa.point_forces.size(), fb.point_forces.size());
  double differs = 0, varies = 0;
  for (std::size_t k = 0; k < fa.point_forces.size(); ++k) {
    EXPECT_EQ(fa.point_forces[k].vertex, fb.point_forces[k].vertex);
    EXPECT_EQ(fa.point_forces[k].force, fb.point_forces[k].force) << "same seed, same field";
    differs += (fa.point_forces[k].force - fc.point_forces[k].force).norm();
    varies += (fa.point_forces[k].force - fa.point_forces[0].force).norm();
  }
  EXPECT_GT(differs, 0.0) << "another seed, another field";
  EXPECT_GT(varies, 0.0) << "the field varies in space";
  // Bounded: |a| ≤ turbulence per axis; smooth in time: a small step changes it a little.
  const double mass = mass_of(scene_);
  const ExternalForces later = at(*a, 0.3 + 1e-4);
  for (std::size_t k = 0; k < fa.point_forces.size(); ++k) {
    const Vec3 f = fa.point_forces[k].force;
    EXPECT_LT(f.cwiseAbs().maxCoeff(), 5 * mass) << "bounded by the sample's share of the mass";
    EXPECT_LT((later.point_forces[k].force - f).norm(), 1e-2 * (1 + f.norm()));
  }
  // Over a long time the noise averages out (zero mean), unlike a steady wind.
  Vec3 mean = Vec3::Zero();
  double magnitude = 0;
  for (int i = 0; i < 400; ++i) {
    const ExternalForces fi = at(*a, 0.37 * i);
    mean += fi.point_forces[0].force / 400;
    magnitude += fi.point_forces[0].force.norm() / 400;
  }
  EXPECT_LT(mean.norm(), 0.35 * magnitude);
}

TEST_F(WindLoad, BadSettingsAreClearErrors) {
  EXPECT_NE(testing::error_message([&] {
              make({{"wind.direction", "0 0 0", "test"}});
            }).find("test: [wind] direction = '0 0 0': expected a non-zero"),
            std::string::npos);
  EXPECT_NE(testing::error_message([&] {
              make({{"wind.decay", "1.5", "test"}});
            }).find("test: [wind] decay = '1.5': expected a finite number in [0, 1]"),
            std::string::npos);
  EXPECT_NE(testing::error_message([&] {
              make({{"wind.samples", "0", "test"}});
            }).find("test: [wind] samples = '0': expected an integer ≥ 1"),
            std::string::npos);
}

}  // namespace
}  // namespace substruct
