// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the headless viewer tests read off a screenshot: whether a program is on PATH, a PNG
// decoded, the pixels that show an object against the --plain clear colour (0.16 0.18 0.22), and
// the pixels that differ between two screenshots.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <osg/Image>
#include <osgDB/ReadFile>

namespace substruct::testing {

inline bool on_path(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

inline osg::ref_ptr<osg::Image> read_screenshot(const std::filesystem::path& file) {
  osg::ref_ptr<osg::Image> image = osgDB::readImageFile(file.string());
  EXPECT_TRUE(image.valid()) << "cannot decode " << file;
  return image;
}

/// A pixel unlike the --plain clear colour.
inline bool is_object(const osg::Vec4& c) {
  return std::abs(c.r() - 0.16f) + std::abs(c.g() - 0.18f) + std::abs(c.b() - 0.22f) > 0.06f;
}

/// The object's pixels in columns [x0, x1) (x1 < 0: to the right edge).
inline long object_pixels(const osg::Image& im, int x0 = 0, int x1 = -1) {
  long count = 0;
  for (int y = 0; y < im.t(); ++y)
    for (int x = x0; x < (x1 < 0 ? im.s() : x1); ++x)
      if (is_object(im.getColor(x, y))) ++count;
  return count;
}

/// The pixels whose colour differs between `a` and `b` (same size) by more than 0.1 in r + g + b.
inline long changed_pixels(const osg::Image& a, const osg::Image& b) {
  long count = 0;
  for (int y = 0; y < a.t(); ++y)
    for (int x = 0; x < a.s(); ++x) {
      const osg::Vec4 d = a.getColor(x, y) - b.getColor(x, y);
      if (std::abs(d.r()) + std::abs(d.g()) + std::abs(d.b()) > 0.1f) ++count;
    }
  return count;
}

}  // namespace substruct::testing
