// SPDX-License-Identifier: GPL-3.0-or-later
// `substruct view` headless under Xvfb on the beam: the PNG has the asked size, shows the object,
// and the beam pulled at its tip looks different from the beam at rest; every frame of a
// sequence is written; without a display and without headless options it is a clear error.
// Comparing methods gives one non-empty viewport per method whose HUD names it and its error; a
// ghost adds translucent pixels over the object; the error colouring of a method against itself
// is the zero colour everywhere; a recording has one video frame per rendered frame; the looks
// (gradient, ground, shadow) are on by default and off with --plain; each viewport is titled with
// its method, and a scene under gravity alone is pulled and let go so that the methods part.
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <osg/Image>
#include <osgDB/ReadFile>

#include "support/screenshot_pixels.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

using testing::changed_pixels;
using testing::is_object;
using testing::object_pixels;
using testing::on_path;
using testing::read_screenshot;

class OsgHeadless : public testing::TempDirTest {
 protected:
  // Runs `substruct view SCENE.ini ARGS` (the beam by default) under xvfb-run; returns the exit
  // code, output in log.
  int view(const std::string& args,
           const std::string& prefix = "xvfb-run -a -s '-screen 0 640x480x24' ",
           const std::string& scene_name = "beam") {
    const fs::path scene = fs::path(SUBSTRUCT_SOURCE_DIR) / "share/scenes" / (scene_name + ".ini");
    log_ = dir() / "log.txt";
    const std::string command = prefix + "'" + SUBSTRUCT_CLI + "' view '" + scene.string() +
                                "' --run.exporters= --run.cache_dir='" +
                                (dir() / "cache").string() + "' " + args + " >'" + log_.string() +
                                "' 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string log() { return read(log_); }

  fs::path log_;
};

TEST_F(OsgHeadless, RendersTheBeamAndItsPull) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  const fs::path rest = dir() / "rest.png", pulled = dir() / "pulled.png";
  ASSERT_EQ(view("--size 320x240 --plain --no-hud --frames 0 --screenshot '" + rest.string() + "'"),
            0)
      << log();
  // Without gravity, 10 N lift the free end's corner (vertex 157) for 0.4 s.
  ASSERT_EQ(view("--size 320x240 --plain --no-hud --run.loads= --frames 20 --steps-per-frame 2 "
                 "--pull 157 '10 0 0' --screenshot '" +
                 pulled.string() + "' --frame-sequence '" + (dir() / "frames").string() + "'"),
            0)
      << log();
  EXPECT_NE(log().find("20 frames"), std::string::npos) << log();
  const auto a = read_screenshot(rest), b = read_screenshot(pulled);
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
  EXPECT_EQ(changed_pixels(*a, *read_screenshot(dir() / "frames/frame_0000.png")), 0);
}

TEST_F(OsgHeadless, LooksAreOnByDefault) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  const fs::path looks = dir() / "looks.png", plain = dir() / "plain.png";
  const std::string args = "--size 320x240 --no-hud --frames 0 --screenshot ";
  ASSERT_EQ(view(args + "'" + looks.string() + "'"), 0) << log();
  ASSERT_EQ(view(args + "'" + plain.string() + "' --plain"), 0) << log();
  const auto a = read_screenshot(looks), b = read_screenshot(plain);
  ASSERT_TRUE(a.valid() && b.valid());
  // The gradient: the top row darker than the bottom row, and both unlike the plain clear colour.
  const osg::Vec4 top = a->getColor(2, a->t() - 2), bottom = a->getColor(2, 2);
  EXPECT_LT(top.r() + top.g() + top.b(), bottom.r() + bottom.g() + bottom.b() - 0.5f);
  EXPECT_TRUE(is_object(bottom));
  EXPECT_GT(changed_pixels(*a, *b), 320 * 240 / 2) << "the backdrop covers the background";
}

