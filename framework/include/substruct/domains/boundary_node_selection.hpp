// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The choice of a few constrained nodes on the boundary between a rigid and a deformable region
/// (Yang et al. 2010, "Boundary constraints", Fig. 2–4).
///
/// Constraining every boundary node in both linear deformation and rotation removes six DoF per
/// node and over-constrains a reduced model (Fig. 2(c)); "we resolve this problem by capping the
/// number of constrained nodes at the boundary" (Fig. 2(d): two nodes). "The selection of
/// constrained boundary nodes is not arbitrary, as we always want the constrained nodes to be
/// evenly scattered over the boundary […] assuming each edge on the boundary is equally
/// weighted":
///
/// - "An undirected connected graph G(V, E) is constructed from the topology of the boundary.
///   Each node on the boundary corresponds to a vertex in V and every edge connecting two nodes on
///   the boundary corresponds to an undirected edge" (BoundaryGraph);
/// - "The first node is chosen as the one with the largest number of one-ring neighbors (cover the
///   largest area). The next candidate is b ∈ B − C such that ∀c ∈ C, min{Distance(c, b)} is
///   maximized, where Distance(c, b) denotes the number of edges on the shortest path connecting c
///   and b in G" (select_boundary_nodes: a farthest-point selection in hop distance).
///
/// The paper reads the distances from the all-pairs matrix of the Floyd–Warshall algorithm
/// (O(|B|³)); only the distances from the chosen nodes are needed, so here they come from one
/// breadth-first search per chosen node, O(count · (|B| + |E|)), and equal the Floyd–Warshall
/// ones exactly (tests/domains/test_boundary_node_selection.cpp checks it).
#include <limits>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "substruct/core/types.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// The hop distance of a node not connected to the source (another component of the graph).
inline constexpr int kUnreachable = std::numeric_limits<int>::max();

/// The boundary-node graph G(V, E): its vertices are the boundary vertices, its edges the mesh
/// edges (edges of tetrahedra) joining two of them, once each. Graph vertex i is mesh vertex
/// nodes[i]; since `nodes` is increasing, lower graph vertices are lower mesh vertices.
struct BoundaryGraph {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  std::vector<Index> nodes;  // global vertex ids, strictly increasing
  Graph graph;               // num_vertices(graph) == nodes.size(); no parallel edges, no loops

  int num_nodes() const { return static_cast<int>(nodes.size()); }
  int num_edges() const { return static_cast<int>(boost::num_edges(graph)); }
  /// The number of one-ring neighbours of graph vertex `node` on the boundary.
  int degree(int node) const {
    return static_cast<int>(boost::out_degree(static_cast<Graph::vertex_descriptor>(node), graph));
  }
  /// The graph vertex of mesh vertex `vertex`, −1 when it is not a boundary node (O(log |B|)).
  int node_of(Index vertex) const;
};

/// The boundary-node graph of `boundary` (global vertex ids in any order; repeats count once),
/// e.g. the vertices of an Interface (interface.hpp) or of a deformable–rigid RegionBoundary
/// (hybrid_regions.hpp). Every edge of a tetrahedron whose two ends are boundary nodes is an edge
/// of the graph, also one that leaves the boundary surface (on a curved boundary, a tet may join
/// two of its nodes through its inside). O(M log |B|) for M elements. Throws Error when a boundary
/// vertex is not a vertex of the mesh.
BoundaryGraph make_boundary_graph(const TetMesh& mesh, const std::vector<Index>& boundary);

/// The hop distance (number of edges on a shortest path) from graph vertex `source` to every graph
/// vertex, by breadth-first search, O(|B| + |E|); kUnreachable for vertices of other components.
/// Throws Error when `source` is not a graph vertex.
std::vector<int> hop_distances_from(const BoundaryGraph& graph, int source);

/// `count` constrained nodes chosen from the graph's vertices (graph vertex indices, in the order
/// chosen): first the vertex with the most neighbours, then repeatedly the vertex whose hop
/// distance to the nearest chosen vertex is largest; ties go to the lowest index.
///
/// The paper assumes G connected (it calls it biconnected). A disconnected boundary is allowed:
/// vertices that no chosen vertex reaches count as infinitely far (kUnreachable), so every
/// component receives one node before any receives a second one: the first node's component its
/// most connected vertex, each other component, in order of their lowest vertex, that vertex.
///
/// count < 0 ("all") or count ≥ |B| gives every vertex, ascending; count = 0 gives none.
std::vector<int> select_boundary_nodes(const BoundaryGraph& graph, int count);

/// The same on the boundary-node graph of `boundary` (make_boundary_graph), in mesh vertex ids:
/// the chosen nodes in the order chosen, or all of them ascending when count < 0 or count ≥ |B|.
/// Deterministic: the result depends only on the mesh's connectivity and the set `boundary`.
std::vector<Index> select_boundary_nodes(const TetMesh& mesh, const std::vector<Index>& boundary,
                                         int count);

}  // namespace substruct
