// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/io/staged_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/io/output_target.hpp"

namespace substruct {

namespace fs = std::filesystem;

namespace {

/// TARGET.<pid>.<n>.tmp beside `target`: the process id tells processes apart, the counter the
/// files (and threads) of one process.
fs::path temporary_for(const fs::path& target) {
  static std::atomic<unsigned long> counter{0};
  fs::path temporary = target;
  temporary += fmt::format(".{}.{}.tmp", ::getpid(), counter++);
  return temporary;
}

/// Waits until the content of `path` (a file, or a folder's entries) is on the storage device,
/// not only in the system's cache, so that a crash of the machine after a rename never publishes
/// a file whose bytes were lost. Returns errno, 0 on success.
int sync_to_disk(const fs::path& path, bool folder) {
  const int fd = ::open(path.c_str(), folder ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) return errno;
  const int result = ::fsync(fd) == 0 ? 0 : errno;
  ::close(fd);
  // Some file systems cannot sync a folder (EINVAL): the rename is then as durable as they allow.
  return folder && result == EINVAL ? 0 : result;
}

/// Whether `name` is a temporary file NAME.<pid>.<n>.tmp of a process that no longer runs.
bool stale_temporary(const std::string& name) {
  if (!name.ends_with(".tmp")) return false;
  const std::string stem = name.substr(0, name.size() - 4);
  const auto counter = stem.rfind('.');
  if (counter == std::string::npos || counter == 0) return false;
  const auto pid_dot = stem.rfind('.', counter - 1);
  if (pid_dot == std::string::npos || pid_dot == 0) return false;
  const std::string pid_text = stem.substr(pid_dot + 1, counter - pid_dot - 1);
  const std::string count_text = stem.substr(counter + 1);
  const auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 9 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(pid_text) || !digits(count_text)) return false;
  const long pid = std::stol(pid_text);
  return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

/// Removes the temporary files that writers no longer running (killed while writing) left in
/// `target`'s folder, the first time this process writes a file there: a folder of 10⁵ cached
/// models is listed once, not once per file.
void remove_stale_temporaries(const fs::path& target) {
  static std::mutex mutex;
  static std::set<std::string> swept;
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!swept.insert(fs::absolute(folder).lexically_normal().string()).second) return;
  }
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec))
    if (stale_temporary(it->path().filename().string())) {
      std::error_code ignored;
      fs::remove(it->path(), ignored);
    }
}

}  // namespace

StagedFile::StagedFile(fs::path target, Durability durability)
    : target_(std::move(target)), temporary_(temporary_for(target_)), durability_(durability) {
  check_output_target(target_, "");  // never renamed over a device, a FIFO or a folder
  // Files written one at a time (not the frames of a series, which live in a staging folder
  // of their own) clear what killed writers left in their folder.
  if (durability_ == Durability::fsync) remove_stale_temporaries(target_);
  out_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!out_)
    throw Error(fmt::format("cannot write '{}': cannot create '{}': {}", target_.string(),
                            temporary_.string(), std::strerror(errno)));
}

StagedFile::~StagedFile() {
  if (!committed_) remove_temporary();
}

void StagedFile::close() {
  if (!out_.is_open()) return;
  out_.close();
  if (!out_) {
    remove_temporary();
    throw Error(fmt::format("cannot write '{}': writing '{}' failed (disk full?)", target_.string(),
                            temporary_.string()));
  }
  if (durability_ == Durability::deferred) return;
  if (const int error = sync_to_disk(temporary_, false); error != 0) {
    remove_temporary();
    throw Error(fmt::format("cannot write '{}': flushing '{}' to disk failed: {}", target_.string(),
                            temporary_.string(), std::strerror(error)));
  }
}

void StagedFile::commit() {
  if (committed_) return;
  close();
  std::error_code ec;
  fs::rename(temporary_, target_, ec);
  if (ec) {
    remove_temporary();
    throw Error(fmt::format("cannot write '{}': cannot rename '{}' to it: {}", target_.string(),
                            temporary_.string(), ec.message()));
  }
  committed_ = true;
  if (durability_ == Durability::deferred) return;
  // The rename itself reaches the disk with the folder's entries.
  const fs::path folder = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  if (const int error = sync_to_disk(folder, true); error != 0)
    throw Error(fmt::format("cannot write '{}': flushing its folder to disk failed: {}",
                            target_.string(), std::strerror(error)));
}

void StagedFile::remove_temporary() noexcept {
  if (out_.is_open()) out_.close();
  std::error_code ignored;
  fs::remove(temporary_, ignored);
}

void write_file_atomically(const fs::path& target, const std::function<void(std::ostream&)>& write,
                           Durability durability) {
  StagedFile file(target, durability);
  write(file.stream());
  file.commit();
}

void write_file_atomically(const fs::path& target, std::string_view text) {
  write_file_atomically(target, [text](std::ostream& out) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  });
}

void sync_file_system(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  const int error = fd < 0 ? errno : (::syncfs(fd) == 0 ? 0 : errno);
  if (fd >= 0) ::close(fd);
  if (error != 0)
    throw Error(fmt::format("cannot flush the files under '{}' to disk: {}", path.string(),
                            std::strerror(error)));
}

}  // namespace substruct
