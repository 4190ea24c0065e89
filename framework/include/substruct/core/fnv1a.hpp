// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// FNV-1a, 64 bit (Fowler–Noll–Vo): the hash of cache keys and the checksum of cache files.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace substruct {

/// h ← (h ⊕ byte) · 1099511628211 from 14695981039346656037. Numbers are hashed as their
/// little-endian bytes (doubles bit for bit), so a hash is the same on every machine.
class Fnv1a {
 public:
  void add_bytes(const void* data, std::size_t size);
  void add_u64(std::uint64_t value);
  void add_i64(std::int64_t value) { add_u64(static_cast<std::uint64_t>(value)); }
  void add_f64(double value);
  /// Its length, then its bytes (so "ab","c" and "a","bc" differ).
  void add_string(std::string_view text);
  std::uint64_t digest() const { return h_; }

 private:
  std::uint64_t h_ = 14695981039346656037ull;
};

}  // namespace substruct
