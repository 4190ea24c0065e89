// SPDX-License-Identifier: GPL-3.0-or-later
// Procedural materials and timesteps of a plant (Zhao 2014, ch. 5) against hand-computed values:
// ages (Eq. 5.4–5.5), stiffness multipliers (Eq. 5.1), ξ(ν) (Eq. 5.10), the Rayleigh pair (Eq.
// 5.8, 5.11–5.13), substep exponents (Eq. 5.6–5.7) and the parent → child buffer slots; and the
// inertia plugin's use of them on a generated tree.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "procedural_materials.hpp"
#include "procedural_timestep.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/scene/tree_generator.hpp"
#include "support/method_run.hpp"
#include "support/temp_dir_test.hpp"
#include "support/tree_files.hpp"

namespace substruct::inertia {
namespace {

// Root 0 (2 Hz) → 1 (4 Hz) → 3 (1 Hz: longer than its parent); 0 → 2 (rigid) → 4 (8 Hz).
const std::vector<double> kNu{2, 4, 0, 1, 8};
const std::vector<int> kParent{-1, 0, 0, 1, 2};
const std::vector<int> kDepth{0, 1, 1, 2, 2};
const std::vector<int> kOrder{0, 1, 2, 3, 4};

TEST(ProceduralMaterials, AgesAreRelativeToTheRootAndNeverYoungerThanADescendant) {
  const std::vector<double> a = domain_ages(kNu, kParent, kOrder);
  // a = ν_root/ν: 1, 0.5, –, 2, 0.25; then each at least its oldest descendant's.
  EXPECT_DOUBLE_EQ(a[3], 2.0);
  EXPECT_DOUBLE_EQ(a[1], 2.0);  // 0.5, but its child 3 is 2
  EXPECT_DOUBLE_EQ(a[4], 0.25);
  EXPECT_DOUBLE_EQ(a[2], 0.25);  // rigid: its descendant's age
  EXPECT_DOUBLE_EQ(a[0], 2.0);   // 1, but 3 is older
}

TEST(ProceduralMaterials, StiffnessFollowsEquation51AndTheLevelMultipliers) {
  StiffnessSettings s;
  s.level_stiffness = {10, 5, 1};
  const std::vector<double> absolute = stiffness_multipliers(s, kNu, kParent, kDepth, kOrder);
  EXPECT_EQ(absolute, (std::vector<double>{10, 5, 5, 1, 1}));
  s.aging = true;
  s.exponent = 2;
  const std::vector<double> aging = stiffness_multipliers(s, kNu, kParent, kDepth, kOrder);
  // c₁ a^D with the ages above.
  EXPECT_DOUBLE_EQ(aging[0], 10 * 4.0);
  EXPECT_DOUBLE_EQ(aging[1], 5 * 4.0);
  EXPECT_DOUBLE_EQ(aging[3], 1 * 4.0);
  EXPECT_DOUBLE_EQ(aging[4], 1 * 0.0625);
  // D = 2 without the max rule gives every domain the root's frequency: ν √(a²) = ν_root.
  s.level_stiffness.clear();
  const std::vector<double> flat =
      stiffness_multipliers(s, {2, 4, 8}, {-1, 0, 0}, {0, 1, 1}, {0, 1, 2});
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_DOUBLE_EQ(std::vector<double>({2, 4, 8})[i] * std::sqrt(flat[i]), 2.0);
  s.exponent = 0;  // D = 0 is absolute mode
  EXPECT_EQ(stiffness_multipliers(s, kNu, kParent, kDepth, kOrder), std::vector<double>(5, 1.0));
}

TEST(ProceduralMaterials, RandomizationStaysInItsRangeAndRepeatsWithTheSeed) {
  StiffnessSettings s;
  s.randomization = 0.5;
  const std::vector<double> nu(200, 1.0);
  std::vector<int> parent(200, 0), order(200), depths(200, 0);
  parent[0] = -1;
  for (int i = 0; i < 200; ++i) order[static_cast<std::size_t>(i)] = i;
  const auto a = stiffness_multipliers(s, nu, parent, depths, order);
  EXPECT_EQ(a, stiffness_multipliers(s, nu, parent, depths, order));
  double lo = 1e9, hi = 0;
  for (double v : a) {
    lo = std::min(lo, std::sqrt(v));
    hi = std::max(hi, std::sqrt(v));
  }
  EXPECT_GE(lo, 1 / 1.5);
  EXPECT_LE(hi, 1.5);
  EXPECT_LT(lo, 0.75);  // spread over the range
  EXPECT_GT(hi, 1.35);
  s.seed = 2;
  EXPECT_NE(a, stiffness_multipliers(s, nu, parent, depths, order));
}

TEST(ProceduralMaterials, DampingRatioIsPiecewiseLinearInFrequency) {
  const DampingSettings d{0.02, 0.1, 1, 10, 0};
  EXPECT_DOUBLE_EQ(damping_ratio(d, 0.5), 0.02);
  EXPECT_DOUBLE_EQ(damping_ratio(d, 1), 0.02);
  EXPECT_DOUBLE_EQ(damping_ratio(d, 5.5), 0.06);
  EXPECT_DOUBLE_EQ(damping_ratio(d, 10), 0.1);
  EXPECT_DOUBLE_EQ(damping_ratio(d, 50), 0.1);
}

TEST(ProceduralMaterials, RayleighPairGivesXiAtOmegaAndXiOverGammaAtTwiceOmega) {
  const double xi = 0.05, omega = 2 * M_PI * 3;
  for (double gamma : {0.5, 0.6, 0.8}) {
    const Rayleigh c = procedural_rayleigh(xi, omega, gamma);
    auto ratio = [&](double w) { return 0.5 * (c.mass / w + c.stiffness * w); };  // Eq. 5.8
    EXPECT_NEAR(ratio(omega), xi, 1e-15);
    EXPECT_NEAR(ratio(2 * omega), xi / gamma, 1e-15);
    EXPECT_GE(c.mass, 0);
    EXPECT_GT(c.stiffness, 0);
    // Eq. 5.14: ξ's minimum, at ω* = √(α/β), is not above the lowest frequency.
    EXPECT_LE(std::sqrt(c.mass / c.stiffness), omega * (1 + 1e-12));
  }
  // Hand values, γ = 0.5: α = 0, β = 2ξ/ω.
  const Rayleigh half = procedural_rayleigh(xi, omega, 0.5);
  EXPECT_DOUBLE_EQ(half.mass, 0);
  EXPECT_DOUBLE_EQ(half.stiffness, 2 * xi / omega);
}

TEST(ProceduralTimestep, SubstepsResolveTheLowestPeriodQTimes) {
  // T = 0.1 s (ω = 20π), Q = 100: Δt / 2^N < 1 ms.
  EXPECT_EQ(substep_exponent(0.01, 20 * M_PI, 100), 4);  // 0.625 ms; 2^3 gives 1.25 ms
  EXPECT_EQ(substep_exponent(0.0009, 20 * M_PI, 100), 0);
  EXPECT_EQ(substep_exponent(0.001, 20 * M_PI, 100), 1);  // strictly below T/Q
  // Root 0 deformable (N 4), 1 rigid under it (takes 4), 2 deformable under 1 (N 6), 3 a rigid
  // leaf of the root with nothing deformable below (0).
  const std::vector<int> N =
      substep_exponents({20 * M_PI, 0, 80 * M_PI, 0}, {-1, 0, 1, 0}, {0, 1, 3, 2}, 0.01, 100, 12);
  EXPECT_EQ(N, (std::vector<int>{4, 4, 6, 0}));
  // A rigid root over deformable children: 0, the children their own.
  EXPECT_EQ(substep_exponents({0, 20 * M_PI}, {-1, 0}, {0, 1}, 0.01, 100, 12),
            (std::vector<int>{0, 4}));
  try {
    substep_exponents({1e6}, {-1}, {0}, 0.01, 100, 8);
    FAIL() << "no cap";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("domain 0"), std::string::npos) << e.what();
  }
}

TEST(ProceduralTimestep, ChildrenReadTheParentStateThatEndsWithTheirSubstep) {
  // Parent 4 substeps, child 1: one slot, written at the parent's last substep.
  const SubstepExchange coarse_child{4, 1};
  EXPECT_EQ(coarse_child.slots(), 1);
  EXPECT_EQ(coarse_child.write_slot(0), -1);
  EXPECT_EQ(coarse_child.write_slot(3), 0);
  EXPECT_EQ(coarse_child.read_slot(0), 0);
  // Parent 2, child 8: the child holds each parent state for ℓ = 4 of its substeps.
  const SubstepExchange fine_child{2, 8};
  EXPECT_EQ(fine_child.write_slot(0), 0);
  EXPECT_EQ(fine_child.write_slot(1), 1);
  for (int s = 0; s < 8; ++s) EXPECT_EQ(fine_child.read_slot(s), s < 4 ? 0 : 1) << s;
  // Equal grids: substep for substep.
  const SubstepExchange same{4, 4};
  for (int e = 0; e < 4; ++e) {
    EXPECT_EQ(same.write_slot(e), e);
    EXPECT_EQ(same.read_slot(e), e);
  }
}

// The plugin on a small tree: root_frequency softens it, procedural damping takes energy out,
// procedural timesteps reduce to the global step or come closer to a fine one.
class ProceduralTreeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<testing::SuiteDir>("ProceduralTree");
    TreeParameters p;
    p.branches = 4;
    p.levels = 1;
    p.leaves_per_branch = 2;
    testing::write_tree_files(dir_->path(), p);
  }
  static void TearDownTestSuite() { dir_.reset(); }

  std::unique_ptr<testing::MethodRun> run(const std::vector<Setting>& extra) const {
    return std::make_unique<testing::MethodRun>(
        host_, Config::from_settings(testing::tree_settings(extra), dir_->path(), host_),
        "inertia");
  }
  // Kinetic + elastic energy after `steps` steps of gravity from rest.
  static double energy_after(testing::MethodRun& r, int steps, double dt) {
    ExternalForces f;
    f.gravity = Vec3(3, -9.81, 0);
    r.run(steps, dt, f);
    const Energies e = r.method->energies(Vec3::Zero());
    return e.kinetic + e.elastic;
  }

  static inline std::unique_ptr<testing::SuiteDir> dir_;
  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

