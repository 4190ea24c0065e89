// SPDX-License-Identifier: GPL-3.0-or-later
// The viewer's GPU path ([view] geometry = gpu) against its CPU path, without a screenshot:
// `substruct view --check-geometry` reads the vertices the vertex shader computed back from a
// float image and prints their largest distance to the geometry plugin's render positions of the
// same state. On the tree (inertia, leaves and branches instanced), on a render mesh embedded in
// the beam's tets (partly outside them) split into domains, the two agree to 1e-6 of the object's
// size after the object has moved; [view] geometry = cpu, auto under a software rasteriser, a
// method without a reduced layout and a bad value fall back or fail as they say.
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "support/screenshot_pixels.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

using testing::on_path;

class GpuGeometry : public testing::TempDirTest {
 protected:
  int view(const std::string& scene_name, const std::string& args) {
    const fs::path scene = fs::path(SUBSTRUCT_SOURCE_DIR) / "share/scenes" / (scene_name + ".ini");
    log_ = dir() / "log.txt";
    const std::string command =
        "xvfb-run -a -s '-screen 0 640x480x24' '" + std::string(SUBSTRUCT_CLI) + "' view '" +
        scene.string() + "' --run.exporters= --run.cache_dir='" + (dir() / "cache").string() +
        "' --size 320x240 " + args + " >'" + log_.string() + "' 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string log() { return read(log_); }

  struct Check {
    double distance = -1, relative = -1, moved = -1;
    long vertices = -1, missing = -1;
  };
  // The --check-geometry line of `method`.
  Check check(const std::string& method) {
    const std::regex line(method +
                          R"(: GPU vs CPU path: largest distance (\S+) m = (\S+) of the object's )"
                          R"(size over (\d+) drawn vertices \((\d+) not written\), largest )"
                          R"(displacement (\S+) of the size)");
    std::smatch m;
    const std::string text = log();
    Check c;
    if (!std::regex_search(text, m, line)) return c;
    c.distance = std::stod(m[1]);
    c.relative = std::stod(m[2]);
    c.vertices = std::stol(m[3]);
    c.missing = std::stol(m[4]);
    c.moved = std::stod(m[5]);
    return c;
  }

  fs::path log_;
};

TEST_F(GpuGeometry, TheShaderDrawsTheTreeWhereTheCpuPathDoes) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  // The default excitation pulls the tree for 0.5 s: after 30 frames it has moved.
  ASSERT_EQ(view("tree", "--plain --no-hud --frames 30 --view.geometry=gpu --check-geometry"), 0)
      << log();
  const std::string text = log();
  const std::regex drawn(R"(geometry   inertia: gpu, (\d+) draws \((\d+) instanced models?\))");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, drawn)) << text;
  EXPECT_GE(std::stol(m[2]), 1) << "copies of a leaf are drawn instanced";
  const Check c = check("inertia");
  ASSERT_GE(c.relative, 0) << text;
  EXPECT_LT(c.relative, 1e-6) << text;
  EXPECT_GT(c.moved, 1e-4) << "the tree moved, so frames and q matter";
  EXPECT_GT(c.vertices, 1000);
  EXPECT_EQ(c.missing, 0);
}

TEST_F(GpuGeometry, TheShaderEmbedsARenderMeshAcrossDomains) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  // A tube along the beam (x ∈ ±0.06, y ∈ [0, 1], z ∈ ±0.02), wider than it in z: its vertices
  // there lie outside the tets and are extrapolated.
  const fs::path obj = dir() / "tube.obj";
  {
    std::ofstream out(obj);
    constexpr int around = 12, along = 25;
    for (int j = 0; j <= along; ++j)
      for (int i = 0; i < around; ++i) {
        const double a = 2 * M_PI * i / around;
        out << "v " << 0.05 * std::cos(a) << ' ' << 0.01 + 0.98 * j / along << ' '
            << 0.025 * std::sin(a) << '\n';
      }
    for (int j = 0; j < along; ++j)
      for (int i = 0; i < around; ++i) {
        const int a = j * around + i + 1, b = j * around + (i + 1) % around + 1;
        out << "f " << a << ' ' << b << ' ' << b + around << '\n'
            << "f " << a << ' ' << b + around << ' ' << a + around << '\n';
      }
  }
  ASSERT_EQ(
      view("beam",
           "--plain --no-hud --coupling.plugin=inertia --scene.domains=bands:3 "
           "--view.geometry=gpu --scene.render_mesh='" +
               obj.string() + "' --run.loads= --pull 157 '10 0 0' --frames 20 --check-geometry"),
      0)
      << log();
  const Check c = check("inertia");
  ASSERT_GE(c.relative, 0) << log();
  EXPECT_LT(c.relative, 1e-6) << log();
  EXPECT_GT(c.moved, 1e-4) << log();
  EXPECT_EQ(c.vertices, 12 * 26) << "every render vertex drawn once (no domain is a copy)";
  EXPECT_EQ(c.missing, 0);
}

TEST_F(GpuGeometry, FallsBackToTheCpuPathSayingWhy) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  ASSERT_EQ(view("beam", "--plain --no-hud --frames 2 --view.geometry=gpu --check-geometry"), 0)
      << log();
  EXPECT_NE(log().find("geometry   full: cpu (the method exposes no reduced layout"),
            std::string::npos)
      << log();
  EXPECT_NE(log().find("check      full: not drawn by the GPU path"), std::string::npos) << log();
  ASSERT_EQ(view("beam",
                 "--plain --no-hud --frames 2 --coupling.plugin=inertia "
                 "--view.geometry=cpu --check-geometry"),
            0)
      << log();
  EXPECT_NE(log().find("geometry   inertia: cpu ([view] geometry = cpu)"), std::string::npos)
      << log();
  // auto: the CPU path under a software rasteriser (llvmpipe here), the GPU path elsewhere.
  ASSERT_EQ(view("beam", "--plain --no-hud --frames 2 --coupling.plugin=inertia"), 0) << log();
  if (log().find("llvmpipe") != std::string::npos)
    EXPECT_NE(log().find("inertia: cpu ([view] geometry = auto on a software rasteriser: llvmpipe"),
              std::string::npos)
        << log();
  else
    EXPECT_NE(log().find("geometry   inertia: gpu, "), std::string::npos) << log();
  EXPECT_NE(view("beam", "--frames 0 --view.geometry=shader"), 0);
  EXPECT_NE(log().find("[view] geometry"), std::string::npos) << log();
}

}  // namespace
}  // namespace substruct
