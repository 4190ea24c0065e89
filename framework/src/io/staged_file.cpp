#include "substruct/io/staged_file.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

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

}  // namespace

StagedFile::StagedFile(fs::path target)
    : target_(std::move(target)), temporary_(temporary_for(target_)) {
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
}

void StagedFile::remove_temporary() noexcept {
  if (out_.is_open()) out_.close();
  std::error_code ignored;
  fs::remove(temporary_, ignored);
}

void write_file_atomically(const fs::path& target,
                           const std::function<void(std::ostream&)>& write) {
  StagedFile file(target);
  write(file.stream());
  file.commit();
}

void write_file_atomically(const fs::path& target, std::string_view text) {
  write_file_atomically(target, [text](std::ostream& out) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  });
}

}  // namespace substruct
