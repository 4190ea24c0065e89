// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

namespace {

/// What a stat mode is, in words, when it is not a regular file; empty for a regular file.
const char* kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// A descriptor closed on every path out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

/// Opens `file` for reading without blocking (a FIFO with no writer would block open()) and
/// refuses anything but a regular file.
Descriptor open_regular(const std::filesystem::path& file, std::string_view what) {
  Descriptor d{::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (d.fd < 0) {
    const int error = errno;
    // A socket cannot be opened at all (ENXIO): say what it is rather than why open failed.
    if (const std::string kind = non_regular_kind(file); !kind.empty())
      throw Error(fmt::format("cannot read {} '{}': it is {}", what, file.string(), kind));
    throw Error(fmt::format("cannot open {} '{}': {}", what, file.string(), std::strerror(error)));
  }
  struct stat st {};
  if (::fstat(d.fd, &st) != 0)
    throw Error(fmt::format("cannot read {} '{}': {}", what, file.string(), std::strerror(errno)));
  if (const std::string_view kind = kind_of(st.st_mode); !kind.empty())
    throw Error(fmt::format("cannot read {} '{}': it is {}", what, file.string(), kind));
  return d;
}

}  // namespace

std::string non_regular_kind(const std::filesystem::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return "";
  return kind_of(st.st_mode);
}

void require_input_file(const std::filesystem::path& file, std::string_view what) {
  open_regular(file, what);
}

std::string read_input_file(const std::filesystem::path& file, std::string_view what) {
  const Descriptor d = open_regular(file, what);
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(d.fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(
          fmt::format("cannot read {} '{}': {}", what, file.string(), std::strerror(errno)));
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace substruct
