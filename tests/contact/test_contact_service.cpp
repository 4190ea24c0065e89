// SPDX-License-Identifier: GPL-3.0-or-later
// The contact stage in whole runs: a block dropped on the ground under `full` and `inertia`
// (penetration at rest, no energy gained; inertia refusing contact on several domains), a block on
// a slope (Coulomb sliding against g(sin θ − μ cos θ) t²/2, sticking when tan θ < μ), determinism,
// and the [contact] errors.
#include "substruct/contact/contact_service.hpp"

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A free 0.4 m × 0.1 m × 0.1 m block of 8×2×2 cells (cells of 5 cm) and a 0.1 m cube of 2×2×2,
// both with their lowest face at y = 0; ρ = 1000 kg/m³.
class ContactRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<testing::SuiteDir>("ContactRun");
    write_veg(dir_->path() / "block.veg",
              make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.1, 0.1), 8, 2, 2));
    write_veg(dir_->path() / "cube.veg",
              make_box_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 2, 2, 2));
  }
  static void TearDownTestSuite() { dir_.reset(); }

  Config config(const std::string& mesh, const std::string& plugin,
                const std::vector<Setting>& extra) const {
    std::vector<Setting> settings{{"scene.mesh", mesh, "test"},
                                  {"scene.domains", "single", "test"},
                                  {"material.youngs_modulus", "1e6", "test"},
                                  {"material.poisson_ratio", "0.3", "test"},
                                  {"material.density", "1000", "test"},
                                  {"coupling.plugin", plugin, "test"},
                                  {"run.dt", "0.01", "test"},
                                  {"run.loads", "gravity", "test"},
                                  {"run.exporters", "", "test"},
                                  {"gravity.acceleration", "0 -9.81 0", "test"}};
    settings.insert(settings.end(), extra.begin(), extra.end());
    return Config::from_settings(settings, dir_->path(), host_);
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  static inline std::unique_ptr<testing::SuiteDir> dir_;
};

// Dropped from 2 cm onto the ground at the scene's Δt = 0.01 s: the total energy (kinetic,
// elastic, gravity and the contact springs') never rises above its initial value, and at rest
// the deepest vertex is within 1 % of the 5 cm cells.
void expect_drop_settles(Simulation& sim, const char* method) {
  sim.reset();
  const Vec3 g(0, -9.81, 0);
  const ContactService& contact = *sim.contact();
  const double E0 = sim.method().energies(g).total();
  double highest = -1e300, deepest_at_rest = 0;
  StepStats stats;
  for (int s = 1; s <= 100; ++s) {
    sim.step(stats);
    const double E =
        sim.method().energies(g).total() + contact.energy_at(sim.positions(), sim.time());
    highest = std::max(highest, E - E0);
    if (s > 80)
      for (Index v = 0; v < sim.positions().rows(); ++v)
        deepest_at_rest = std::max(deepest_at_rest, -0.02 - sim.positions()(v, 1));
  }
  EXPECT_LE(highest, 1e-9 * std::abs(E0)) << method << ": energy gained";
  EXPECT_LE(deepest_at_rest, 0.01 * 0.05) << method;
  EXPECT_GT(contact.stats().contacts, 0) << method << ": it never touched the ground";
  // Resting: the ground carries the weight, 0.4 × 0.1 × 0.1 × 1000 × 9.81 = 39.24 N.
  double lift = 0;
  for (const PointForce& f : sim.forces().point_forces) lift += f.force.y();
  EXPECT_NEAR(lift, 39.24, 0.05 * 39.24) << method;
}

TEST_F(ContactRun, ABlockDroppedOnTheGroundSettlesWithoutGainingEnergyUnderFull) {
  // Backward Euler: the trapezoidal rule rings on the contact springs (ω Δt ≈ 30) and chatters.
  Simulation sim(config("block.veg", "full",
                        {{"contact.ground", "0 1 0 -0.02", "test"},
                         {"full.integrator", "backward-euler", "test"}}),
                 host_);
  expect_drop_settles(sim, "full");
}

