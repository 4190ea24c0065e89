// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// --record FILE.mp4: the rendered frames piped raw into ffmpeg (Debian package ffmpeg), H.264 in
// an MP4 at the simulation's own rate (one frame per steps × dt seconds). The video is written
// beside FILE under a temporary name and takes FILE's name only when ffmpeg has finished it: an
// interrupted or failed recording leaves no file that looks complete.
#include <cstdio>
#include <filesystem>

#include <osg/Image>

namespace substruct::viewer {

class VideoRecorder {
 public:
  /// Throws Error when ffmpeg is not on the PATH (checked before anything loads).
  static void check_available();
  /// Starts ffmpeg for width × height frames at `fps`; throws Error when ffmpeg is missing.
  VideoRecorder(const std::filesystem::path& file, int width, int height, double fps);
  ~VideoRecorder();  // without finish(): the partial video is removed
  VideoRecorder(const VideoRecorder&) = delete;
  VideoRecorder& operator=(const VideoRecorder&) = delete;

  /// Appends a frame read back from the window (RGB, bottom row first).
  void add(const osg::Image& image);
  long frames() const { return frames_; }
  /// Closes the video and gives it its name; throws Error (naming ffmpeg's status) on failure.
  void finish();

 private:
  std::filesystem::path file_, partial_;
  std::FILE* pipe_ = nullptr;
  int width_, height_;
  long frames_ = 0;
};

}  // namespace substruct::viewer
