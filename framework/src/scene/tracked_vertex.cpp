// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/tracked_vertex.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "substruct/domains/edge_distance.hpp"

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
  const std::vector<double> distance = edge_distances_to(mesh, fixed);
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
