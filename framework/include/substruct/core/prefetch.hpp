// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Asking for memory ahead of its use: a large tree's per-domain data (states, vertex lists) does
/// not stay in the cache from one step to the next, and each small domain's arrays would
/// otherwise be cache misses on the way to its work.
#include <cstdint>

namespace substruct {

/// Asks for the cache lines of [begin, end) to be fetched, for writing where `write`.
inline void prefetch_lines(const void* begin, const void* end, bool write) {
  constexpr std::uintptr_t line = 64;
  const auto first = reinterpret_cast<std::uintptr_t>(begin) & ~(line - 1);
  for (std::uintptr_t a = first; a < reinterpret_cast<std::uintptr_t>(end); a += line)
    if (write)  // (__builtin_prefetch needs a constant)
      __builtin_prefetch(reinterpret_cast<const void*>(a), 1);
    else
      __builtin_prefetch(reinterpret_cast<const void*>(a), 0);
}

}  // namespace substruct
