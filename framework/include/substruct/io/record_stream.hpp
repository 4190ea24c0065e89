// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A file of records appended one after another, each a checked record (io/checked_record.hpp:
/// magic, version, a hash tying it to the file's first record, payload size and checksum) whose
/// payload is compressed: [u64 size of the bytes][u32 codec][u32 0][stored bytes], codec 0 the
/// bytes as they are, 1 zlib's deflate of the bytes split into byte planes (byte k of every
/// 8-byte word together, then the rest: doubles compress far better so). The writer goes through
/// a StagedFile, so the file appears complete or not at all; the reader indexes the records by
/// their headers when it opens the file (a truncated file is refused there) and checks each one's
/// checksum when it is read.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace substruct {

class StagedFile;

/// `bytes` split into byte planes and deflated at zlib `level` (0–9; 0 stores them as they are).
std::string pack_record_payload(std::string_view bytes, int level);
/// The bytes pack_record_payload() packed; Error "corrupt: …" when they do not unpack.
std::string unpack_record_payload(std::string_view packed);

class RecordStreamWriter {
 public:
  /// Starts `file` (through a StagedFile: nothing is published before commit()); `version` is
  /// the format version every record carries; zlib `level` 0–9.
  RecordStreamWriter(const std::filesystem::path& file, std::uint32_t version, int level);
  ~RecordStreamWriter();
  RecordStreamWriter(const RecordStreamWriter&) = delete;
  RecordStreamWriter& operator=(const RecordStreamWriter&) = delete;

  /// Appends a record of `magic` (8 characters) holding `bytes`, packed; returns its size on
  /// disk. Every record carries `hash` (e.g. the first record's checksum).
  std::size_t append(std::string_view magic, std::uint64_t hash, std::string_view bytes);
  /// Flushes the file to disk and publishes it. Without it the destructor discards it.
  void commit();
  /// Bytes appended so far.
  std::uint64_t size() const { return size_; }

 private:
  std::unique_ptr<StagedFile> file_;
  std::uint32_t version_;
  int level_;
  std::uint64_t size_ = 0;
};

class RecordStreamReader {
 public:
  struct Entry {
    std::string magic;
    std::uint64_t offset = 0;  // of its header
    std::uint64_t size = 0;    // header and payload
  };

  /// Opens `file` and indexes its records; `what` names the kind of file in messages ("the
  /// recording"). Throws Error "WHAT 'FILE': truncated: …" when a record is cut short.
  RecordStreamReader(const std::filesystem::path& file, std::string what);

  const std::vector<Entry>& entries() const { return entries_; }
  /// The unpacked bytes of record `i`, checked for `magic`, the reader's version and `hash`;
  /// Error "WHAT 'FILE': record I: …" (wrong magic, other version or inputs, corrupt) otherwise.
  std::string read(std::size_t i, std::string_view magic, std::uint64_t hash);
  /// The version the first record has (what read() expects of every record).
  std::uint32_t version() const { return version_; }
  /// The checksum of record i's stored payload, as its header says (for the hash of the others).
  std::uint64_t checksum(std::size_t i) const { return checksums_[i]; }
  const std::filesystem::path& file() const { return path_; }
  /// "WHAT 'FILE': " for messages.
  std::string where() const;

 private:
  std::filesystem::path path_;
  std::string what_;
  std::ifstream in_;
  std::vector<Entry> entries_;
  std::vector<std::uint64_t> checksums_;
  std::uint32_t version_ = 0;
};

}  // namespace substruct
