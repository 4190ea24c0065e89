// SPDX-License-Identifier: GPL-3.0-or-later
#include "block_pattern.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace substruct::block_cholesky {

int BlockPattern::slot(int p, int q) const {
  const auto& list = below[p];
  const auto it = std::lower_bound(list.begin(), list.end(), q);
  return it != list.end() && *it == q ? static_cast<int>(it - list.begin()) : -1;
}

BlockPattern symbolic_factor(const BlockGraph& graph, EliminationOrder order) {
  // Eliminating position p joins the positions after it that it is connected to (the graph
  // of the remaining Schur complement).
  const int d = graph.num_blocks();
  std::vector<std::set<int>> later(d);  // later[p]: positions q > p connected to p
  for (int b = 0; b < d; ++b)
    for (int c : graph.neighbours(b)) {
      const int p = order.position[b], q = order.position[c];
      if (q > p) later[p].insert(q);
    }
  BlockPattern pattern;
  pattern.below.resize(d);
  long blocks = 0;
  for (int p = 0; p < d; ++p) {
    pattern.below[p].assign(later[p].begin(), later[p].end());
    blocks += static_cast<long>(pattern.below[p].size());
    const auto& joined = pattern.below[p];
    for (std::size_t i = 0; i < joined.size(); ++i)
      for (std::size_t j = i + 1; j < joined.size(); ++j) later[joined[i]].insert(joined[j]);
  }
  pattern.fill_blocks = blocks - graph.num_couplings();
  pattern.order = std::move(order);
  return pattern;
}

}  // namespace substruct::block_cholesky
