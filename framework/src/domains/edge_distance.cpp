// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/edge_distance.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace substruct {

std::vector<double> edge_distances_to(const TetMesh& mesh, const std::vector<Index>& fixed) {
  const Index n = mesh.num_vertices();
  std::vector<std::vector<Index>> neighbours(static_cast<std::size_t>(n));
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        if (a != b)
          neighbours[static_cast<std::size_t>(mesh.tets(e, a))].push_back(mesh.tets(e, b));
  for (auto& list : neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  std::vector<double> distance(static_cast<std::size_t>(n),
                               std::numeric_limits<double>::infinity());
  using Item = std::pair<double, Index>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  for (Index v : fixed) {
    distance[static_cast<std::size_t>(v)] = 0;
    queue.emplace(0.0, v);
  }
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d > distance[static_cast<std::size_t>(v)]) continue;
    for (Index w : neighbours[static_cast<std::size_t>(v)]) {
      const double through = d + (mesh.vertices.row(v) - mesh.vertices.row(w)).norm();
      if (through < distance[static_cast<std::size_t>(w)]) {
        distance[static_cast<std::size_t>(w)] = through;
        queue.emplace(through, w);
      }
    }
  }
  return distance;
}

}  // namespace substruct