TEST_F(OsgHeadless, ComparesMethodsInLockstepWithTheirErrors) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  const fs::path shot = dir() / "compare.png";
  ASSERT_EQ(view("--size 600x200 --plain --run.loads= --frames 10 --steps-per-frame 2 --pull 157 "
                 "'10 0 0' --compare full,inertia,coupling-elements --print-hud --screenshot '" +
                 shot.string() + "'"),
            0)
      << log();
  const std::string out = log();
  // Every frame's HUD names each viewport's method; the reference is the first.
  for (const char* line : {"[viewport 1] full", "[viewport 2] inertia",
                           "[viewport 3] coupling-elements", "reference of the errors"})
    EXPECT_NE(out.find(line), std::string::npos) << line << "\n" << out;
  EXPECT_NE(out.find("hud frame 10"), std::string::npos) << out;
  // The HUD's font was found: every character is drawn (the built-in fallback drops some).
  EXPECT_EQ(out.find("HUD's font"), std::string::npos) << out;
  // The last frame's errors: reduced methods are close to full but not equal to it.
  const std::regex error(
      R"(view +beam, (inertia|coupling-elements): 10 frames.*error vs full ([0-9.e-]+) of its motion)");
  int found = 0;
  for (std::sregex_iterator it(out.begin(), out.end(), error), end; it != end; ++it, ++found) {
    const double e = std::stod((*it)[2]);
    EXPECT_GT(e, 0.0) << (*it)[0];
    EXPECT_LT(e, 0.5) << (*it)[0];
  }
  EXPECT_EQ(found, 2) << out;
  // Three viewports side by side, each showing its beam.
  const auto im = read_screenshot(shot);
  ASSERT_TRUE(im.valid());
  for (int k = 0; k < 3; ++k)
    EXPECT_GT(object_pixels(*im, 200 * k, 200 * (k + 1)), 200 * 200 / 50) << "viewport " << k + 1;
}

// White text pixels (the titles' glyphs) in the top `band` rows of columns [x0, x1).
long title_pixels(const osg::Image& im, int x0, int x1, int band = 30) {
  long count = 0;
  for (int y = im.t() - band; y < im.t(); ++y)
    for (int x = x0; x < x1; ++x) {
      const osg::Vec4 c = im.getColor(x, y);
      if (std::min({c.r(), c.g(), c.b()}) > 0.85f) ++count;
    }
  return count;
}

// Pixels that differ between viewport a and viewport b (each `width` wide) of one image.
long viewport_difference(const osg::Image& im, int a, int b, int width) {
  long count = 0;
  for (int y = 0; y < im.t(); ++y)
    for (int x = 0; x < width; ++x) {
      const osg::Vec4 d = im.getColor(a * width + x, y) - im.getColor(b * width + x, y);
      if (std::abs(d.r()) + std::abs(d.g()) + std::abs(d.b()) > 0.1f) ++count;
    }
  return count;
}

