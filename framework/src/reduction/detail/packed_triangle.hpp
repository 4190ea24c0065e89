#pragma once
// Packed upper triangles of symmetric index ranges, the storage of the reduced StVK polynomial.
//
// The triangle over [m, r)² holds row k (m ≤ k < r), the entries (k, l) for l = k…r−1, rows one
// after the other; so the triangle over [j, r)², j ≥ m, is its suffix from row j. In the padded
// form row k holds the columns 2⌊k/2⌋ … r₂−1 (r₂ = r rounded up to an even number), the entries
// outside k…r−1 zero: this keeps the suffix property, and in 16-byte aligned storage puts every
// column l at the same position in its pair in every row, so rows combine with each other and
// with vectors indexed by column in aligned pairs (and in groups of 4 with one pair left over).
#include <cstddef>
#include <new>
#include <vector>

namespace substruct::detail {

/// n(n+1)/2, the entries of an unpadded triangle over an index range of length n.
inline std::size_t triangle_size(int n) {
  const auto m = static_cast<std::size_t>(n);
  return m * (m + 1) / 2;
}

/// Where row k starts in the unpadded triangle over [m, r)²: Σ_{k'=m}^{k−1} (r − k').
inline std::size_t row_offset(int r, int m, int k) {
  return static_cast<std::size_t>(k - m) * static_cast<std::size_t>(2 * r - m - k + 1) / 2;
}

/// The padded rows of the triangles over [m, r)², 0 ≤ m ≤ r.
class PaddedTriangles {
 public:
  explicit PaddedTriangles(int r)
      : r_(r), start_(static_cast<std::size_t>(r) + 1, 0), nested_(start_) {
    for (int k = 0; k < r; ++k) start_[k + 1] = start_[k] + row_length(k);
    for (int m = 0; m < r; ++m) nested_[m + 1] = nested_[m] + size(m);
  }
  int r() const { return r_; }
  /// r rounded up to an even number.
  int padded_r() const { return (r_ + 1) & ~1; }
  /// The first column row k holds: 2⌊k/2⌋.
  static int first_column(int k) { return k & ~1; }
  /// Row k's length: padded_r() − first_column(k).
  std::size_t row_length(int k) const {
    return static_cast<std::size_t>(padded_r() - first_column(k));
  }
  /// Where row k starts in the triangle over [m, r)².
  std::size_t row(int m, int k) const { return start_[k] - start_[m]; }
  /// Where entry (k, l), l ≥ first_column(k), is in the triangle over [m, r)².
  std::size_t at(int m, int k, int l) const {
    return row(m, k) + static_cast<std::size_t>(l - first_column(k));
  }
  /// The size of the triangle over [m, r)².
  std::size_t size(int m) const { return start_[r_] - start_[m]; }
  /// Where the triangle over [m, r)² starts when those over [0, r)², [1, r)², … are stored one
  /// after the other; nested(r) is their total size.
  std::size_t nested(int m) const { return nested_[m]; }

 private:
  int r_;
  std::vector<std::size_t> start_;   // start_[k] = Σ_{k'<k} row_length(k')
  std::vector<std::size_t> nested_;  // nested_[m] = Σ_{m'<m} size(m')
};

/// Storage aligned to 64 bytes (a cache line), for the padded triangles.
template <class T>
struct CacheAligned {
  using value_type = T;
  CacheAligned() = default;
  template <class U>
  CacheAligned(const CacheAligned<U>&) {}
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{64}));
  }
  void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t{64}); }
  template <class U>
  bool operator==(const CacheAligned<U>&) const {
    return true;
  }
};
using AlignedVector = std::vector<double, CacheAligned<double>>;

}  // namespace substruct::detail
