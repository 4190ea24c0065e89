// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The dense blocks of a block-sparse factor, in one array: per elimination position p the
// diagonal block, the blocks L(q, p) below it (and, for LU, U(p, q) to its right) for the q of
// the symbolic pattern. Loads A into them through a scatter map built once per pattern of A.
#include <vector>

#include "block_graph.hpp"
#include "block_pattern.hpp"
#include "substruct/core/types.hpp"

namespace substruct::block_cholesky {

/// Which stored entries of A are read: one triangle of a symmetric matrix (for Cholesky), all
/// of them, or one triangle mirrored into the other (LU of a symmetric matrix stored once).
enum class Entries { lower, upper, all, mirrored };

class BlockStorage {
 public:
  using Block = Eigen::Map<Eigen::MatrixXd>;
  using ConstBlock = Eigen::Map<const Eigen::MatrixXd>;

  /// with_upper: also store the blocks U(p, q) (LU); without, the factor is L only (Cholesky).
  BlockStorage(const BlockGraph& graph, BlockPattern pattern, bool with_upper);

  const BlockPattern& pattern() const { return pattern_; }
  int num_positions() const { return pattern_.num_blocks(); }
  int block(int p) const { return pattern_.order.blocks[p]; }  // the block eliminated p-th
  Index offset(int p) const { return offsets_[p]; }            // its first unknown
  Index size(int p) const { return sizes_[p]; }

  /// The block at (row position, column position) of the factor: the diagonal block, L(q, p)
  /// below it or U(p, q) to its right; it must be in the pattern.
  Block at(int row, int col);
  ConstBlock at(int row, int col) const;
  /// The k-th block below position p, L(below[p][k], p), and the k-th to its right (LU).
  Block lower(int p, int k) { return view(lower_[p][k], sizes_[pattern_.below[p][k]], sizes_[p]); }
  ConstBlock lower(int p, int k) const;
  Block upper(int p, int k) { return view(upper_[p][k], sizes_[p], sizes_[pattern_.below[p][k]]); }
  ConstBlock upper(int p, int k) const;

  /// Scalars stored in the factor: dense blocks counted fully, diagonal blocks by their lower
  /// triangle for Cholesky and fully for LU (L below the diagonal, U on and above it).
  long factor_nonzeros() const;

  /// Builds the scatter map of A's pattern. Throws Error naming the entry and its blocks when
  /// A has an entry in a block pair that the graph does not couple.
  void map_entries(const BlockGraph& graph, const SparseMatrix& A, Entries entries);
  /// True when A has the pattern that map_entries() saw last.
  bool mapped(const SparseMatrix& A) const;
  /// Zeroes every block and scatters A's values (A has the mapped pattern).
  void load(const SparseMatrix& A);

 private:
  Block view(long start, Index rows, Index cols) { return {values_.data() + start, rows, cols}; }
  ConstBlock view(long start, Index rows, Index cols) const {
    return {values_.data() + start, rows, cols};
  }
  long location(int row, int col) const;  // start of the block at (row, col) positions

  BlockPattern pattern_;
  bool with_upper_;
  std::vector<Index> offsets_, sizes_;            // per position
  std::vector<long> diagonal_;                    // per position
  std::vector<std::vector<long>> lower_, upper_;  // per position and slot
  std::vector<double> values_;
  std::vector<int> outer_, inner_;             // the mapped pattern of A
  std::vector<std::pair<int, long>> scatter_;  // (entry of A, index in values_)
};

}  // namespace substruct::block_cholesky
