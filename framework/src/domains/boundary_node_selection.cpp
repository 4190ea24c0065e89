// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/boundary_node_selection.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include <fmt/format.h>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>

#include "substruct/core/error.hpp"

namespace substruct {

int BoundaryGraph::node_of(Index vertex) const {
  const auto it = std::lower_bound(nodes.begin(), nodes.end(), vertex);
  if (it == nodes.end() || *it != vertex) return -1;
  return static_cast<int>(it - nodes.begin());
}

BoundaryGraph make_boundary_graph(const TetMesh& mesh, const std::vector<Index>& boundary) {
  BoundaryGraph g;
  g.nodes = boundary;
  std::sort(g.nodes.begin(), g.nodes.end());
  g.nodes.erase(std::unique(g.nodes.begin(), g.nodes.end()), g.nodes.end());
  if (!g.nodes.empty() && (g.nodes.front() < 0 || g.nodes.back() >= mesh.num_vertices()))
    throw Error(fmt::format("boundary nodes: vertex {} is not a vertex of the mesh (0…{})",
                            g.nodes.front() < 0 ? g.nodes.front() : g.nodes.back(),
                            mesh.num_vertices() - 1));
  // "every edge connecting two nodes on the boundary corresponds to an undirected edge": the
  // edges of the tetrahedra whose two ends are boundary nodes, each once.
  std::vector<std::pair<int, int>> edges;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    int local[4];
    for (int k = 0; k < 4; ++k) local[k] = g.node_of(mesh.tets(e, k));
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j)
        if (local[i] >= 0 && local[j] >= 0 && local[i] != local[j])
          edges.emplace_back(std::min(local[i], local[j]), std::max(local[i], local[j]));
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  g.graph = BoundaryGraph::Graph(g.nodes.size());
  for (const auto& [a, b] : edges) boost::add_edge(a, b, g.graph);
  return g;
}

std::vector<int> hop_distances_from(const BoundaryGraph& graph, int source) {
  if (source < 0 || source >= graph.num_nodes())
    throw Error(
        fmt::format("boundary nodes: no node {} (the graph has {})", source, graph.num_nodes()));
  std::vector<int> distance(graph.nodes.size(), kUnreachable);
  distance[static_cast<std::size_t>(source)] = 0;
  // Breadth-first search records each vertex's depth when its tree edge is examined: the number
  // of edges on a shortest path, Distance(c, b) in the paper's words.
  boost::breadth_first_search(graph.graph,
                              static_cast<BoundaryGraph::Graph::vertex_descriptor>(source),
                              boost::visitor(boost::make_bfs_visitor(boost::record_distances(
                                  distance.data(), boost::on_tree_edge{}))));
  return distance;
}

std::vector<int> select_boundary_nodes(const BoundaryGraph& graph, int count) {
  const int n = graph.num_nodes();
  std::vector<int> chosen;
  if (count < 0 || count >= n) {
    chosen.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) chosen[static_cast<std::size_t>(i)] = i;
    return chosen;
  }
  if (count == 0) return chosen;
  // "The first node is chosen as the one with the largest number of one-ring neighbors (cover
  // the largest area)"; the lowest on ties.
  int first = 0;
  for (int i = 1; i < n; ++i)
    if (graph.degree(i) > graph.degree(first)) first = i;
  // nearest[b] = min over chosen c of Distance(c, b), kept up to date with one breadth-first
  // search per chosen node instead of the paper's all-pairs Floyd–Warshall matrix.
  std::vector<int> nearest(static_cast<std::size_t>(n), kUnreachable);
  int next = first;
  for (;;) {
    chosen.push_back(next);
    if (static_cast<int>(chosen.size()) == count) break;
    const std::vector<int> d = hop_distances_from(graph, next);
    for (std::size_t b = 0; b < nearest.size(); ++b) nearest[b] = std::min(nearest[b], d[b]);
    // "The next candidate is b ∈ B − C such that ∀c ∈ C, min{Distance(c, b)} is maximized": the
    // chosen nodes are at distance 0 and every other node at 1 or more (unreachable ones at
    // kUnreachable), so the first maximum is never a chosen node.
    next = static_cast<int>(
        std::distance(nearest.begin(), std::max_element(nearest.begin(), nearest.end())));
  }
  return chosen;
}

std::vector<Index> select_boundary_nodes(const TetMesh& mesh, const std::vector<Index>& boundary,
                                         int count) {
  const BoundaryGraph graph = make_boundary_graph(mesh, boundary);
  std::vector<Index> vertices;
  for (const int node : select_boundary_nodes(graph, count))
    vertices.push_back(graph.nodes[static_cast<std::size_t>(node)]);
  return vertices;
}

}  // namespace substruct
