// SPDX-License-Identifier: GPL-3.0-or-later
#include "wind_samples.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "substruct/domains/edge_distance.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct::wind {

namespace {

// Parent of every domain in a breadth-first tree of the domain graph from the root (−1: the root
// or unreachable).
std::vector<int> bfs_parents(const Scene& scene) {
  const int d = static_cast<int>(scene.num_domains());
  std::vector<int> parent(static_cast<std::size_t>(d), -1);
  std::vector<bool> seen(static_cast<std::size_t>(d), false);
  std::queue<int> queue;
  if (scene.root >= 0 && scene.root < d) {
    queue.push(scene.root);
    seen[static_cast<std::size_t>(scene.root)] = true;
  }
  while (!queue.empty()) {
    const int i = queue.front();
    queue.pop();
    for (int j : scene.graph.neighbors(i))
      if (!seen[static_cast<std::size_t>(j)]) {
        seen[static_cast<std::size_t>(j)] = true;
        parent[static_cast<std::size_t>(j)] = i;
        queue.push(j);
      }
  }
  return parent;
}

}  // namespace

std::vector<WindSample> wind_samples(const Scene& scene, int per_domain) {
  std::vector<WindSample> samples;
  if (per_domain <= 0) return samples;
  const TetGeometry geometry = TetGeometry::build(scene.mesh);
  const std::vector<int> parent = bfs_parents(scene);
  for (const SubMesh& sub : scene.decomposition.domains) {
    const TetMesh& m = sub.mesh;
    const Index n = m.num_vertices();
    if (n == 0) continue;
    double mass = 0;
    for (Index e = 0; e < m.num_elements(); ++e) {
      const Index global = sub.global_element[static_cast<std::size_t>(e)];
      mass += geometry.volume[static_cast<std::size_t>(global)] *
              scene.mesh.material_of(global).density;
    }
    // Anchor: fixed vertices in the domain, else the interface to its parent, else the vertex
    // nearest to the domain's centroid.
    std::vector<Index> anchor;
    for (Index g : scene.fixed_vertices)
      if (const Index l = sub.local_vertex(g); l >= 0) anchor.push_back(l);
    const int p = parent[static_cast<std::size_t>(sub.domain)];
    if (anchor.empty() && p >= 0)
      for (const Interface& itf : scene.decomposition.interfaces)
        if ((itf.a == p && itf.b == sub.domain) || (itf.b == p && itf.a == sub.domain))
          for (Index g : itf.vertices) anchor.push_back(sub.local_vertex(g));
    if (anchor.empty()) {
      const Vec3 centroid = m.vertices.colwise().mean().transpose();
      Index best = 0;
      (m.vertices.rowwise() - centroid.transpose()).rowwise().squaredNorm().minCoeff(&best);
      anchor.push_back(best);
    }
    const std::vector<double> distance = edge_distances_to(m, anchor);
    double reach = 0;
    for (double dist : distance)
      if (std::isfinite(dist)) reach = std::max(reach, dist);
    // The vertex nearest each target distance i D / (s + 1), distinct.
    std::vector<Index> chosen;
    for (int i = 1; i <= per_domain; ++i) {
      const double target = reach * i / (per_domain + 1);
      Index best = -1;
      double best_gap = std::numeric_limits<double>::infinity();
      for (Index l = 0; l < n; ++l) {
        const double dist = distance[static_cast<std::size_t>(l)];
        if (!std::isfinite(dist) || std::find(chosen.begin(), chosen.end(), l) != chosen.end())
          continue;
        if (std::abs(dist - target) < best_gap) {
          best_gap = std::abs(dist - target);
          best = l;
        }
      }
      if (best >= 0) chosen.push_back(best);
    }
    for (Index l : chosen)
      samples.push_back({sub.global_vertex[static_cast<std::size_t>(l)],
                         mass / static_cast<double>(chosen.size())});
  }
  return samples;
}

}  // namespace substruct::wind
