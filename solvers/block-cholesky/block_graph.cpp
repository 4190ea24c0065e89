// SPDX-License-Identifier: GPL-3.0-or-later
#include "block_graph.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::block_cholesky {

BlockGraph::BlockGraph(const BlockStructure& blocks) : offsets_(blocks.offsets) {
  if (offsets_.size() < 2)
    throw Error(
        fmt::format("block-cholesky: the block structure needs at least one block (offsets "
                    "0 = o₀ < o₁ < … < o_d = n), got {} offsets",
                    offsets_.size()));
  if (offsets_.front() != 0)
    throw Error(
        fmt::format("block-cholesky: the block offsets must start at 0, got {}", offsets_.front()));
  for (int b = 0; b + 1 < static_cast<int>(offsets_.size()); ++b)
    if (offsets_[b + 1] <= offsets_[b])
      throw Error(fmt::format(
          "block-cholesky: block {} is empty or reversed (offsets {} and {}); the offsets "
          "must increase strictly",
          b, offsets_[b], offsets_[b + 1]));

  block_of_.resize(static_cast<std::size_t>(offsets_.back()));
  for (int b = 0; b < num_blocks(); ++b)
    std::fill(block_of_.begin() + offsets_[b], block_of_.begin() + offsets_[b + 1], b);

  neighbours_.resize(static_cast<std::size_t>(num_blocks()));
  for (const auto& [a, b] : blocks.couplings) {
    if (a < 0 || b < 0 || a >= num_blocks() || b >= num_blocks())
      throw Error(fmt::format(
          "block-cholesky: the coupling ({}, {}) names a block out of range (there are {} "
          "blocks)",
          a, b, num_blocks()));
    if (a == b)
      throw Error(fmt::format(
          "block-cholesky: the coupling ({}, {}) couples a block with itself; a block's own "
          "entries are its diagonal block",
          a, b));
    neighbours_[a].push_back(b);
    neighbours_[b].push_back(a);
  }
  for (auto& list : neighbours_) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    num_couplings_ += static_cast<long>(list.size());
  }
  num_couplings_ /= 2;
}

bool BlockGraph::coupled(int a, int b) const {
  const auto& list = neighbours_[a];
  return std::binary_search(list.begin(), list.end(), b);
}

BlockGraph::DepthFirst BlockGraph::depth_first() const {
  const int d = num_blocks();
  DepthFirst result;
  result.postorder.reserve(d);
  std::vector<int> parent(d, -1);
  std::vector<bool> visited(d, false);
  for (int root = 0; root < d; ++root) {
    if (visited[root]) continue;
    visited[root] = true;
    std::vector<std::pair<int, std::size_t>> stack{{root, 0}};  // (block, next neighbour)
    while (!stack.empty()) {
      const int block = stack.back().first;
      const std::size_t next = stack.back().second++;
      if (next == neighbours_[block].size()) {
        result.postorder.push_back(block);
        stack.pop_back();
        continue;
      }
      const int other = neighbours_[block][next];
      if (!visited[other]) {
        visited[other] = true;
        parent[other] = block;
        stack.emplace_back(other, 0);
      } else if (other != parent[block] && result.cycle.empty()) {
        // The first edge outside the search tree leads back to an ancestor of block:
        // other – … – parent – block – other.
        std::vector<int> path;
        for (int b = block; b != other; b = parent[b]) path.push_back(b);
        result.cycle = fmt::format("{}", other);
        for (auto it = path.rbegin(); it != path.rend(); ++it)
          result.cycle += fmt::format(" – {}", *it);
        result.cycle += fmt::format(" – {}", other);
      }
    }
  }
  return result;
}

}  // namespace substruct::block_cholesky
