// `substruct view` headless under Xvfb on the beam: the PNG has the asked size, shows the object,
// and the beam pulled at its tip looks different from the beam at rest; every frame of a
// sequence is written; without a display and without headless options it is a clear error.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <osg/Image>
#include <osgDB/ReadFile>

#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

bool on_path(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

class OsgHeadless : public testing::TempDirTest {
 protected:
  // Runs `substruct view beam.ini ARGS` under xvfb-run; returns the exit code, output in log.
  int view(const std::string& args,
           const std::string& prefix = "xvfb-run -a -s '-screen 0 640x480x24' ") {
    const fs::path scene = fs::path(SUBSTRUCT_SOURCE_DIR) / "share/scenes/beam.ini";
    log_ = dir() / "log.txt";
    const std::string command = prefix + "'" + SUBSTRUCT_CLI + "' view '" + scene.string() +
                                "' --run.exporters= --run.cache_dir='" +
                                (dir() / "cache").string() + "' " + args + " >'" + log_.string() +
                                "' 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string log() { return read(log_); }

  static osg::ref_ptr<osg::Image> image(const fs::path& file) {
    osg::ref_ptr<osg::Image> image = osgDB::readImageFile(file.string());
    EXPECT_TRUE(image.valid()) << "cannot decode " << file;
    return image;
  }

  // Pixels that differ from the background colour (the clear colour, 0.16 0.18 0.22).
  static long object_pixels(const osg::Image& im) {
    long count = 0;
    for (int y = 0; y < im.t(); ++y)
      for (int x = 0; x < im.s(); ++x) {
        const osg::Vec4 c = im.getColor(x, y);
        if (std::abs(c.r() - 0.16f) + std::abs(c.g() - 0.18f) + std::abs(c.b() - 0.22f) > 0.06f)
          ++count;
      }
    return count;
  }

  static long changed_pixels(const osg::Image& a, const osg::Image& b) {
    long count = 0;
    for (int y = 0; y < a.t(); ++y)
      for (int x = 0; x < a.s(); ++x) {
        const osg::Vec4 d = a.getColor(x, y) - b.getColor(x, y);
        if (std::abs(d.r()) + std::abs(d.g()) + std::abs(d.b()) > 0.1f) ++count;
      }
    return count;
  }

  fs::path log_;
};

TEST_F(OsgHeadless, RendersTheBeamAndItsPull) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  const fs::path rest = dir() / "rest.png", pulled = dir() / "pulled.png";
  ASSERT_EQ(view("--size 320x240 --no-hud --frames 0 --screenshot '" + rest.string() + "'"), 0)
      << log();
  // Without gravity, 10 N lift the free end's corner (vertex 157) for 0.4 s.
  ASSERT_EQ(view("--size 320x240 --no-hud --run.loads= --frames 20 --steps-per-frame 2 "
                 "--pull 157 '10 0 0' --screenshot '" +
                 pulled.string() + "' --frame-sequence '" + (dir() / "frames").string() + "'"),
            0)
      << log();
  EXPECT_NE(log().find("20 frames"), std::string::npos) << log();
  const auto a = image(rest), b = image(pulled);
  ASSERT_TRUE(a.valid() && b.valid());
  EXPECT_EQ(a->s(), 320);
  EXPECT_EQ(a->t(), 240);
  EXPECT_EQ(b->s(), 320);
  EXPECT_EQ(b->t(), 240);
  const long total = 320 * 240;
  EXPECT_GT(object_pixels(*a), total / 50) << "the beam covers part of the image";
  EXPECT_LT(object_pixels(*a), total / 2);
  EXPECT_GT(object_pixels(*b), total / 50);
  const long changed = changed_pixels(*a, *b);
  EXPECT_GT(changed, total / 200) << "the pulled beam moved in the image";
  // The sequence: frames 0…20, and frame 0 is the rest state.
  for (int f = 0; f <= 20; ++f) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%04d.png", f);
    EXPECT_TRUE(fs::exists(dir() / "frames" / name)) << name;
  }
  EXPECT_EQ(changed_pixels(*a, *image(dir() / "frames/frame_0000.png")), 0);
}

TEST_F(OsgHeadless, WithoutADisplayItIsAClearError) {
  EXPECT_EQ(view("", "env -u DISPLAY "), 1) << log();
  EXPECT_NE(log().find("no display: set DISPLAY or use --screenshot/--frames"), std::string::npos)
      << log();
  EXPECT_EQ(view("--frames 1 --screenshot x.png", "env -u DISPLAY "), 1) << log();
  EXPECT_NE(log().find("xvfb-run"), std::string::npos) << log();
}

}  // namespace
}  // namespace substruct