TEST_F(ProceduralTreeTest, TuningSoftensTheTreeAndProceduralDampingTakesEnergyOut) {
  // Tuned to 2 Hz, the wood tree (E = 1 GPa, its root at hundreds of Hz) sags far more.
  auto stiff = run({});
  auto tuned = run({{"inertia.root_frequency", "2", "test"}});
  ExternalForces g;
  g.gravity = Vec3(0, -9.81, 0);
  stiff->run(50, 0.005, g);
  tuned->run(50, 0.005, g);
  const double sag_stiff = stiff->displacement().cwiseAbs().maxCoeff();
  const double sag_tuned = tuned->displacement().cwiseAbs().maxCoeff();
  EXPECT_GT(sag_tuned, 100 * sag_stiff) << sag_tuned << " vs " << sag_stiff;

  // The same tuned tree, undamped against procedurally damped (ξ = 0.2 at every frequency).
  const std::vector<Setting> tune{{"inertia.root_frequency", "2", "test"},
                                  {"inertia.newmark_gamma", "0.5", "test"}};
  auto undamped = run(tune);
  std::vector<Setting> damped_settings = tune;
  damped_settings.insert(damped_settings.end(), {{"inertia.damping", "procedural", "test"},
                                                 {"inertia.damping_ratio_low", "0.2", "test"},
                                                 {"inertia.damping_ratio_high", "0.2", "test"}});
  auto damped = run(damped_settings);
  const double e_undamped = energy_after(*undamped, 400, 0.005);
  const double e_damped = energy_after(*damped, 400, 0.005);
  EXPECT_LT(e_damped, 0.7 * e_undamped) << e_damped << " vs " << e_undamped;
}

