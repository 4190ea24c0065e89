// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-core stepping ([run] threads): the inertia tree walk (by levels and by dependencies, with
// and without stage timing, with fracture; a wide root's children in parallel runs) and the
// coupling-elements assembly give the same numbers, bit for bit, on any number of threads.
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/mesh/mesh_io.hpp"
#include "substruct/scene/tree_generator.hpp"
#include "support/method_run.hpp"
#include "support/temp_dir_test.hpp"
#include "support/tree_files.hpp"

namespace substruct {
namespace {

class ParallelSteppingTest : public ::testing::Test {
 protected:
  // A tree of 1 + 6 branches (two levels) + 12 leaves = 19 domains, depth 3.
  // And a wide one: a trunk with 36 branches of one leaf each (73 domains), whose children the
  // root's step takes in runs of 16 on the step's threads.
  static void SetUpTestSuite() {
    dir_ = std::make_unique<testing::SuiteDir>("ParallelStepping");
    TreeParameters p;
    p.branches = 6;
    p.levels = 2;
    p.sub_branches = 2;
    p.leaves_per_branch = 2;
    p.material.youngs_modulus = 2e6;
    testing::write_tree_files(dir_->path(), p);
    wide_dir_ = std::make_unique<testing::SuiteDir>("ParallelSteppingWide");
    TreeParameters w;
    w.branches = 36;
    w.levels = 1;
    w.leaves_per_branch = 1;
    w.material.youngs_modulus = 2e6;
    testing::write_tree_files(wide_dir_->path(), w);
  }
  static void TearDownTestSuite() {
    dir_.reset();
    wide_dir_.reset();
  }

  // Positions after `steps` steps under gravity and a sideways gust.
  Points run(const std::string& plugin, const std::string& threads,
             const std::vector<Setting>& extra, int steps, bool wide = false) const {
    std::vector<Setting> s = testing::tree_settings({{"run.threads", threads, "test"}});
    s.insert(s.end(), extra.begin(), extra.end());
    testing::MethodRun r(host_, Config::from_settings(s, (wide ? wide_dir_ : dir_)->path(), host_),
                         plugin);
    ExternalForces f;
    f.gravity = Vec3(4, -9.81, 3);
    r.run(steps, 0.004, f);
    return r.x();
  }

  static inline std::unique_ptr<testing::SuiteDir> dir_, wide_dir_;
  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

TEST_F(ParallelSteppingTest, InertiaIsBitIdenticalOnAnyThreadCountAndSchedule) {
  const std::vector<std::vector<Setting>> variants{
      {},
      {{"inertia.stage_timing", "true", "test"}},
      {{"inertia.lumping", "interface", "test"}},
      // Low enough that branches break off during the run.
      {{"inertia.fracture_threshold", "1e-9", "test"}},
      // Rigid leaves, placed by their parent's task; and breaking off.
      {{"inertia.rigid_domains", "6-17", "test"}},
      {{"inertia.rigid_domains", "6-17", "test"}, {"inertia.fracture_threshold", "1e-9", "test"}}};
  for (const auto& variant : variants) {
    const Points serial = run("inertia", "1", variant, 60);
    ASSERT_TRUE(serial.allFinite());
    for (const char* schedule : {"levels", "dependencies"})
      for (const char* threads : {"2", "4"}) {
        std::vector<Setting> v = variant;
        v.push_back({"inertia.schedule", schedule, "test"});
        const Points x = run("inertia", threads, v, 60);
        EXPECT_TRUE(x == serial) << schedule << ", " << threads << " threads, variant "
                                 << (variant.empty() ? "default" : variant.back().key)
                                 << ": largest difference " << (x - serial).cwiseAbs().maxCoeff();
      }
  }
}

TEST_F(ParallelSteppingTest, InertiaWithAWideRootIsBitIdenticalOnAnyThreadCount) {
  const std::vector<std::vector<Setting>> variants{
      {},
      {{"inertia.lumping", "interface", "test"}},
      // The leaves rigid (36-71), placed by their branches' tasks; and branches breaking off.
      {{"inertia.rigid_domains", "36-71", "test"}, {"inertia.fracture_threshold", "1e-9", "test"}}};
  for (const auto& variant : variants) {
    const Points serial = run("inertia", "1", variant, 40, true);
    ASSERT_TRUE(serial.allFinite());
    for (const char* schedule : {"levels", "dependencies"}) {
      std::vector<Setting> v = variant;
      v.push_back({"inertia.schedule", schedule, "test"});
      const Points x = run("inertia", "2", v, 40, true);
      EXPECT_TRUE(x == serial) << schedule << ", variant "
                               << (variant.empty() ? "default" : variant.back().key)
                               << ": largest difference " << (x - serial).cwiseAbs().maxCoeff();
    }
  }
}

TEST_F(ParallelSteppingTest, CouplingElementsIsBitIdenticalOnAnyThreadCount) {
  for (const std::vector<Setting>& variant : std::vector<std::vector<Setting>>{
           {},
           {{"coupling-elements.interface_samples", "6", "test"},
            {"coupling-elements.interface_weights", "non-uniform", "test"}}}) {
    const Points serial = run("coupling-elements", "1", variant, 30);
    ASSERT_TRUE(serial.allFinite());
    for (const char* threads : {"2", "3"})
      EXPECT_TRUE(run("coupling-elements", threads, variant, 30) == serial) << threads;
  }
}

TEST_F(ParallelSteppingTest, ABadThreadCountNamesTheKey) {
  try {
    run("inertia", "many", {}, 1);
    FAIL() << "accepted threads = many";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("[run] threads"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace substruct