TEST_F(OsgHeadless, EachViewportIsTitledAndTheMethodsMoveApartByDefault) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  // The beam under gravity alone, no --pull: the default excitation pulls its first tracked
  // vertex by half the beam's weight (4.8 kg × 9.81 m/s² / 2) and lets go at 0.5 s; 40 frames of
  // 2 steps are 0.8 s.
  const std::string args =
      "--size 900x300 --plain --compare full,inertia,coupling-elements --steps-per-frame 2 ";
  const fs::path titled = dir() / "titled.png", bare = dir() / "bare.png";
  ASSERT_EQ(view(args + "--frames 0 --print-hud --screenshot '" + titled.string() + "'"), 0)
      << log();
  for (const char* title :
       {"title: full (reference)", "title: inertia", "title: coupling-elements"})
    EXPECT_NE(log().find(title), std::string::npos) << title << "\n" << log();
  ASSERT_EQ(view(args + "--frames 0 --no-hud --screenshot '" + bare.string() + "'"), 0) << log();
  const auto a = read_screenshot(titled), b = read_screenshot(bare);
  ASSERT_TRUE(a.valid() && b.valid());
  // Each viewport's title: white glyphs in the middle of its top band, none there without the
  // HUD, and a different name (other pixels) in each.
  for (int k = 0; k < 3; ++k) {
    EXPECT_GT(title_pixels(*a, 300 * k + 75, 300 * k + 225), 40) << "viewport " << k + 1;
    EXPECT_EQ(title_pixels(*b, 300 * k + 75, 300 * k + 225), 0) << "viewport " << k + 1;
  }
  for (auto [i, j] : {std::pair{0, 1}, std::pair{1, 2}, std::pair{0, 2}}) {
    long differ = 0;
    for (int y = a->t() - 30; y < a->t(); ++y)
      for (int x = 0; x < 300; ++x)
        differ +=
            std::abs(a->getColor(300 * i + x, y).r() - a->getColor(300 * j + x, y).r()) > 0.3f;
    EXPECT_GT(differ, 40) << "the titles of viewports " << i + 1 << " and " << j + 1;
  }

  // The motion: at rest the three viewports are the same picture; after the pull and release
  // each method's beam is elsewhere, and the reference's has moved from its rest.
  const fs::path moved = dir() / "moved.png";
  ASSERT_EQ(view(args + "--frames 40 --no-hud --print-hud --screenshot '" + moved.string() + "'"),
            0)
      << log();
  EXPECT_NE(log().find("vertex 0 pulled by 23.5 N until t = 0.5 s, then let go"), std::string::npos)
      << log();
  const auto m = read_screenshot(moved);
  ASSERT_TRUE(m.valid());
  EXPECT_LT(viewport_difference(*b, 0, 1, 300), 20);
  EXPECT_LT(viewport_difference(*b, 0, 2, 300), 20);
  EXPECT_GT(viewport_difference(*m, 0, 1, 300), 300) << "full and inertia";
  EXPECT_GT(viewport_difference(*m, 0, 2, 300), 300) << "full and coupling-elements";
  EXPECT_GT(viewport_difference(*m, 1, 2, 300), 100) << "inertia and coupling-elements";
  long from_rest = 0;
  for (int y = 0; y < m->t(); ++y)
    for (int x = 0; x < 300; ++x) {
      const osg::Vec4 d = m->getColor(x, y) - b->getColor(x, y);
      from_rest += std::abs(d.r()) + std::abs(d.g()) + std::abs(d.b()) > 0.1f;
    }
  EXPECT_GT(from_rest, 300 * 300 / 50) << "the pulled beam moved";

  // --still: no excitation.
  ASSERT_EQ(view(args + "--frames 2 --no-hud --print-hud --still"), 0) << log();
  EXPECT_EQ(log().find("pulled by"), std::string::npos) << log();
}

TEST_F(OsgHeadless, ErrorsAreTheBenchmarkReportsFigures) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  // The same 20 steps of the same pull, in substruct bench and in the viewer.
  const std::string bench = std::string("'") + SUBSTRUCT_CLI + "' bench '" + SUBSTRUCT_SOURCE_DIR +
                            "/share/scenes/beam.ini' --methods inertia --steps 20 --repeats 1 "
                            "--no-plots --out '" +
                            (dir() / "bench").string() +
                            "' --run.loads=pull --pull.vertices=157 --pull.force='10 0 0' "
                            "--run.cache_dir='" +
                            (dir() / "cache").string() + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(bench.c_str()), 0);
  const std::string csv = read(dir() / "bench/results.csv");
  const std::regex row(R"(\nbeam,inertia,ok,.*)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(csv, m, row)) << csv;
  // relative_rms_error and offset_ratio are columns 22 and 23 (1-based) of results.csv.
  std::vector<std::string> columns;
  std::stringstream fields(m.str().substr(1));
  for (std::string field; std::getline(fields, field, ',');) columns.push_back(field);
  ASSERT_GT(columns.size(), 23u) << m.str();
  const double bench_error = std::stod(columns[21]), bench_offset = std::stod(columns[22]);

  ASSERT_EQ(view("--size 200x100 --plain --no-hud --run.loads= --frames 10 --steps-per-frame 2 "
                 "--pull 157 '10 0 0' --compare full,inertia"),
            0)
      << log();
  const std::regex line(
      R"(beam, inertia: .*error vs full ([0-9.e-]+) of its motion, offset × ([0-9.e-]+))");
  const std::string out = log();
  ASSERT_TRUE(std::regex_search(out, m, line)) << out;
  EXPECT_NEAR(std::stod(m[1]), bench_error, 1e-5 * bench_error) << out;
  EXPECT_NEAR(std::stod(m[2]), bench_offset, 1e-5) << out;
}

