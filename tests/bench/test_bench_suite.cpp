// SPDX-License-Identifier: GPL-3.0-or-later
// The benchmark suites: the file format (rows, overrides, reference, errors naming the file and
// line), and every suite that ships in share/benchmarks reads and names scenes that exist.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "substruct/bench/bench_suite.hpp"
#include "substruct/core/error.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

class BenchSuiteFile : public testing::TempDirTest {};

TEST_F(BenchSuiteFile, ReadsExperimentsRowsAndOverrides) {
  const fs::path file = write("suites/paper.suite",
                              "# a comment\n"
                              "title = A paper\n"
                              "about = first line\n"
                              "about = second line\n"
                              "[experiment release]\n"
                              "title = Fig. 7\n"
                              "scene = ../scenes/flower.ini\n"
                              "duration = 0.82\n"
                              "set = run.loads =\n"
                              "set = run.initial_velocity = mode 1 4.4\n"
                              "row = full | full\n"
                              "row = L1 | inertia | inertia.lumping = interface; a.b = c d | 2×\n"
                              "[experiment timing]\n"
                              "generate = tree --branches 4\n"
                              "steps = 20\n"
                              "repeats = 3\n"
                              "reference = none\n"
                              "other_methods = no\n"
                              "stages = yes\n"
                              "row = inertia | inertia\n");
  const BenchSuite s = read_bench_suite(file);
  EXPECT_EQ(s.name, "paper");
  EXPECT_EQ(s.title, "A paper");
  ASSERT_EQ(s.about.size(), 2u);
  ASSERT_EQ(s.experiments.size(), 2u);
  const BenchExperiment& e = s.experiments[0];
  EXPECT_EQ(e.name, "release");
  EXPECT_EQ(e.scene, (file.parent_path() / "../scenes/flower.ini").lexically_normal());
  EXPECT_EQ(e.steps, 0);
  EXPECT_DOUBLE_EQ(e.duration, 0.82);
  EXPECT_EQ(e.repeats, 1);
  ASSERT_EQ(e.overrides.size(), 2u);
  EXPECT_EQ(e.overrides[0], "--run.loads=");
  EXPECT_EQ(e.overrides[1], "--run.initial_velocity=mode 1 4.4");
  ASSERT_EQ(e.rows.size(), 2u);
  EXPECT_EQ(e.rows[1].label, "L1");
  EXPECT_EQ(e.rows[1].plugin, "inertia");
  ASSERT_EQ(e.rows[1].overrides.size(), 2u);
  EXPECT_EQ(e.rows[1].overrides[0], "--inertia.lumping=interface");
  EXPECT_EQ(e.rows[1].overrides[1], "--a.b=c d");
  EXPECT_EQ(e.rows[1].paper, "2×");
  EXPECT_EQ(e.reference, "full");  // the row named full, by default
  EXPECT_TRUE(e.other_methods);
  EXPECT_FALSE(e.stages);
  const BenchExperiment& t = s.experiments[1];
  EXPECT_EQ(t.generate, "tree --branches 4");
  EXPECT_TRUE(t.scene.empty());
  EXPECT_EQ(t.steps, 20);
  EXPECT_EQ(t.repeats, 3);
  EXPECT_EQ(t.reference, "");
  EXPECT_FALSE(t.other_methods);
  EXPECT_TRUE(t.stages);
}

TEST_F(BenchSuiteFile, MistakesAreErrorsNamingTheFileAndLine) {
  const auto message = [&](const std::string& text) {
    const fs::path file = write("bad.suite", text);
    return testing::error_message([&] { read_bench_suite(file); });
  };
  const std::string head = "[experiment e]\nscene = s.ini\nsteps = 5\n";
  EXPECT_NE(message(head + "colour = red\n").find("bad.suite:4: unknown key 'colour'"),
            std::string::npos);
  EXPECT_NE(message(head + "row = only-a-label\n").find("bad.suite:4: row needs"),
            std::string::npos);
  EXPECT_NE(message(head + "row = x | full | not-an-override\n").find("expected SECTION.KEY"),
            std::string::npos);
  EXPECT_NE(message(head + "row = x | full\nrow = x | inertia\n").find("a second row named 'x'"),
            std::string::npos);
  EXPECT_NE(message(head + "row = x | full\nreference = y\n").find("reference 'y' names no row"),
            std::string::npos);
  EXPECT_NE(message(head + "steps = 0\n").find("steps must be an integer ≥ 1"), std::string::npos);
  EXPECT_NE(message(head + "stages = maybe\n").find("stages must be yes or no"), std::string::npos);
  EXPECT_NE(message("[experiment e]\nsteps = 5\nrow = x | full\n").find("has no scene"),
            std::string::npos);
  EXPECT_NE(message("[experiment e]\nscene = s.ini\nrow = x | full\n").find("steps or duration"),
            std::string::npos);
  EXPECT_NE(message("title = t\n").find("no [experiment NAME]"), std::string::npos);
  EXPECT_NE(message("[results]\n").find("bad.suite:1: expected '[experiment NAME]'"),
            std::string::npos);
  EXPECT_NE(testing::error_message([&] {
              read_bench_suite(dir() / "missing.suite");
            }).find("cannot open bench suite"),
            std::string::npos);
}

TEST(ShippedBenchSuites, ReadAndNameScenesThatExist) {
  const fs::path dir = fs::path(SUBSTRUCT_SOURCE_DIR) / "share/benchmarks";
  const auto files = list_bench_suites(dir);
  ASSERT_GE(files.size(), 4u);
  for (const fs::path& file : files) {
    const BenchSuite s = read_bench_suite(file);
    EXPECT_FALSE(s.title.empty()) << file;
    for (const BenchExperiment& e : s.experiments) {
      EXPECT_FALSE(e.title.empty()) << file << " " << e.name;
      if (e.generate.empty()) {
        EXPECT_TRUE(fs::exists(e.scene)) << file << " " << e.scene;
      }
    }
  }
}

}  // namespace
}  // namespace substruct
