// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Headless frames: reads the rendered image back after the camera draws (a final-draw callback)
// and writes it as PNG through osgDB's png plugin.
#include <filesystem>

#include <osg/Camera>
#include <osg/Image>
#include <osg/ref_ptr>

namespace substruct::viewer {

class FrameCapture final : public osg::Camera::DrawCallback {
 public:
  FrameCapture(int width, int height) : width_(width), height_(height), image_(new osg::Image) {}
  /// The next drawn frame is read back into image().
  void arm() { armed_ = true; }
  bool captured() const { return captured_; }
  const osg::Image& image() const { return *image_; }
  void operator()(osg::RenderInfo& info) const override;

 private:
  int width_, height_;
  osg::ref_ptr<osg::Image> image_;
  mutable bool armed_ = false;
  mutable bool captured_ = false;
};

/// Creates the folder `file` goes into (throws Error naming it when it cannot).
void create_parent_folder(const std::filesystem::path& file);

/// Writes `image` to `file` (PNG) whole: under a temporary name, then renamed; throws Error naming
/// the file on failure.
void write_png(const osg::Image& image, const std::filesystem::path& file);

}  // namespace substruct::viewer
