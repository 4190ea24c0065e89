// SPDX-License-Identifier: GPL-3.0-or-later
// `substruct view --replay` headless under Xvfb: a recording of the beam pulled at its tip plays
// back; its first frame shows the object, its last one the beam moved; the frame sequence has one
// PNG per recorded frame; a truncated recording is a clear error.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <osg/Image>
#include <osgDB/ReadFile>

#include "support/screenshot_pixels.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

using testing::changed_pixels;
using testing::object_pixels;
using testing::on_path;
using testing::read_screenshot;

class ReplayView : public testing::TempDirTest {
 protected:
  int command(const std::string& args) {
    log_ = dir() / "log.txt";
    const int status = std::system(
        ("'" + std::string(SUBSTRUCT_CLI) + "' " + args + " >'" + log_.string() + "' 2>&1")
            .c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string log() { return read(log_); }

  // The beam without gravity, 10 N lifting its free end's corner (vertex 157), 20 steps.
  fs::path record_beam() {
    const fs::path scene = fs::path(SUBSTRUCT_SOURCE_DIR) / "share/scenes/beam.ini";
    EXPECT_EQ(command("run '" + scene.string() + "' --run.steps=20 --run.loads=pull " +
                      "--pull.vertices=157 --pull.force='10 0 0' --run.exporters=record " +
                      "--run.output='" + (dir() / "beam.pvd").string() + "'"),
              0)
        << log();
    return dir() / "beam.ssrec";
  }

  fs::path log_;
  const std::string xvfb_ = "xvfb-run -a -s '-screen 0 640x480x24' ";
};

TEST_F(ReplayView, PlaysARecordingBack) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  const fs::path recording = record_beam();
  const fs::path first = dir() / "first.png", last = dir() / "last.png";
  const std::string args = "--replay '" + recording.string() + "' --size 320x240 --plain ";
  log_ = dir() / "log.txt";
  ASSERT_EQ(std::system((xvfb_ + "'" + SUBSTRUCT_CLI + "' view " + args + "--frames 0 " +
                         "--screenshot '" + first.string() + "' >'" + log_.string() + "' 2>&1")
                            .c_str()),
            0)
      << log();
  ASSERT_EQ(std::system((xvfb_ + "'" + SUBSTRUCT_CLI + "' view " + args + "--screenshot '" +
                         last.string() + "' --frame-sequence '" + (dir() / "frames").string() +
                         "' >'" + log_.string() + "' 2>&1")
                            .c_str()),
            0)
      << log();
  EXPECT_NE(log().find("21 of 21 frames"), std::string::npos) << log();
  const auto a = read_screenshot(first), b = read_screenshot(last);
  ASSERT_TRUE(a.valid() && b.valid());
  EXPECT_EQ(a->s(), 320);
  EXPECT_EQ(a->t(), 240);
  const long total = 320 * 240;
  EXPECT_GT(object_pixels(*a), total / 50) << "the beam covers part of the image";
  EXPECT_LT(object_pixels(*a), total / 2);
  EXPECT_GT(changed_pixels(*a, *b), total / 200) << "the pulled beam moved in the replay";
  EXPECT_TRUE(fs::exists(dir() / "frames/frame_0020.png"));
  EXPECT_FALSE(fs::exists(dir() / "frames/frame_0021.png"));
  EXPECT_EQ(changed_pixels(*a, *read_screenshot(dir() / "frames/frame_0000.png")), 0);
}

TEST_F(ReplayView, ATruncatedRecordingIsAClearError) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  const fs::path recording = record_beam();
  const std::string bytes = read(recording);
  const fs::path cut = write("cut.ssrec", bytes.substr(0, bytes.size() / 2));
  log_ = dir() / "log.txt";
  const int status = std::system((xvfb_ + "'" + SUBSTRUCT_CLI + "' view --replay '" + cut.string() +
                                  "' --frames 0 --screenshot '" + (dir() / "x.png").string() +
                                  "' >'" + log_.string() + "' 2>&1")
                                     .c_str());
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 1) << log();
  EXPECT_NE(log().find("truncated"), std::string::npos) << log();
  EXPECT_NE(log().find("cut.ssrec"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(dir() / "x.png"));
}

}  // namespace
}  // namespace substruct
