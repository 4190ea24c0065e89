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

void write_png(const osg::Image& image, const std::filesystem::path& file) {
  namespace fs = std::filesystem;
  if (file.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    if (ec)
      throw Error(fmt::format("cannot create the folder {}: {}", file.parent_path().string(),
                              ec.message()));
  }
  if (!osgDB::writeImageFile(image, file.string()))
    throw Error(fmt::format(
        "cannot write {} (is OpenSceneGraph's png plugin, osgdb_png, installed?)", file.string()));
}

}  // namespace substruct::viewer
