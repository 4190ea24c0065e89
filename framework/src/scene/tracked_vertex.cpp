// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/tracked_vertex.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <utility>

namespace substruct {
namespace {

// The vertex with the largest value of `score` among those with `eligible`; -1 when none.
template <class Eligible, class Score>
Index argmax(Index n, Eligible eligible, Score score) {
  Index best = -1;
  double best_score = -std::numeric_limits<double>::infinity();
  for (Index v = 0; v < n; ++v)
    if (eligible(v) && score(v) > best_score) {
      best_score = score(v);
      best = v;
    }
  return best;
}

// Distance from each vertex to its nearest fixed vertex along the tets' edges (multi-source
// Dijkstra); infinity where no path of edges leads to a fixed vertex.
std::vector<double> distance_to_fixed(const TetMesh& mesh, const std::vector<Index>& fixed) {
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

}  // namespace

Index default_tracked_vertex(const TetMesh& mesh, const std::vector<Index>& fixed) {
  const Index n = mesh.num_vertices();
  if (n == 0) return 0;
  if (fixed.empty()) {
    const Eigen::RowVector3d centroid = mesh.vertices.colwise().mean();
    return argmax(
        n, [](Index) { return true; },
        [&](Index v) { return (mesh.vertices.row(v) - centroid).squaredNorm(); });
  }
  const std::vector<double> distance = distance_to_fixed(mesh, fixed);
  const auto is_free = [&](Index v) { return !std::binary_search(fixed.begin(), fixed.end(), v); };
  const Index joined = argmax(
      n, [&](Index v) { return is_free(v) && std::isfinite(distance[std::size_t(v)]); },
      [&](Index v) { return distance[std::size_t(v)]; });
  if (joined >= 0) return joined;
  // Only loose pieces are free: the one farthest from the fixed vertices' centroid.
  Eigen::RowVector3d anchor = Eigen::RowVector3d::Zero();
  for (Index v : fixed) anchor += mesh.vertices.row(v);
  anchor /= double(fixed.size());
  const Index loose =
      argmax(n, is_free, [&](Index v) { return (mesh.vertices.row(v) - anchor).squaredNorm(); });
  return loose >= 0 ? loose : 0;  // everything fixed: nothing moves, any vertex will do
}

}  // namespace substruct
