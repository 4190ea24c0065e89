// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The order in which the blocks are eliminated. On a forest, a post-order (every block after the
// blocks below it, leaves first) creates no fill; with loops, minimum degree on the block graph
// keeps the fill small.
#include <string>
#include <vector>

#include "block_graph.hpp"

namespace substruct::block_cholesky {

enum class Ordering { automatic, tree, min_degree, natural };

struct EliminationOrder {
  std::vector<int> blocks;    // blocks[p]: the block eliminated p-th
  std::vector<int> position;  // position[b]: when block b is eliminated
  std::string name;           // "leaves-first", "minimum-degree", "natural"
};

/// auto: leaves-first when the graph is a forest, else minimum degree. tree: leaves-first; throws
/// Error naming a cycle when the graph has one. Deterministic: ties go to the lowest block index.
EliminationOrder elimination_order(const BlockGraph& graph, Ordering ordering);

}  // namespace substruct::block_cholesky
