// SPDX-License-Identifier: GPL-3.0-or-later
// The viewer's [contact] drawing, headless under Xvfb on the fixed beam: an obstacle beside the
// beam adds its pixels (and --no-contacts removes them), and the vertices touching the floor
// after the beam has fallen onto it show as red points that are absent before the fall and with
// --no-contacts.
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <osg/Image>

#include "support/screenshot_pixels.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

using testing::changed_pixels;
using testing::on_path;
using testing::read_screenshot;

// The contact points' pure red (the tracked vertices' markers are (0.9, 0.1, 0.1), no lit surface
// or backdrop colour comes near it).
long red_pixels(const osg::Image& im) {
  long count = 0;
  for (int y = 0; y < im.t(); ++y)
    for (int x = 0; x < im.s(); ++x) {
      const osg::Vec4 c = im.getColor(x, y);
      if (c.r() > 0.95f && c.g() < 0.05f && c.b() < 0.05f) ++count;
    }
  return count;
}

class ContactView : public testing::TempDirTest {
 protected:
  // `substruct view share/scenes/beam.ini ARGS --screenshot NAME.png` under xvfb-run, 320×240,
  // without the HUD; returns the screenshot (null and a failure when the command failed).
  osg::ref_ptr<osg::Image> shot(const std::string& name, const std::string& args) {
    const fs::path scene = fs::path(SUBSTRUCT_SOURCE_DIR) / "share/scenes/beam.ini";
    const fs::path png = dir() / (name + ".png"), log = dir() / (name + ".log");
    const std::string command =
        "xvfb-run -a -s '-screen 0 640x480x24' '" + std::string(SUBSTRUCT_CLI) + "' view '" +
        scene.string() + "' --run.exporters= --run.cache_dir='" + (dir() / "cache").string() +
        "' --size 320x240 --no-hud --still " + args + " --screenshot '" + png.string() + "' >'" +
        log.string() + "' 2>&1";
    const int status = std::system(command.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read(log);
    if (!fs::exists(png)) return nullptr;
    return read_screenshot(png);
  }
};

TEST_F(ContactView, AnObstacleIsDrawnBesideTheObject) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  // A sphere of 8 cm beside the middle of the beam (x ∈ [−0.06, 0.06], y ∈ [0, 1]), 2 cm clear.
  const std::string sphere = "--plain --frames 0 --contact.spheres='-0.16 0.5 0 0.08'";
  const auto bare = shot("bare", "--plain --frames 0");
  const auto with = shot("sphere", sphere);
  const auto hidden = shot("hidden", sphere + " --no-contacts");
  ASSERT_TRUE(bare.valid() && with.valid() && hidden.valid());
  EXPECT_GT(changed_pixels(*bare, *with), 320 * 240 / 100) << "the sphere shows";
  EXPECT_EQ(changed_pixels(*bare, *hidden), 0) << "--no-contacts hides it";
  EXPECT_EQ(red_pixels(*with), 0) << "nothing touches it";
}

TEST_F(ContactView, TheVerticesOnTheFloorAreRedPoints) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  // A floor 2 cm below the beam's lower side: after 0.4 s the sagging beam lies on it.
  const std::string floor =
      "--contact.ground='1 0 0 -0.08' --full.integrator=backward-euler --steps-per-frame 1";
  const auto before = shot("before", floor + " --frames 0");
  const auto fallen = shot("fallen", floor + " --frames 40");
  const auto hidden = shot("fallen-hidden", floor + " --frames 40 --no-contacts");
  ASSERT_TRUE(before.valid() && fallen.valid() && hidden.valid());
  EXPECT_EQ(red_pixels(*before), 0);
  EXPECT_GT(red_pixels(*fallen), 20) << "the vertices on the floor";  // 56 measured
  EXPECT_EQ(red_pixels(*hidden), 0);
}

}  // namespace
}  // namespace substruct
