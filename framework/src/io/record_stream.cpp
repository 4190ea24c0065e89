// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/io/record_stream.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/io/checked_record.hpp"
#include "substruct/io/staged_file.hpp"

namespace substruct {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kHeaderSize = 40;  // io/checked_record.hpp
constexpr std::uint32_t kStored = 0, kPlanesDeflated = 1;

std::uint32_t u32_at(const char* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}
std::uint64_t u64_at(const char* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

/// Byte k of word w goes to k·W + w (W whole 8-byte words); the bytes after them stay last.
std::string to_planes(std::string_view bytes) {
  const std::size_t words = bytes.size() / 8;
  std::string out(bytes.size(), '\0');
  for (std::size_t w = 0; w < words; ++w)
    for (std::size_t k = 0; k < 8; ++k) out[k * words + w] = bytes[8 * w + k];
  std::copy(bytes.begin() + static_cast<std::ptrdiff_t>(8 * words), bytes.end(),
            out.begin() + static_cast<std::ptrdiff_t>(8 * words));
  return out;
}

std::string from_planes(std::string_view planes) {
  const std::size_t words = planes.size() / 8;
  std::string out(planes.size(), '\0');
  for (std::size_t w = 0; w < words; ++w)
    for (std::size_t k = 0; k < 8; ++k) out[8 * w + k] = planes[k * words + w];
  std::copy(planes.begin() + static_cast<std::ptrdiff_t>(8 * words), planes.end(),
            out.begin() + static_cast<std::ptrdiff_t>(8 * words));
  return out;
}

}  // namespace

std::string pack_record_payload(std::string_view bytes, int level) {
  RecordWriter w;
  w.u64(bytes.size());
  if (level <= 0) {
    w.u32(kStored);
    w.u32(0);
    w.bytes() += bytes;
    return std::move(w.bytes());
  }
  w.u32(kPlanesDeflated);
  w.u32(0);
  const std::string planes = to_planes(bytes);
  uLongf packed_size = compressBound(static_cast<uLong>(planes.size()));
  std::string& out = w.bytes();
  const std::size_t at = out.size();
  out.resize(at + packed_size);
  const int status = compress2(reinterpret_cast<Bytef*>(out.data() + at), &packed_size,
                               reinterpret_cast<const Bytef*>(planes.data()),
                               static_cast<uLong>(planes.size()), std::min(level, 9));
  if (status != Z_OK) throw Error(fmt::format("zlib could not compress a record ({})", status));
  out.resize(at + packed_size);
  return std::move(out);
}

std::string unpack_record_payload(std::string_view packed) {
  RecordReader r(packed);
  const std::uint64_t size = r.u64();
  const std::uint32_t codec = r.u32();
  r.u32();
  const std::string_view stored = packed.substr(16);
  if (codec == kStored) {
    if (stored.size() != size)
      throw Error(fmt::format("corrupt: {} stored bytes, {} expected", stored.size(), size));
    return std::string(stored);
  }
  if (codec != kPlanesDeflated) throw Error(fmt::format("corrupt: unknown codec {}", codec));
  // A deflated stream expands at most about 1032 times: a larger claim is corrupt, not a
  // reason to allocate it.
  if (size > std::numeric_limits<uLong>::max() || size / 1100 > stored.size() + 1)
    throw Error(fmt::format("corrupt: {} bytes claimed from {} compressed", size, stored.size()));
  std::string planes(size, '\0');
  uLongf out_size = static_cast<uLongf>(size);
  const int status =
      uncompress(reinterpret_cast<Bytef*>(planes.data()), &out_size,
                 reinterpret_cast<const Bytef*>(stored.data()), static_cast<uLong>(stored.size()));
  if (status != Z_OK || out_size != size)
    throw Error(fmt::format("corrupt: the compressed bytes do not unpack (zlib {})", status));
  return from_planes(planes);
}

RecordStreamWriter::RecordStreamWriter(const fs::path& file, std::uint32_t version, int level)
    : file_(std::make_unique<StagedFile>(file)), version_(version), level_(level) {}

RecordStreamWriter::~RecordStreamWriter() = default;

std::size_t RecordStreamWriter::append(std::string_view magic, std::uint64_t hash,
                                       std::string_view bytes) {
  if (!file_) throw Error("a record appended after commit()");
  const std::string record =
      encode_checked_record(magic, version_, hash, pack_record_payload(bytes, level_));
  file_->stream().write(record.data(), static_cast<std::streamsize>(record.size()));
  if (!file_->stream())
    throw Error(fmt::format("cannot write '{}' (disk full?)", file_->target().string()));
  size_ += record.size();
  return record.size();
}

void RecordStreamWriter::commit() {
  if (!file_) return;
  file_->commit();
  file_.reset();
}

RecordStreamReader::RecordStreamReader(const fs::path& file, std::string what)
    : path_(file), what_(std::move(what)) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) throw Error(fmt::format("{}no such file", where()));
  in_.open(file, std::ios::binary);
  if (!in_) throw Error(fmt::format("{}cannot be opened", where()));
  const std::uint64_t total = fs::file_size(file, ec);
  if (ec) throw Error(fmt::format("{}cannot be read: {}", where(), ec.message()));
  std::uint64_t at = 0;
  char header[kHeaderSize];
  while (at < total) {
    const std::size_t i = entries_.size();
    if (total - at < kHeaderSize)
      throw Error(fmt::format("{}truncated: record {} has {} of its {}-byte header", where(), i,
                              total - at, kHeaderSize));
    in_.seekg(static_cast<std::streamoff>(at));
    in_.read(header, kHeaderSize);
    if (!in_) throw Error(fmt::format("{}cannot be read at byte {}", where(), at));
    const std::uint64_t payload = u64_at(header + 24);
    if (u32_at(header + 12) != kHeaderSize)
      throw Error(
          fmt::format("{}corrupt: record {} (at byte {}) has no valid header", where(), i, at));
    if (payload > total - at - kHeaderSize)
      throw Error(fmt::format("{}truncated: record {} has {} of its {} bytes", where(), i,
                              total - at - kHeaderSize, payload));
    if (i == 0) version_ = u32_at(header + 8);
    entries_.push_back({std::string(header, 8), at, kHeaderSize + payload});
    checksums_.push_back(u64_at(header + 32));
    at += kHeaderSize + payload;
  }
  if (entries_.empty()) throw Error(fmt::format("{}empty", where()));
}

std::string RecordStreamReader::where() const {
  return fmt::format("{} '{}': ", what_, path_.string());
}

std::string RecordStreamReader::read(std::size_t i, std::string_view magic, std::uint64_t hash) {
  if (i >= entries_.size()) throw Error(fmt::format("{}has no record {}", where(), i));
  const Entry& e = entries_[i];
  std::string bytes(e.size, '\0');
  in_.clear();
  in_.seekg(static_cast<std::streamoff>(e.offset));
  in_.read(bytes.data(), static_cast<std::streamsize>(e.size));
  if (!in_) throw Error(fmt::format("{}cannot read record {}", where(), i));
  try {
    return unpack_record_payload(decode_checked_record(
        bytes, magic, fmt::format("record of this kind ({})", magic), version_, hash));
  } catch (const Error& error) {
    throw Error(fmt::format("{}record {}: {}", where(), i, error.what()));
  }
}

}  // namespace substruct