TEST_F(OsgHeadless, AMouseDragPullsTheSameVertexInEveryViewport) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  const std::string args =
      "--size 400x200 --plain --no-hud --run.loads= --steps-per-frame 2 "
      "--compare full,inertia --screenshot ";
  const fs::path rest = dir() / "rest.png", dragged = dir() / "dragged.png";
  ASSERT_EQ(view(args + "'" + rest.string() + "' --frames 0"), 0) << log();
  const auto a = read_screenshot(rest);
  ASSERT_TRUE(a.valid());
  // A point on the beam in the first viewport: the centre of its pixels.
  double x = 0, y = 0, n = 0;
  for (int j = 0; j < a->t(); ++j)
    for (int i = 0; i < 200; ++i)
      if (is_object(a->getColor(i, j))) x += i, y += j, n += 1;
  ASSERT_GT(n, 100);
  x /= n, y /= n;
  // Press there at frame 2, drag 50 pixels up, release at frame 15.
  ASSERT_EQ(
      view(args + "'" + dragged.string() + "' --frames 20 --drag '2 15 " + std::to_string(x) + " " +
           std::to_string(y) + " " + std::to_string(x) + " " + std::to_string(y + 50) + "'"),
      0)
      << log();
  const std::string out = log();
  std::smatch picked, released;
  ASSERT_TRUE(
      std::regex_search(out, picked, std::regex(R"(drag +vertex ([0-9]+) picked in viewport 1)")))
      << out;
  ASSERT_TRUE(std::regex_search(
      out, released,
      std::regex(
          R"(released \(full: vertex ([0-9]+), \|f\| = ([0-9.e+-]+) N; inertia: vertex ([0-9]+), \|f\| = ([0-9.e+-]+) N\))")))
      << out;
  EXPECT_EQ(released[1], picked[1]);
  EXPECT_EQ(released[3], picked[1]);
  EXPECT_GT(std::stod(released[2]), 1.0);
  EXPECT_GT(std::stod(released[4]), 1.0);
  // Both beams moved.
  const auto b = read_screenshot(dragged);
  ASSERT_TRUE(b.valid());
  long left = 0, right = 0;
  for (int j = 0; j < a->t(); ++j)
    for (int i = 0; i < a->s(); ++i) {
      const osg::Vec4 d = a->getColor(i, j) - b->getColor(i, j);
      if (std::abs(d.r()) + std::abs(d.g()) + std::abs(d.b()) > 0.1f) ++(i < 200 ? left : right);
    }
  EXPECT_GT(left, 200);
  EXPECT_GT(right, 200);
}

TEST_F(OsgHeadless, AMethodThatCannotRunSaysWhyInItsViewport) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  // The sheet's domains form a cycle: inertia coupling needs a tree; full runs on, inertia's
  // viewport says why it does not.
  ASSERT_EQ(view("--size 400x200 --plain --frames 2 --compare full,inertia --print-hud",
                 "xvfb-run -a -s '-screen 0 640x480x24' ", "sheet"),
            0)
      << log();
  EXPECT_NE(log().find("[viewport 2] inertia"), std::string::npos) << log();
  EXPECT_NE(log().find("inertia cannot run on this scene: coupling 'inertia' cannot run scene "
                       "'sheet': the domain graph has a cycle"),
            std::string::npos)
      << log();
  EXPECT_NE(log().find("view       sheet, full: 2 frames"), std::string::npos) << log();
  EXPECT_EQ(view("--frames 1 --compare full,inertai"), 1) << log();
  EXPECT_NE(log().find("'inertai' is not a coupling method"), std::string::npos) << log();
}