// One free-flying domain at the default γ = 0.55: the root body's step answers part of an arriving
// vertex's pull, its modes the rest (inertia/README.md). With γ = ½ the trapezoidal rule rings on
// the contact springs as full's does.
TEST_F(ContactRun, ABlockDroppedOnTheGroundSettlesWithoutGainingEnergyUnderInertia) {
  Simulation sim(config("block.veg", "inertia", {{"contact.ground", "0 1 0 -0.02", "test"}}),
                 host_);
  expect_drop_settles(sim, "inertia");
}

// Where inertia's step would take contact explicitly (a child domain's frame motion, the
// articulated step, procedural substeps: each diverges on the drop) [contact] is refused before
// any precompute, naming the way out.
TEST_F(ContactRun, InertiaRefusesContactWhereItsStepWouldTakeItExplicitly) {
  const auto make = [&](const std::vector<Setting>& extra) {
    return error_of([&] { Simulation sim(config("block.veg", "inertia", extra), host_); });
  };
  const Setting ground{"contact.ground", "0 1 0 -0.02", "test"};
  for (const auto& [setting, why] : std::vector<std::pair<Setting, std::string>>{
           {{"scene.domains", "auto:2", "test"}, "a single domain, the scene has 2"},
           {{"inertia.lumping", "articulated", "test"},
            "lumping = center-of-mass or interface, not articulated"},
           {{"inertia.timestep", "procedural", "test"}, "timestep = global, not procedural"}}) {
    const std::string e = make({ground, setting});
    EXPECT_NE(e.find("[contact] with inertia needs " + why), std::string::npos) << e;
    EXPECT_NE(e.find("use coupling.plugin = full"), std::string::npos) << e;
    EXPECT_EQ(make({setting}), "") << setting.key << ": refused without obstacles";
  }
}

// The cube on a 30° slope (gravity turned, the ground y = 0 kept), E = 1e8 Pa: rigid enough.
class SlopeRun : public ContactRun {
 protected:
  struct Slide {
    double x1 = 0, v1 = 0;  // displacement and velocity along the slope at t₁
    double x2 = 0;          // displacement at t₂
  };
  // The cube's mean displacement and velocity along the slope with friction μ.
  Slide slide(double mu, double t1, double t2) {
    const double theta = M_PI / 6;
    const Config c =
        config("cube.veg", "full",
               {{"material.youngs_modulus", "1e8", "test"},
                {"full.integrator", "backward-euler", "test"},
                {"gravity.acceleration",
                 fmt::format("{} {} 0", 9.81 * std::sin(theta), -9.81 * std::cos(theta)), "test"},
                {"contact.ground", "0 1 0 -0.0001", "test"},
                {"contact.friction", fmt::format("{}", mu), "test"}});
    Simulation sim(c, host_);
    sim.reset();
    const double x0 = sim.positions().col(0).mean();
    Slide r;
    StepStats stats;
    for (int s = 1; s <= static_cast<int>(std::lround(t2 / 0.01)); ++s) {
      sim.step(stats);
      if (s == static_cast<int>(std::lround(t1 / 0.01))) {
        r.x1 = sim.positions().col(0).mean() - x0;
        r.v1 = sim.velocities().col(0).mean();
      }
    }
    r.x2 = sim.positions().col(0).mean() - x0;
    return r;
  }
};

