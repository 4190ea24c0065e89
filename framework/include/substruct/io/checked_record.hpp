// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The file format of precomputed data in the cache (reduced models, DDM force–displacement
/// data): a fixed header that says what the file is, which inputs it was made from and how long
/// and what checksum its payload has, so a stale, truncated or corrupt file is never trusted.
///
/// Header (40 bytes): 8-byte magic, u32 format version, u32 header size (40), u64 inputs hash,
/// u64 payload size, u64 FNV-1a checksum of the payload. Numbers little-endian.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace substruct {

/// Appends little-endian numbers to a byte string.
class RecordWriter {
 public:
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void f64(double v);
  void f64s(const double* v, std::size_t n);
  void f32s(const float* v, std::size_t n);
  /// Its length, then its bytes.
  void string(std::string_view s);
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

/// Reads what RecordWriter wrote; a read past the end throws Error ("malformed: …").
class RecordReader {
 public:
  explicit RecordReader(std::string_view bytes) : bytes_(bytes) {}
  std::uint32_t u32();
  std::uint64_t u64();
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  double f64();
  /// A count of items of `item_bytes` each that must fit in what is left.
  std::size_t count(std::size_t item_bytes);
  void f64s(double* v, std::size_t n);
  void f32s(float* v, std::size_t n);
  std::string string();
  std::size_t left() const { return bytes_.size() - at_; }

 private:
  const unsigned char* take(std::size_t n);
  std::string_view bytes_;
  std::size_t at_ = 0;
};

/// Header + payload. `magic` has 8 characters.
std::string encode_checked_record(std::string_view magic, std::uint32_t version,
                                  std::uint64_t inputs_hash, std::string_view payload);

/// The payload of `bytes`, checked first. Throws Error saying why it is rejected: "not a `what`
/// (wrong magic)", "format version V, expected W", "built from other inputs" (hash),
/// "truncated" / "trailing bytes" (payload size) or "corrupt" (checksum).
std::string_view decode_checked_record(std::string_view bytes, std::string_view magic,
                                       std::string_view what, std::uint32_t version,
                                       std::uint64_t expected_hash);

/// The bytes of `file`; throws Error naming it (as "the `what` FILE") when it cannot be read.
std::string read_file_bytes(const std::filesystem::path& file, std::string_view what);

}  // namespace substruct
