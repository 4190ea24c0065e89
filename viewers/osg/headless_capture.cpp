// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless_capture.hpp"

#include <fmt/format.h>
#include <osgDB/WriteFile>

#include "substruct/core/error.hpp"

namespace substruct::viewer {

void FrameCapture::operator()(osg::RenderInfo& /*info*/) const {
  if (!armed_) return;
  image_->readPixels(0, 0, width_, height_, GL_RGB, GL_UNSIGNED_BYTE);
  armed_ = false;
  captured_ = true;
}

void create_parent_folder(const std::filesystem::path& file) {
  if (!file.has_parent_path()) return;
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  if (ec)
    throw Error(
        fmt::format("cannot create the folder {}: {}", file.parent_path().string(), ec.message()));
}

void write_png(const osg::Image& image, const std::filesystem::path& file) {
  namespace fs = std::filesystem;
  create_parent_folder(file);
  // Written under a temporary name (still .png for osgDB's plugin choice), then renamed: an
  // interrupted run leaves no image that looks complete.
  const fs::path partial =
      file.parent_path() / fmt::format(".{}.partial.png", file.stem().string());
  if (!osgDB::writeImageFile(image, partial.string())) {
    std::error_code ec;
    fs::remove(partial, ec);
    throw Error(fmt::format(
        "cannot write {} (is OpenSceneGraph's png plugin, osgdb_png, installed?)", file.string()));
  }
  std::error_code ec;
  fs::rename(partial, file, ec);
  if (ec) {
    fs::remove(partial, ec);
    throw Error(fmt::format("cannot write {}: {}", file.string(), ec.message()));
  }
}

}  // namespace substruct::viewer
