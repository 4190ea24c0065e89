// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The block graph of a block-sparse matrix: blocks [offsets[b], offsets[b+1]) of the unknowns
// (one per domain) and the undirected couplings between them, validated.
#include <string>
#include <vector>

#include "substruct/solvers/linear_solver.hpp"

namespace substruct::block_cholesky {

class BlockGraph {
 public:
  /// Throws Error when the offsets do not start at 0 and increase strictly, or when a coupling
  /// names a block out of range or couples a block with itself. Repeated couplings (either
  /// orientation) count once.
  explicit BlockGraph(const BlockStructure& blocks);

  int num_blocks() const { return static_cast<int>(offsets_.size()) - 1; }
  Index num_unknowns() const { return offsets_.back(); }
  Index offset(int block) const { return offsets_[block]; }
  Index size(int block) const { return offsets_[block + 1] - offsets_[block]; }
  /// The block holding unknown `i` (0 ≤ i < num_unknowns()).
  int block_of(Index i) const { return block_of_[i]; }
  /// The blocks coupled with `block`, in increasing order.
  const std::vector<int>& neighbours(int block) const { return neighbours_[block]; }
  bool coupled(int a, int b) const;
  long num_couplings() const { return num_couplings_; }

  /// One depth-first search of every component, from its lowest block, neighbours in increasing
  /// order: the post-order (every block after the blocks below it in the search tree) and the
  /// first cycle met, "a – b – … – a", empty when the graph is a forest.
  struct DepthFirst {
    std::vector<int> postorder;
    std::string cycle;
  };
  DepthFirst depth_first() const;

 private:
  std::vector<Index> offsets_;
  std::vector<int> block_of_;
  std::vector<std::vector<int>> neighbours_;
  long num_couplings_ = 0;
};

}  // namespace substruct::block_cholesky