// At μ = 0.3 it lands (0.1 mm drop, three steps) and then slides with a = g (sin θ − μ cos θ) =
// 2.356 m/s²: from t₁ = 0.1 s, where it slides, to t₂ = 0.5 s it moves v₁ τ + ½ a τ² (τ = 0.4 s)
// within 5 %: backward Euler's x adds ½ a τ Δt (2.5 % of ½ a τ² at Δt = 0.01 s), the rest is the
// friction springs' μ d stretch (µm). tan 30° = 0.577 < μ = 0.7: held (it creeps ≈ 0.5 mm while
// it lands, then not at all).
TEST_F(SlopeRun, ABlockSlidesAsCoulombSaysAndSticksWhenTanThetaIsBelowMu) {
  const double theta = M_PI / 6, t1 = 0.1, t2 = 0.5, tau = t2 - t1;
  const double mu = 0.3, a = 9.81 * (std::sin(theta) - mu * std::cos(theta));
  const Slide sliding = slide(mu, t1, t2);
  EXPECT_GT(sliding.v1, 0.5 * a * t1);  // sliding by t₁ (landed, not held)
  const double coulomb = sliding.v1 * tau + 0.5 * a * tau * tau;  // 0.28 m
  EXPECT_NEAR(sliding.x2 - sliding.x1, coulomb, 0.05 * coulomb);
  // Not the frictionless slide either (½ g sin θ τ² + v₁ τ = 0.43 m).
  const Slide held = slide(0.7, t1, t2);
  EXPECT_LT(std::abs(held.x2), 1e-3);
  EXPECT_LT(std::abs(held.x2 - held.x1), 1e-6);
  EXPECT_LT(std::abs(held.v1), 1e-4);
}

TEST_F(ContactRun, RunsAreDeterministic) {
  const auto run = [&] {
    Simulation sim(config("block.veg", "inertia",
                          {{"contact.ground", "0 1 0 -0.02", "test"},
                           {"contact.spheres", "0.3 -0.1 0.05 0.1", "test"},
                           {"gravity.acceleration", "1 -9.81 0", "test"}}),
                   host_);
    sim.reset();
    StepStats stats;
    for (int s = 0; s < 30; ++s) sim.step(stats);
    return Points(sim.positions());
  };
  const Points a = run(), b = run();
  EXPECT_EQ(a, b);
}

TEST_F(ContactRun, BadObstaclesAreRefusedNamingTheOption) {
  const auto make = [&](const std::vector<Setting>& extra) {
    return error_of([&] { Simulation sim(config("block.veg", "full", extra), host_); });
  };
  // The sphere about (0.2, 0, 0.05) of radius 0.1 reaches 0.1 m into the block's lowest face.
  const std::string inside = make({{"contact.spheres", "0.2 0 0.05 0.1", "test"}});
  EXPECT_NE(
      inside.find("[contact] the sphere 'sphere1' starts 0.0293 m inside the object at vertex "),
      std::string::npos)
      << inside;
  EXPECT_NE(
      make({{"contact.spheres", "1 1 1 0", "test"}}).find("sphere1 has radius 0, expected > 0"),
      std::string::npos);
  EXPECT_NE(make({{"contact.boxes", "1 1 1 0.1 -0.1 0.1", "test"}}).find("[contact] boxes"),
            std::string::npos);
  EXPECT_NE(make({{"contact.capsules", "1 1 1 2 2 2", "test"}})
                .find("expected 7 numbers per shape (AX AY AZ BX BY BZ R), got 6"),
            std::string::npos);
  EXPECT_NE(make({{"contact.ground", "0 0 0 1", "test"}}).find("zero length"), std::string::npos);
  const std::string track =
      make({{"contact.spheres", "1 1 1 0.1", "test"},
            {"contact.keyframes", "sphere1 0 0 0 0 0.5 1 0 0 0.2 0 0 0", "test"}});
  EXPECT_NE(track.find("[contact] keyframes"), std::string::npos) << track;
  EXPECT_NE(track.find("keyframe 3 at t = 0.2 s does not come after keyframe 2"), std::string::npos)
      << track;
  EXPECT_NE(make({{"contact.keyframes", "box1 0 0 0 0", "test"}}).find("names no obstacle"),
            std::string::npos);
  // Out of the options' bounds: refused when the config is made.
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"contact.friction", "-0.1"}, {"contact.stiffness", "0"}, {"contact.tolerance", "0"}}) {
    const std::string e = error_of([&] { config("block.veg", "full", {{key, value, "test"}}); });
    EXPECT_NE(e.find(fmt::format("[contact] {}", key.substr(8))), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace substruct
