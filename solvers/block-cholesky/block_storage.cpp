// SPDX-License-Identifier: GPL-3.0-or-later
#include "block_storage.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::block_cholesky {

BlockStorage::BlockStorage(const BlockGraph& graph, BlockPattern pattern, bool with_upper)
    : pattern_(std::move(pattern)), with_upper_(with_upper) {
  const int d = pattern_.num_blocks();
  offsets_.resize(d);
  sizes_.resize(d);
  for (int p = 0; p < d; ++p) {
    offsets_[p] = graph.offset(block(p));
    sizes_[p] = graph.size(block(p));
  }
  long end = 0;
  diagonal_.resize(d);
  lower_.resize(d);
  upper_.resize(d);
  for (int p = 0; p < d; ++p) {
    diagonal_[p] = end;
    end += long(sizes_[p]) * sizes_[p];
    for (int q : pattern_.below[p]) {
      lower_[p].push_back(end);
      end += long(sizes_[q]) * sizes_[p];
      if (with_upper_) {
        upper_[p].push_back(end);
        end += long(sizes_[q]) * sizes_[p];
      }
    }
  }
  values_.assign(static_cast<std::size_t>(end), 0.0);
}

long BlockStorage::location(int row, int col) const {
  if (row == col) return diagonal_[row];
  const bool below = row > col;
  const int p = below ? col : row, q = below ? row : col;
  const int k = pattern_.slot(p, q);
  if (k < 0 || (!below && !with_upper_))
    throw Error(fmt::format(
        "block-cholesky: internal error: no block of the factor at positions ({}, {})", row, col));
  return below ? lower_[p][k] : upper_[p][k];
}

BlockStorage::Block BlockStorage::at(int row, int col) {
  return view(location(row, col), sizes_[row], sizes_[col]);
}

BlockStorage::ConstBlock BlockStorage::at(int row, int col) const {
  return view(location(row, col), sizes_[row], sizes_[col]);
}

BlockStorage::ConstBlock BlockStorage::lower(int p, int k) const {
  return view(lower_[p][k], sizes_[pattern_.below[p][k]], sizes_[p]);
}

BlockStorage::ConstBlock BlockStorage::upper(int p, int k) const {
  return view(upper_[p][k], sizes_[p], sizes_[pattern_.below[p][k]]);
}

long BlockStorage::factor_nonzeros() const {
  long count = 0;
  for (int p = 0; p < num_positions(); ++p) {
    const long n = sizes_[p];
    count += with_upper_ ? n * n : n * (n + 1) / 2;
    for (int q : pattern_.below[p]) count += (with_upper_ ? 2 : 1) * n * sizes_[q];
  }
  return count;
}

void BlockStorage::map_entries(const BlockGraph& graph, const SparseMatrix& A, Entries entries) {
  scatter_.clear();
  scatter_.reserve(static_cast<std::size_t>(A.nonZeros()) * (entries == Entries::mirrored ? 2 : 1));
  // The index in values_ of scalar entry (r, c) of the factor's storage.
  const auto destination = [&](Index r, Index c) {
    const int pr = pattern_.order.position[graph.block_of(r)];
    const int pc = pattern_.order.position[graph.block_of(c)];
    return location(pr, pc) + (r - offsets_[pr]) + long(c - offsets_[pc]) * sizes_[pr];
  };
  for (int col = 0; col < A.outerSize(); ++col) {
    for (SparseMatrix::InnerIterator it(A, col); it; ++it) {
      const Index row = it.row();
      const int br = graph.block_of(row), bc = graph.block_of(col);
      if (br != bc && !graph.coupled(br, bc))
        throw Error(fmt::format(
            "block-cholesky: A has an entry at ({}, {}) in block ({}, {}), but blocks {} and {} "
            "are not coupled in the block structure given to analyze(); declare the "
            "coupling or check the assembly",
            row, col, br, bc, br, bc));
      const auto entry = static_cast<int>(&it.value() - A.valuePtr());
      switch (entries) {
        case Entries::lower:  // L(r, c), r ≥ c: in the factor as is or transposed
        case Entries::upper: {
          if (entries == Entries::lower ? row < col : row > col) break;
          const Index r = std::max(row, Index(col)), c = std::min(row, Index(col));
          const bool in_order = pattern_.order.position[graph.block_of(r)] >=
                                pattern_.order.position[graph.block_of(c)];
          scatter_.emplace_back(entry, in_order ? destination(r, c) : destination(c, r));
          break;
        }
        case Entries::all:
          scatter_.emplace_back(entry, destination(row, col));
          break;
        case Entries::mirrored:
          scatter_.emplace_back(entry, destination(row, col));
          if (row != col) scatter_.emplace_back(entry, destination(col, row));
          break;
      }
    }
  }
  outer_.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1);
  inner_.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
}

bool BlockStorage::mapped(const SparseMatrix& A) const {
  if (static_cast<std::size_t>(A.outerSize()) + 1 != outer_.size() ||
      static_cast<std::size_t>(A.nonZeros()) != inner_.size())
    return false;
  return std::equal(outer_.begin(), outer_.end(), A.outerIndexPtr()) &&
         std::equal(inner_.begin(), inner_.end(), A.innerIndexPtr());
}

void BlockStorage::load(const SparseMatrix& A) {
  std::fill(values_.begin(), values_.end(), 0.0);
  const double* values = A.valuePtr();
  for (const auto& [entry, index] : scatter_) values_[index] = values[entry];
}

}  // namespace substruct::block_cholesky
