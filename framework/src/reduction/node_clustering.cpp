// SPDX-License-Identifier: GPL-3.0-or-later
// Node clustering for the dimension reduction of clustered PCA (Huang et al. 2006, §5.1):
// farthest-point seeds, k-means on the rest positions, then connected on the vertex graph.
#include "substruct/reduction/node_clustering.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

namespace {

// Vertex adjacency (tet edges) among the selected vertices, as sorted neighbour lists.
std::vector<std::vector<Index>> vertex_graph(const TetMesh& mesh,
                                             const std::vector<char>& selected) {
  std::vector<std::vector<Index>> adjacent(static_cast<std::size_t>(mesh.num_vertices()));
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const Index u = mesh.tets(e, a), v = mesh.tets(e, b);
        if (a != b && selected[static_cast<std::size_t>(u)] &&
            selected[static_cast<std::size_t>(v)])
          adjacent[static_cast<std::size_t>(u)].push_back(v);
      }
  for (auto& list : adjacent) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return adjacent;
}

// Moves every piece of a cluster but its largest to the neighbouring cluster it shares most
// edges with; true when something moved.
bool merge_stray_pieces(const std::vector<std::vector<Index>>& adjacent,
                        const std::vector<Index>& order, std::vector<int>& cluster) {
  const std::size_t n = cluster.size();
  std::vector<int> piece(n, -1);
  std::vector<std::vector<Index>> pieces;
  std::vector<Index> stack;
  for (Index s : order) {  // pieces numbered by their lowest vertex
    if (piece[static_cast<std::size_t>(s)] >= 0) continue;
    const int id = static_cast<int>(pieces.size());
    pieces.emplace_back();
    piece[static_cast<std::size_t>(s)] = id;
    stack.push_back(s);
    while (!stack.empty()) {
      const Index v = stack.back();
      stack.pop_back();
      pieces.back().push_back(v);
      for (Index w : adjacent[static_cast<std::size_t>(v)])
        if (piece[static_cast<std::size_t>(w)] < 0 &&
            cluster[static_cast<std::size_t>(w)] == cluster[static_cast<std::size_t>(v)]) {
          piece[static_cast<std::size_t>(w)] = id;
          stack.push_back(w);
        }
    }
  }
  // The piece each cluster keeps: its largest, the first on a tie.
  std::map<int, int> kept;
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    const int c = cluster[static_cast<std::size_t>(pieces[p].front())];
    const auto it = kept.find(c);
    if (it == kept.end() || pieces[p].size() > pieces[static_cast<std::size_t>(it->second)].size())
      kept[c] = static_cast<int>(p);
  }
  bool moved = false;
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    const int c = cluster[static_cast<std::size_t>(pieces[p].front())];
    if (kept[c] == static_cast<int>(p)) continue;
    std::map<int, int> edges;  // neighbouring cluster → shared edges
    for (Index v : pieces[p])
      for (Index w : adjacent[static_cast<std::size_t>(v)])
        if (cluster[static_cast<std::size_t>(w)] != c)
          ++edges[cluster[static_cast<std::size_t>(w)]];
    int target = -1, most = 0;
    for (const auto& [other, count] : edges)
      if (count > most) {
        most = count;
        target = other;
      }
    if (target < 0) continue;  // a separate part of the mesh
    for (Index v : pieces[p]) cluster[static_cast<std::size_t>(v)] = target;
    moved = true;
  }
  return moved;
}

}  // namespace