TEST_F(OsgHeadless, GhostAddsTranslucentPixelsOverTheObject) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  const fs::path alone = dir() / "alone.png", ghosted = dir() / "ghost.png";
  const std::string args = "--size 320x240 --plain --no-hud --colour plain --frames 0 ";
  ASSERT_EQ(view(args + "--screenshot '" + alone.string() + "'"), 0) << log();
  ASSERT_EQ(view(args + "--ghost inertia --screenshot '" + ghosted.string() + "'"), 0) << log();
  const auto a = read_screenshot(alone), b = read_screenshot(ghosted);
  ASSERT_TRUE(a.valid() && b.valid());
  // At rest the ghost covers the object: its pixels turn orange (more red, less blue) but keep
  // some of the object's shading (translucent, not opaque), and the background stays.
  long object = 0, tinted = 0, outside = 0, opaque = 0;
  for (int y = 0; y < a->t(); ++y)
    for (int x = 0; x < a->s(); ++x) {
      const osg::Vec4 p = a->getColor(x, y), q = b->getColor(x, y);
      const bool changed = std::abs(q.r() - p.r()) + std::abs(q.b() - p.b()) > 0.05f;
      if (!is_object(p)) {
        outside += changed;
        continue;
      }
      ++object;
      if (changed && q.r() > p.r() && q.b() < p.b()) ++tinted;
      if (std::abs(q.r() - 1.f) + std::abs(q.g() - 0.62f) + std::abs(q.b() - 0.2f) < 0.03f)
        ++opaque;
    }
  EXPECT_GT(object, 320 * 240 / 50);
  EXPECT_GT(tinted, object / 2) << "the ghost tints the object";
  EXPECT_LT(opaque, object / 20) << "the ghost lets the object through";
  EXPECT_LT(outside, object / 10) << "at rest the ghost lies on the object";
}

TEST_F(OsgHeadless, ErrorColouringOfAMethodAgainstItselfIsTheZeroColour) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  // Non-zero colours (the hues after blue: r > b or g > b) on object pixels.
  auto hot_pixels = [](const osg::Image& im) {
    long hot = 0;
    for (int y = 0; y < im.t(); ++y)
      for (int x = 0; x < im.s(); ++x) {
        const osg::Vec4 c = im.getColor(x, y);
        if (is_object(c) && (c.r() > c.b() + 0.02f || c.g() > c.b() + 0.02f)) ++hot;
      }
    return hot;
  };
  const std::string pulled =
      "--size 320x240 --plain --no-hud --no-fixed --run.loads= --frames 10 "
      "--steps-per-frame 2 --pull 157 '10 0 0' --screenshot ";
  const fs::path self = dir() / "self.png", moved = dir() / "moved.png";
  ASSERT_EQ(view(pulled + "'" + self.string() + "' --compare inertia,inertia --colour error"), 0)
      << log();
  // The same pull coloured by displacement: the tip turns red, so the test sees colours.
  ASSERT_EQ(view(pulled + "'" + moved.string() +
                 "' --colour displacement --coupling.plugin="
                 "inertia"),
            0)
      << log();
  const auto a = read_screenshot(self), b = read_screenshot(moved);
  ASSERT_TRUE(a.valid() && b.valid());
  const long object = object_pixels(*a, 0, 160);
  EXPECT_GT(object, 160 * 240 / 50);
  EXPECT_EQ(hot_pixels(*a), 0) << "an error of zero everywhere";
  EXPECT_GT(hot_pixels(*b), 100) << "the displacement colours of the same motion";
}

