// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/io/checked_record.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/fnv1a.hpp"
#include "substruct/core/input_file.hpp"

namespace substruct {

namespace {

constexpr std::size_t kHeaderSize = 40;

std::uint64_t checksum(std::string_view bytes) {
  Fnv1a h;
  h.add_bytes(bytes.data(), bytes.size());
  return h.digest();
}

}  // namespace

void RecordWriter::u32(std::uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<char>(v >> (8 * i)));
}
void RecordWriter::u64(std::uint64_t v) {
  for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<char>(v >> (8 * i)));
}
void RecordWriter::f64(double v) {
  u64(std::bit_cast<std::uint64_t>(v));
}
void RecordWriter::f64s(const double* v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) f64(v[i]);
}
void RecordWriter::f32s(const float* v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) u32(std::bit_cast<std::uint32_t>(v[i]));
}
void RecordWriter::string(std::string_view s) {
  u64(s.size());
  bytes_.append(s);
}

const unsigned char* RecordReader::take(std::size_t n) {
  if (n > left()) throw Error("malformed: the payload ends inside a record");
  const auto* p = reinterpret_cast<const unsigned char*>(bytes_.data() + at_);
  at_ += n;
  return p;
}
std::uint32_t RecordReader::u32() {
  const unsigned char* p = take(4);
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t{p[i]} << (8 * i);
  return v;
}
std::uint64_t RecordReader::u64() {
  const unsigned char* p = take(8);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}
double RecordReader::f64() {
  return std::bit_cast<double>(u64());
}
std::size_t RecordReader::count(std::size_t item_bytes) {
  const std::uint64_t n = u64();
  if (item_bytes > 0 && n > left() / item_bytes)
    throw Error(fmt::format("malformed: a count of {} items does not fit the file", n));
  return static_cast<std::size_t>(n);
}
void RecordReader::f64s(double* v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) v[i] = f64();
}
void RecordReader::f32s(float* v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) v[i] = std::bit_cast<float>(u32());
}
std::string RecordReader::string() {
  const std::size_t n = count(1);
  return std::string(reinterpret_cast<const char*>(take(n)), n);
}

std::string encode_checked_record(std::string_view magic, std::uint32_t version,
                                  std::uint64_t inputs_hash, std::string_view payload) {
  RecordWriter w;
  w.bytes().append(magic.substr(0, 8));
  w.u32(version);
  w.u32(static_cast<std::uint32_t>(kHeaderSize));
  w.u64(inputs_hash);
  w.u64(payload.size());
  w.u64(checksum(payload));
  w.bytes() += payload;
  return std::move(w.bytes());
}

std::string_view decode_checked_record(std::string_view bytes, std::string_view magic,
                                       std::string_view what, std::uint32_t version,
                                       std::uint64_t expected_hash) {
  const std::size_t magic_bytes = std::min(bytes.size(), magic.size());
  if (!std::equal(magic.begin(), magic.begin() + static_cast<std::ptrdiff_t>(magic_bytes),
                  bytes.begin()))
    throw Error(fmt::format("not a {} (wrong magic)", what));
  if (bytes.size() < kHeaderSize)
    throw Error(fmt::format("truncated: {} bytes, shorter than the {}-byte header", bytes.size(),
                            kHeaderSize));
  RecordReader header(bytes.substr(magic.size(), kHeaderSize - magic.size()));
  const std::uint32_t found_version = header.u32();
  const std::uint32_t header_size = header.u32();
  const std::uint64_t hash = header.u64();
  const std::uint64_t payload_size = header.u64();
  const std::uint64_t payload_checksum = header.u64();
  if (found_version != version)
    throw Error(fmt::format("format version {}, expected {}", found_version, version));
  if (header_size != kHeaderSize)
    throw Error(fmt::format("corrupt: header size {}, expected {}", header_size, kHeaderSize));
  if (hash != expected_hash)
    throw Error(fmt::format("built from other inputs (hash {:016x}, expected {:016x})", hash,
                            expected_hash));
  const std::string_view payload = bytes.substr(kHeaderSize);
  if (payload.size() < payload_size)
    throw Error(fmt::format("truncated: {} of {} payload bytes", payload.size(), payload_size));
  if (payload.size() > payload_size)
    throw Error(fmt::format("corrupt: {} trailing bytes after the {}-byte payload",
                            payload.size() - payload_size, payload_size));
  if (checksum(payload) != payload_checksum)
    throw Error("corrupt: the payload checksum does not match");
  return payload;
}

std::string read_file_bytes(const std::filesystem::path& file, std::string_view what) {
  return read_input_file(file, what);
}

}  // namespace substruct
