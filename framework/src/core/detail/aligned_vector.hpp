// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Vectors of doubles aligned to a cache line, for the workspaces and coefficient arrays of the
// vectorised kernels.
#include <cstddef>
#include <new>
#include <vector>

namespace substruct::detail {

/// Storage aligned to 64 bytes (a cache line).
template <class T>
struct CacheAligned {
  using value_type = T;
  CacheAligned() = default;
  template <class U>
  CacheAligned(const CacheAligned<U>&) {}
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{64}));
  }
  void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{64}); }
  template <class U>
  bool operator==(const CacheAligned<U>&) const {
    return true;
  }
};
using AlignedVector = std::vector<double, CacheAligned<double>>;

}  // namespace substruct::detail
