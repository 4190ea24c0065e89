// SPDX-License-Identifier: GPL-3.0-or-later
#include "block_ordering.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::block_cholesky {
namespace {

// Minimum degree on the block graph: eliminate the block with the fewest remaining neighbours
// (ties: the lowest index), then join its remaining neighbours pairwise (the fill it causes).
std::vector<int> minimum_degree(const BlockGraph& graph) {
  const int d = graph.num_blocks();
  std::vector<std::set<int>> adjacent(d);
  for (int b = 0; b < d; ++b)
    adjacent[b].insert(graph.neighbours(b).begin(), graph.neighbours(b).end());
  std::set<std::pair<std::size_t, int>> queue;  // (degree, block)
  for (int b = 0; b < d; ++b) queue.emplace(adjacent[b].size(), b);
  std::vector<int> order;
  order.reserve(d);
  while (!queue.empty()) {
    const int block = queue.begin()->second;
    queue.erase(queue.begin());
    order.push_back(block);
    const std::vector<int> remaining(adjacent[block].begin(), adjacent[block].end());
    for (int a : remaining) {
      queue.erase({adjacent[a].size(), a});
      adjacent[a].erase(block);
      for (int b : remaining)
        if (b != a) adjacent[a].insert(b);
      queue.emplace(adjacent[a].size(), a);
    }
    adjacent[block].clear();
  }
  return order;
}

}  // namespace

EliminationOrder elimination_order(const BlockGraph& graph, Ordering ordering) {
  EliminationOrder result;
  const bool tree_wanted = ordering == Ordering::automatic || ordering == Ordering::tree;
  BlockGraph::DepthFirst search;
  if (tree_wanted) search = graph.depth_first();
  if (ordering == Ordering::tree && !search.cycle.empty())
    throw Error(fmt::format(
        "block-cholesky.ordering = tree needs a block graph without loops, but blocks {} form "
        "one; use auto or min-degree",
        search.cycle));
  if (tree_wanted && search.cycle.empty()) {
    // On a forest the post-order eliminates every block after the blocks below it: its only
    // remaining neighbour is then its parent, and no block of L fills in.
    result.blocks = std::move(search.postorder);
    result.name = "leaves-first";
  } else if (ordering == Ordering::natural) {
    result.blocks.resize(static_cast<std::size_t>(graph.num_blocks()));
    for (int b = 0; b < graph.num_blocks(); ++b) result.blocks[b] = b;
    result.name = "natural";
  } else {
    result.blocks = minimum_degree(graph);
    result.name = "minimum-degree";
  }
  result.position.resize(result.blocks.size());
  for (std::size_t p = 0; p < result.blocks.size(); ++p)
    result.position[result.blocks[p]] = static_cast<int>(p);
  return result;
}

}  // namespace substruct::block_cholesky