std::vector<int> cluster_mesh_nodes(const TetMesh& mesh, int clusters,
                                    const std::vector<Index>& vertices, int iterations) {
  const Index n = mesh.num_vertices();
  if (clusters < 1)
    throw Error(fmt::format("node clustering: clusters must be at least 1, found {}", clusters));
  std::vector<char> selected(static_cast<std::size_t>(n), vertices.empty() ? 1 : 0);
  for (Index v : vertices) {
    if (v < 0 || v >= n)
      throw Error(
          fmt::format("node clustering: vertex {} is not one of the mesh's {} vertices", v, n));
    selected[static_cast<std::size_t>(v)] = 1;
  }
  std::vector<Index> order;  // the selected vertices, increasing
  for (Index v = 0; v < n; ++v)
    if (selected[static_cast<std::size_t>(v)]) order.push_back(v);
  if (order.empty()) throw Error("node clustering: there is no vertex to cluster");
  const int c =
      static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(clusters), order.size()));
  const auto position = [&](Index v) -> Vec3 { return mesh.vertices.row(v).transpose(); };

  // 1. Farthest-point seeds.
  Vec3 centroid = Vec3::Zero();
  for (Index v : order) centroid += position(v);
  centroid /= static_cast<double>(order.size());
  std::vector<double> distance(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    distance[i] = (position(order[i]) - centroid).squaredNorm();
  std::vector<Vec3> centre;
  while (static_cast<int>(centre.size()) < c) {
    const std::size_t far = static_cast<std::size_t>(
        std::max_element(distance.begin(), distance.end()) - distance.begin());
    const Vec3 seed = position(order[far]);
    centre.push_back(seed);
    for (std::size_t i = 0; i < order.size(); ++i)
      distance[i] = centre.size() == 1
                        ? (position(order[i]) - seed).squaredNorm()
                        : std::min(distance[i], (position(order[i]) - seed).squaredNorm());
  }

  // 2. k-means (Lloyd) on the positions.
  std::vector<int> cluster(static_cast<std::size_t>(n), -1);
  for (int round = 0; round < std::max(iterations, 1); ++round) {
    bool moved = false;
    for (Index v : order) {
      int best = 0;
      double best_distance = std::numeric_limits<double>::infinity();
      for (int j = 0; j < c; ++j) {
        const double d = (position(v) - centre[static_cast<std::size_t>(j)]).squaredNorm();
        if (d < best_distance) {
          best_distance = d;
          best = j;
        }
      }
      moved = moved || cluster[static_cast<std::size_t>(v)] != best;
      cluster[static_cast<std::size_t>(v)] = best;
    }
    if (!moved) break;
    std::vector<Vec3> sum(static_cast<std::size_t>(c), Vec3::Zero());
    std::vector<Index> count(static_cast<std::size_t>(c), 0);
    for (Index v : order) {
      sum[static_cast<std::size_t>(cluster[static_cast<std::size_t>(v)])] += position(v);
      ++count[static_cast<std::size_t>(cluster[static_cast<std::size_t>(v)])];
    }
    for (int j = 0; j < c; ++j)
      if (count[static_cast<std::size_t>(j)] > 0)
        centre[static_cast<std::size_t>(j)] =
            sum[static_cast<std::size_t>(j)] /
            static_cast<double>(count[static_cast<std::size_t>(j)]);
  }

  // 3. Connected clusters.
  const std::vector<std::vector<Index>> adjacent = vertex_graph(mesh, selected);
  for (int pass = 0; pass < 100 && merge_stray_pieces(adjacent, order, cluster); ++pass) {
  }

  // Renumber the non-empty clusters in order.
  std::vector<int> id(static_cast<std::size_t>(c), -1);
  for (Index v : order) id[static_cast<std::size_t>(cluster[static_cast<std::size_t>(v)])] = 0;
  int next = 0;
  for (int& i : id)
    if (i == 0) i = next++;
  for (Index v : order)
    cluster[static_cast<std::size_t>(v)] =
        id[static_cast<std::size_t>(cluster[static_cast<std::size_t>(v)])];
  return cluster;
}

int count_node_clusters(const std::vector<int>& cluster_of_node) {
  int highest = -1;
  for (int c : cluster_of_node) highest = std::max(highest, c);
  return highest + 1;
}

namespace {

void check_ids(const std::vector<int>& cluster_of_node, int clusters) {
  for (std::size_t v = 0; v < cluster_of_node.size(); ++v)
    if (cluster_of_node[v] >= clusters || cluster_of_node[v] < -1)
      throw Error(fmt::format("node cluster summation: node {} has cluster {}, expected −1…{}", v,
                              cluster_of_node[v], clusters - 1));
}

}  // namespace

SparseMatrix node_cluster_summation(const std::vector<int>& cluster_of_node, int clusters) {
  check_ids(cluster_of_node, clusters);
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t v = 0; v < cluster_of_node.size(); ++v)
    if (cluster_of_node[v] >= 0)
      for (int j = 0; j < 3; ++j)
        entries.emplace_back(static_cast<int>(3 * v) + j, 3 * cluster_of_node[v] + j, 1.0);
  SparseMatrix S(3 * static_cast<Eigen::Index>(cluster_of_node.size()), 3 * clusters);
  S.setFromTriplets(entries.begin(), entries.end());
  return S;
}

Eigen::MatrixXd sum_columns_by_node_cluster(const Eigen::MatrixXd& X,
                                            const std::vector<int>& cluster_of_node, int clusters) {
  if (X.cols() != 3 * static_cast<Eigen::Index>(cluster_of_node.size()))
    throw Error(fmt::format("node cluster summation: the matrix has {} columns, {} nodes need {}",
                            X.cols(), cluster_of_node.size(), 3 * cluster_of_node.size()));
  check_ids(cluster_of_node, clusters);
  // (X S)(:, 3c + j) = Σ_{v in cluster c} X(:, 3v + j).
  Eigen::MatrixXd reduced = Eigen::MatrixXd::Zero(X.rows(), 3 * clusters);
  for (std::size_t v = 0; v < cluster_of_node.size(); ++v)
    if (cluster_of_node[v] >= 0)
      reduced.middleCols(3 * cluster_of_node[v], 3) +=
          X.middleCols(3 * static_cast<Eigen::Index>(v), 3);
  return reduced;
}

}  // namespace substruct
