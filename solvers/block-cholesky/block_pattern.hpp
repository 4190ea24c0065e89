// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The symbolic block factorization: which blocks of L (and Uᵀ) are non-zero once the blocks are
// eliminated in a given order, the couplings of A plus the fill.
#include <vector>

#include "block_graph.hpp"
#include "block_ordering.hpp"

namespace substruct::block_cholesky {

struct BlockPattern {
  EliminationOrder order;
  /// below[p]: the positions q > p (in elimination order) with L(q, p) ≠ 0, increasing.
  std::vector<std::vector<int>> below;
  long fill_blocks = 0;  // non-zero blocks of L that are zero in A

  int num_blocks() const { return static_cast<int>(below.size()); }
  /// k such that below[p][k] == q, or −1 when L(q, p) is zero.
  int slot(int p, int q) const;
};

BlockPattern symbolic_factor(const BlockGraph& graph, EliminationOrder order);

}  // namespace substruct::block_cholesky