TEST_F(OsgHeadless, RecordingHasOneVideoFramePerFrame) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  if (!on_path("ffmpeg") || !on_path("ffprobe"))
    GTEST_SKIP() << "ffmpeg is not installed (Debian package ffmpeg)";
  const fs::path video = dir() / "videos" / "beam.mp4";
  ASSERT_EQ(view("--size 322x242 --frames 12 --steps-per-frame 2 --pull 157 '10 0 0' --record '" +
                 video.string() + "'"),
            0)
      << log();
  EXPECT_NE(log().find("13 frames at 50 frames/s"), std::string::npos) << log();
  ASSERT_TRUE(fs::exists(video));
  EXPECT_FALSE(fs::exists(dir() / "videos" / ".beam.mp4.partial"));
  const fs::path probe = dir() / "probe.txt";
  ASSERT_EQ(std::system(("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                         "stream=nb_read_frames,width,height -of csv=p=0 '" +
                         video.string() + "' >'" + probe.string() + "' 2>&1")
                            .c_str()),
            0)
      << read(probe);
  EXPECT_EQ(read(probe), "322,242,13\n");
  // No ffmpeg: a clear error before anything loads (no display needed), and no video.
  const fs::path none = dir() / "none.mp4";
  EXPECT_EQ(view("--frames 1 --record '" + none.string() + "'", "env PATH=/nonexistent "), 1)
      << log();
  EXPECT_NE(log().find("--record needs ffmpeg"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(none));
}

TEST_F(OsgHeadless, InteractiveComparisonRecordsUntilCtrlC) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)";
  if (!on_path("ffmpeg") || !on_path("ffprobe"))
    GTEST_SKIP() << "ffmpeg is not installed (Debian package ffmpeg)";
  // A window (no headless option) comparing two methods with a ghost, recording; Ctrl-C once
  // both methods are loaded and a second has passed: the video is finished and complete.
  const fs::path video = dir() / "live.mp4", script = dir() / "live.sh", status = dir() / "rc";
  log_ = dir() / "log.txt";
  {
    std::ofstream out(script);
    out << "'" << SUBSTRUCT_CLI << "' view '" << SUBSTRUCT_SOURCE_DIR
        << "/share/scenes/beam.ini' --run.exporters= --run.cache_dir='"
        << (dir() / "cache").string()
        << "' --size 320x240 --compare full,inertia --ghost full --colour error --record '"
        << video.string() << "' >'" << log_.string() << "' 2>&1 &\n"
        << "pid=$!\n"
        << "for i in $(seq 300); do grep -q '^running    full, inertia' '" << log_.string()
        << "' && break; sleep 0.1; done\n"
        << "sleep 1; kill -INT $pid; wait $pid; echo $? >'" << status.string() << "'\n";
  }
  ASSERT_EQ(
      std::system(("xvfb-run -a -s '-screen 0 640x480x24' bash '" + script.string() + "'").c_str()),
      0);
  EXPECT_EQ(read(status), "130\n") << read(log_);
  ASSERT_TRUE(fs::exists(video)) << read(log_);
  EXPECT_FALSE(fs::exists(dir() / ".live.mp4.partial"));
  const std::regex frames(R"(video +\S+ \(([0-9]+) frames\))");
  std::smatch m;
  const std::string out = read(log_);
  ASSERT_TRUE(std::regex_search(out, m, frames)) << out;
  EXPECT_GT(std::stol(m[1]), 0);
  const fs::path probe = dir() / "probe.txt";
  ASSERT_EQ(std::system(("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                         "stream=nb_read_frames -of csv=p=0 '" +
                         video.string() + "' >'" + probe.string() + "' 2>&1")
                            .c_str()),
            0)
      << read(probe);
  EXPECT_EQ(read(probe), std::string(m[1]) + "\n");
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