TEST_F(ProceduralTreeTest, ProceduralTimestepsAreTheGlobalStepWhenNoDomainNeedsMore) {
  // Q tiny: every N is 0, and the substep path must give the global step's numbers exactly.
  const std::vector<Setting> tune{{"inertia.root_frequency", "2", "test"}};
  auto global = run(tune);
  std::vector<Setting> one = tune;
  one.insert(one.end(), {{"inertia.timestep", "procedural", "test"},
                         {"inertia.timestep_quality", "1e-6", "test"}});
  auto procedural = run(one);
  ExternalForces g;
  g.gravity = Vec3(2, -9.81, 0);
  global->run(40, 0.01, g);
  procedural->run(40, 0.01, g);
  EXPECT_TRUE(global->x() == procedural->x());
}

TEST_F(ProceduralTreeTest, SubstepsComeCloserToTheFineStepAndAreThreadIndependent) {
  // Stiff branches (64×: 8× the frequency) on a tree tuned to 2 Hz; Q = 100 at 1/30 s gives the
  // trunk 8 substeps, the leaves 32 and the branches 64. The run must match itself on 3 threads
  // bit for bit, stay finite, and come clearly closer to a run of the whole tree at Δt/16 than one
  // global step does. (It stays farther than the whole tree at Δt/8: a child holds its parent's
  // frame over the parent's substep, a step function where the uniform run moves it every step.)
  const std::vector<Setting> tree{{"inertia.root_frequency", "2", "test"},
                                  {"inertia.stiffness", "aging", "test"},
                                  {"inertia.level_stiffness", "1 64 9", "test"}};
  std::vector<Setting> procedural = tree;
  procedural.insert(procedural.end(), {{"inertia.timestep", "procedural", "test"},
                                       {"inertia.timestep_quality", "100", "test"}});
  ExternalForces g;
  g.gravity = Vec3(0, -9.81, 0);
  auto a = run(procedural);
  a->run(15, 1.0 / 30, g);
  std::vector<Setting> threaded = procedural;
  threaded.push_back({"run.threads", "3", "test"});
  threaded.push_back({"inertia.schedule", "levels", "test"});
  auto b = run(threaded);
  b->run(15, 1.0 / 30, g);
  ASSERT_TRUE(a->x().allFinite());
  EXPECT_TRUE(a->x() == b->x());
  auto fine = run(tree), global = run(tree), whole = run(tree);
  fine->run(15 * 16, 1.0 / 480, g);
  global->run(15, 1.0 / 30, g);
  whole->run(15 * 8, 1.0 / 240, g);
  const Eigen::VectorXd u = fine->displacement();
  const double moved = u.cwiseAbs().maxCoeff();
  auto off = [&](testing::MethodRun& r) { return (r.displacement() - u).cwiseAbs().maxCoeff(); };
  std::printf(
      "largest distance to the whole tree at Δt/16, of its %.3g m: procedural %.3g, one "
      "global step %.3g, whole tree at Δt/8 %.3g\n",
      moved, off(*a), off(*global), off(*whole));
  EXPECT_GT(moved, 1e-3);
  EXPECT_LT(off(*a), 0.6 * off(*global));
}

TEST_F(ProceduralTreeTest, BadLevelStiffnessNamesTheKey) {
  try {
    run({{"inertia.level_stiffness", "3 -1", "test"}});
    FAIL() << "accepted a negative multiplier";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("level_stiffness"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace substruct::inertia
