// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/fnv1a.hpp"

#include <bit>

namespace substruct {

void Fnv1a::add_bytes(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    h_ ^= bytes[i];
    h_ *= 1099511628211ull;
  }
}

void Fnv1a::add_u64(std::uint64_t value) {
  unsigned char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(value >> (8 * i));
  add_bytes(bytes, 8);
}

void Fnv1a::add_f64(double value) {
  add_u64(std::bit_cast<std::uint64_t>(value));
}

void Fnv1a::add_string(std::string_view text) {
  add_u64(text.size());
  add_bytes(text.data(), text.size());
}

}  // namespace substruct
