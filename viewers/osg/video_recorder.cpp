// SPDX-License-Identifier: GPL-3.0-or-later
#include "video_recorder.hpp"

#include <sys/wait.h>
#include <csignal>
#include <cstdlib>

#include <fmt/format.h>

#include "headless_capture.hpp"
#include "substruct/core/error.hpp"

namespace substruct::viewer {

namespace fs = std::filesystem;

namespace {

std::string quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

void VideoRecorder::check_available() {
  if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0)
    throw Error("--record needs ffmpeg on the PATH (Debian package ffmpeg)");
}

VideoRecorder::VideoRecorder(const fs::path& file, int width, int height, double fps)
    : file_(file), width_(width), height_(height) {
  check_available();
  create_parent_folder(file);
  partial_ = file.parent_path() / fmt::format(".{}.partial", file.filename().string());
  // Frames arrive bottom row first: flipped; H.264 in 4:2:0 wants even sizes.
  const std::string command = fmt::format(
      "ffmpeg -loglevel error -nostdin -y -f rawvideo -pix_fmt rgb24 -s {}x{} -framerate {:.6g} "
      "-i - -vf 'vflip,scale=trunc(iw/2)*2:trunc(ih/2)*2' -c:v libx264 -preset veryfast "
      "-crf 23 -pix_fmt yuv420p -movflags +faststart -f mp4 {}",
      width, height, fps, quoted(partial_.string()));
  std::signal(SIGPIPE, SIG_IGN);  // a failing ffmpeg is reported by finish(), not a signal
  pipe_ = ::popen(command.c_str(), "w");
  if (pipe_ == nullptr) throw Error(fmt::format("cannot start ffmpeg for {}", file.string()));
}

VideoRecorder::~VideoRecorder() {
  if (pipe_ == nullptr) return;
  ::pclose(pipe_);
  std::error_code ec;
  fs::remove(partial_, ec);
}

void VideoRecorder::add(const osg::Image& image) {
  if (pipe_ == nullptr) return;
  if (image.s() != width_ || image.t() != height_)
    throw Error(fmt::format("--record: a frame of {}×{} in a {}×{} video", image.s(), image.t(),
                            width_, height_));
  const std::size_t row = static_cast<std::size_t>(width_) * 3;
  for (int y = 0; y < height_; ++y)
    if (std::fwrite(image.data(0, y), 1, row, pipe_) != row)
      throw Error(
          fmt::format("ffmpeg stopped taking frames for {} (frame {})", file_.string(), frames_));
  ++frames_;
}

void VideoRecorder::finish() {
  if (pipe_ == nullptr) return;
  const int status = ::pclose(pipe_);
  pipe_ = nullptr;
  std::error_code ec;
  if (status != 0) {
    fs::remove(partial_, ec);
    throw Error(fmt::format("ffmpeg could not write {} (exit status {})", file_.string(),
                            WIFEXITED(status) ? WEXITSTATUS(status) : status));
  }
  fs::rename(partial_, file_, ec);
  if (ec) {
    fs::remove(partial_, ec);
    throw Error(fmt::format("cannot write {}: {}", file_.string(), ec.message()));
  }
}

}  // namespace substruct::viewer
