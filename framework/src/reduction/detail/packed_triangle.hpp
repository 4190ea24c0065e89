// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Packed upper triangles of symmetric index ranges, the storage of the reduced StVK polynomial.
//
// The triangle over [m, r)² holds row k (m ≤ k < r), the entries (k, l) for l = k…r−1, rows one
// after the other; so the triangle over [j, r)², j ≥ m, is its suffix from row j. In the padded
// form, with groups of g columns (g = 4 when r is a multiple of 4, else 2: the least padding),
// row k holds the columns g⌊k/g⌋ … r_g−1 (r_g = r rounded up to a multiple of g), the entries
// outside k…r−1 zero. This keeps the suffix property, and in aligned storage puts every column
// l at the same position of its group in every row, so rows combine with each other and with
// vectors indexed by column in aligned groups (of 4, and one pair left over when g = 2).
#include <cstddef>
#include <vector>

#include "../../core/detail/aligned_vector.hpp"

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
      : r_(r),
        group_(r % 4 == 0 ? 4 : 2),
        start_(static_cast<std::size_t>(r) + 1, 0),
        nested_(start_) {
    for (int k = 0; k < r; ++k) start_[k + 1] = start_[k] + row_length(k);
    for (int m = 0; m < r; ++m) nested_[m + 1] = nested_[m] + size(m);
  }
  int r() const { return r_; }
  /// The group size g (4 or 2).
  int group() const { return group_; }
  /// r rounded up to a multiple of the group size g.
  int padded_r() const { return (r_ + group_ - 1) & ~(group_ - 1); }
  /// The first column row k holds: g⌊k/g⌋.
  int first_column(int k) const { return k & ~(group_ - 1); }
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
  int group_;
  std::vector<std::size_t> start_;   // start_[k] = Σ_{k'<k} row_length(k')
  std::vector<std::size_t> nested_;  // nested_[m] = Σ_{m'<m} size(m')
};

}  // namespace substruct::detail
