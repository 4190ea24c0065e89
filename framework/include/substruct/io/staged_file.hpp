// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Writing a file so that it appears complete or not at all: the content goes to a temporary
/// file beside the target, which is flushed to disk (fsync) and renamed over the target once
/// everything is written, and the folder is flushed after the rename. Readers (ParaView, a second
/// run, the model cache) see the previous file or the new one, never half of it, even after a
/// crash of the machine; a failed or interrupted write leaves the previous file as it was.
///
///   write_file_atomically(file, [&](std::ostream& out) { out << header << body; });
///
///   StagedFile csv(file);       // for a file written over time
///   csv.stream() << row;        // …
///   csv.commit();               // without it the temporary file is removed
#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <string_view>

namespace substruct {

/// When a StagedFile's bytes must be on the disk: at close() (fsync, the default), or later, by
/// one sync_file_system() of the writer of many files (e.g. the frames of a series) before it
/// publishes them.
enum class Durability { fsync, deferred };

/// One file being written: an output stream on a temporary file that commit() renames to the
/// target. The temporary, `TARGET.<pid>.<n>.tmp` in the target's folder (so that the rename is
/// atomic), has a name no other thread or process writing there uses; those that processes no
/// longer running left (killed while writing) are removed when a process first writes a file
/// (Durability::fsync) into that folder.
/// Errors are Error naming the target.
class StagedFile {
 public:
  /// Creates the temporary file for `target`; its folder must exist.
  explicit StagedFile(std::filesystem::path target, Durability durability = Durability::fsync);
  /// Removes the temporary file unless commit() published it.
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  /// Where the content goes (binary: bytes are written as they are).
  std::ostream& stream() { return out_; }
  const std::filesystem::path& target() const { return target_; }
  const std::filesystem::path& temporary() const { return temporary_; }

  /// Flushes and closes the temporary file and waits for its bytes to reach the disk; throws when
  /// any write to it failed (disk full…).
  /// Afterwards the content is complete on disk but not yet published: what a caller that must
  /// publish several files together checks before replacing anything.
  void close();
  /// close(), then renames the temporary file to the target, replacing any file there. On
  /// failure nothing is published and the temporary file is removed.
  void commit();

 private:
  void remove_temporary() noexcept;

  std::filesystem::path target_;
  std::filesystem::path temporary_;
  std::ofstream out_;
  Durability durability_;
  bool committed_ = false;
};

/// Writes `target` through a StagedFile: `write` fills the stream, then it is committed. When
/// `write` throws, the target is left as it was and the exception passes on.
void write_file_atomically(const std::filesystem::path& target,
                           const std::function<void(std::ostream&)>& write,
                           Durability durability = Durability::fsync);
/// Writes `text` to `target` through a StagedFile.
void write_file_atomically(const std::filesystem::path& target, std::string_view text);

/// Waits until every file written on the file system that holds `path` is on the disk (syncfs):
/// one call for all the Durability::deferred files of a set, before publishing them. Throws
/// Error naming `path` on failure.
void sync_file_system(const std::filesystem::path& path);

}  // namespace substruct
