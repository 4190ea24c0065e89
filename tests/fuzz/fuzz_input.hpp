// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the fuzz harnesses share: the input as a file (the readers take paths), and the input as
// a cache record whose header is made consistent (size and checksum) so that the fuzzer reaches
// the payload decoders instead of stopping at the checksum.
//
// A harness calls the reader and lets only substruct::Error pass: any other exception (a
// std::bad_alloc from a size read before it was checked, an std::out_of_range…) or a crash is
// a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "../support/scoped_dir.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/fnv1a.hpp"

namespace substruct::fuzz {

/// The input written to a file NAME in this process's own folder (rewritten on each call).
inline std::filesystem::path input_file(const std::string& name, const std::uint8_t* data,
                                        std::size_t size) {
  // This process's own folder under the system's temporary folder, removed with what it holds
  // when the process exits normally.
  static const testing::ScopedDir dir(std::filesystem::temp_directory_path() /
                                      ("substruct-fuzz-" + std::to_string(::getpid())));
  const std::filesystem::path file = dir / name;
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return file;
}

/// The input with its 40-byte cache-record header (io/checked_record.hpp) given the payload's
/// true size and checksum; `hash` receives the inputs hash it claims. Shorter inputs unchanged.
inline std::string consistent_record(const std::uint8_t* data, std::size_t size,
                                     std::uint64_t& hash) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  hash = 0;
  if (bytes.size() < 40) return bytes;
  const auto put = [&](std::size_t at, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes[at + i] = static_cast<char>(v >> (8 * i));
  };
  for (int i = 0; i < 8; ++i)
    hash |= std::uint64_t(static_cast<unsigned char>(bytes[16 + i])) << (8 * i);
  put(24, bytes.size() - 40);
  Fnv1a h;
  h.add_bytes(bytes.data() + 40, bytes.size() - 40);
  put(32, h.digest());
  return bytes;
}

/// Calls decode(bytes, hash) on the input as it comes and on its consistent_record(), letting
/// only substruct::Error through.
template <class Decode>
void decode_record(const std::uint8_t* data, std::size_t size, Decode&& decode) {
  std::uint64_t hash = 0;
  const std::string record = consistent_record(data, size, hash);
  for (std::string_view bytes :
       {std::string_view(reinterpret_cast<const char*>(data), size), std::string_view(record)}) {
    try {
      decode(bytes, hash);
    } catch (const Error&) {
    }
  }
}

}  // namespace substruct::fuzz
