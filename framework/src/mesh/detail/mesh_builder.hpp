// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Growing arrays a reader fills line by line, turned into Eigen arrays once the file is read
// (no reader allocates from a count it has not yet verified).
#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct::mesh_detail {

/// The largest count a file may declare: every index must fit an Index.
inline constexpr long long kMaxCount = std::numeric_limits<Index>::max();

/// N×3 points from the flat list x0 y0 z0 x1 …
inline Points to_points(const std::vector<double>& xyz) {
  Points points(static_cast<Eigen::Index>(xyz.size() / 3), 3);
  std::copy(xyz.begin(), xyz.end(), points.data());
  return points;
}

/// M×4 tets from the flat list a0 b0 c0 d0 a1 …
inline Tets to_tets(const std::vector<Index>& abcd) {
  Tets tets(static_cast<Eigen::Index>(abcd.size() / 4), 4);
  std::copy(abcd.begin(), abcd.end(), tets.data());
  return tets;
}

/// True when two of the four vertex indices of an element are equal.
template <class T>
bool has_repeated_vertex(const std::array<T, 4>& v) {
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = i + 1; j < 4; ++j)
      if (v[i] == v[j]) return true;
  return false;
}

/// Sorts ids and removes duplicates.
inline void sort_unique(std::vector<Index>& ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

}  // namespace substruct::mesh_detail
