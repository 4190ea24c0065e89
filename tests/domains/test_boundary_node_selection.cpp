// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/boundary_node_selection.hpp"

#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <boost/graph/floyd_warshall_shortest.hpp>

#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"

namespace substruct {
namespace {

using Matrix = std::vector<std::vector<int>>;

/// All-pairs hop distances by Boost.Graph's Floyd–Warshall (unit edge weights), as the paper
/// computes them; kUnreachable between components.
Matrix floyd_warshall(const BoundaryGraph& g) {
  const auto n = static_cast<std::size_t>(g.num_nodes());
  Matrix d(n, std::vector<int>(n, 0));
  const auto unit = boost::make_static_property_map<BoundaryGraph::Graph::edge_descriptor>(1);
  EXPECT_TRUE(boost::floyd_warshall_all_pairs_shortest_paths(
      g.graph, d, boost::weight_map(unit).distance_inf(kUnreachable)));
  return d;
}

/// The rule, written out on the all-pairs matrix (O(count · |B|²)): the first node has the most
/// neighbours (distance 1), each next one maximises the distance to its nearest chosen node;
/// ties to the lowest index.
std::vector<int> reference_selection(const Matrix& d, int count) {
  const int n = static_cast<int>(d.size());
  std::vector<int> chosen;
  if (count < 0 || count >= n) {
    for (int i = 0; i < n; ++i) chosen.push_back(i);
    return chosen;
  }
  if (count == 0) return chosen;
  int first = -1, best_degree = -1;
  for (int i = 0; i < n; ++i) {
    const auto degree = std::count(d[i].begin(), d[i].end(), 1);
    if (degree > best_degree) first = i, best_degree = static_cast<int>(degree);
  }
  chosen.push_back(first);
  while (static_cast<int>(chosen.size()) < count) {
    int best = -1;
    long best_distance = -1;
    for (int b = 0; b < n; ++b) {
      if (std::find(chosen.begin(), chosen.end(), b) != chosen.end()) continue;
      long nearest = kUnreachable;
      for (const int c : chosen) nearest = std::min<long>(nearest, d[c][b]);
      if (nearest > best_distance) best = b, best_distance = nearest;
    }
    chosen.push_back(best);
  }
  return chosen;
}

/// Every edge of the mesh's tetrahedra, as sorted vertex pairs.
std::set<std::pair<Index, Index>> mesh_edges(const TetMesh& mesh) {
  std::set<std::pair<Index, Index>> edges;
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) edges.emplace(std::minmax(mesh.tets(e, i), mesh.tets(e, j)));
  return edges;
}

/// The vertices of the beam's cross-section at grid column i (x = i / nx of its length).
std::vector<Index> cross_section(int nx, int ny, int nz, int i) {
  std::vector<Index> ids;
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j) ids.push_back(i + (nx + 1) * (j + (ny + 1) * k));
  return ids;
}

/// Random boundaries: random subsets of a box mesh's vertices, of many sizes (most of them
/// disconnected), and the cross-sections of a beam.
struct Case {
  TetMesh mesh;
  std::vector<Index> boundary;
};
std::vector<Case> random_cases() {
  std::vector<Case> cases;
  const TetMesh box = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 4, 3, 3);
  std::mt19937 rng(20100501);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<Index> all(static_cast<std::size_t>(box.num_vertices()));
    for (Index v = 0; v < box.num_vertices(); ++v) all[static_cast<std::size_t>(v)] = v;
    std::shuffle(all.begin(), all.end(), rng);
    const auto size = std::uniform_int_distribution<std::size_t>(1, all.size())(rng);
    all.resize(size);
    cases.push_back({box, all});
  }
  const TetMesh beam = make_box_mesh(Vec3(0, 0, 0), Vec3(10, 2, 2), 10, 4, 4);
  for (const int i : {0, 3, 10}) cases.push_back({beam, cross_section(10, 4, 4, i)});
  return cases;
}

TEST(BoundaryNodeSelection, GraphHasTheMeshEdgesBetweenBoundaryNodes) {
  for (const Case& c : random_cases()) {
    const BoundaryGraph g = make_boundary_graph(c.mesh, c.boundary);
    std::vector<Index> sorted = c.boundary;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(g.nodes, sorted);
    ASSERT_EQ(g.num_nodes(), static_cast<int>(boost::num_vertices(g.graph)));
    std::set<std::pair<Index, Index>> expected;
    for (const auto& [a, b] : mesh_edges(c.mesh))
      if (std::binary_search(sorted.begin(), sorted.end(), a) &&
          std::binary_search(sorted.begin(), sorted.end(), b))
        expected.emplace(a, b);
    std::set<std::pair<Index, Index>> found;
    for (const auto e : boost::make_iterator_range(boost::edges(g.graph))) {
      const auto [a, b] =
          std::minmax(g.nodes[boost::source(e, g.graph)], g.nodes[boost::target(e, g.graph)]);
      EXPECT_TRUE(found.emplace(a, b).second) << "parallel edge " << a << "–" << b;
    }
    EXPECT_EQ(found, expected);
    for (int i = 0; i < g.num_nodes(); ++i) EXPECT_EQ(g.node_of(g.nodes[i]), i);
  }
}

TEST(BoundaryNodeSelection, HopDistancesEqualFloydWarshall) {
  int compared = 0;
  for (const Case& c : random_cases()) {
    const BoundaryGraph g = make_boundary_graph(c.mesh, c.boundary);
    const Matrix d = floyd_warshall(g);
    for (int s = 0; s < g.num_nodes(); ++s) {
      ASSERT_EQ(hop_distances_from(g, s), d[s]) << "source " << s;
      ++compared;
    }
  }
  EXPECT_GT(compared, 500);
}

TEST(BoundaryNodeSelection, SelectionMatchesTheRuleOnTheAllPairsMatrix) {
  for (const Case& c : random_cases()) {
    const BoundaryGraph g = make_boundary_graph(c.mesh, c.boundary);
    const Matrix d = floyd_warshall(g);
    const int n = g.num_nodes();
    for (int count = -1; count <= n + 1; ++count) {
      const std::vector<int> selection = select_boundary_nodes(g, count);
      ASSERT_EQ(selection, reference_selection(d, count)) << "count " << count << " of " << n;
      std::vector<Index> vertices;
      for (const int node : selection) vertices.push_back(g.nodes[node]);
      ASSERT_EQ(select_boundary_nodes(c.mesh, c.boundary, count), vertices);
    }
  }
}

TEST(BoundaryNodeSelection, FirstNodeHasTheMostNeighbours) {
  for (const Case& c : random_cases()) {
    const BoundaryGraph g = make_boundary_graph(c.mesh, c.boundary);
    if (g.num_nodes() < 2) continue;
    const int first = select_boundary_nodes(g, 1).at(0);
    for (int i = 0; i < g.num_nodes(); ++i) {
      EXPECT_LE(g.degree(i), g.degree(first));
      if (i < first) {
        EXPECT_LT(g.degree(i), g.degree(first)) << "ties go to the lowest id";
      }
    }
  }
}

TEST(BoundaryNodeSelection, AllOrMoreGivesEveryNodeAscending) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 2, 2, 2);
  const std::vector<Index> boundary = {20, 3, 7, 1, 26, 3};  // any order; repeats count once
  const std::vector<Index> all = {1, 3, 7, 20, 26};
  EXPECT_EQ(select_boundary_nodes(mesh, boundary, -1), all);
  EXPECT_EQ(select_boundary_nodes(mesh, boundary, 5), all);
  EXPECT_EQ(select_boundary_nodes(mesh, boundary, 6), all);
  EXPECT_EQ(select_boundary_nodes(mesh, boundary, 1000), all);
  EXPECT_EQ(select_boundary_nodes(mesh, boundary, 4).size(), 4u);
  EXPECT_TRUE(select_boundary_nodes(mesh, boundary, 0).empty());
  EXPECT_TRUE(select_boundary_nodes(mesh, {}, 3).empty());
  EXPECT_TRUE(select_boundary_nodes(mesh, {}, -1).empty());
}

TEST(BoundaryNodeSelection, TwoNodesOnASquareCrossSectionAreFarApart) {
  // Fig. 2(d): two constrained nodes on the square section between the bar's regions.
  for (const int cells : {3, 4, 6}) {
    const TetMesh beam = make_box_mesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 8, cells, cells);
    const std::vector<Index> section = cross_section(8, cells, cells, 4);
    const BoundaryGraph g = make_boundary_graph(beam, section);
    const std::vector<int> two = select_boundary_nodes(g, 2);
    ASSERT_EQ(two.size(), 2u);
    // The second is as far from the first as any node is (its eccentricity), and more than 0.7
    // of the side away in space (the section is the unit square).
    const std::vector<int> d = hop_distances_from(g, two[0]);
    EXPECT_EQ(d[two[1]], *std::max_element(d.begin(), d.end()));
    const double apart =
        (beam.vertices.row(g.nodes[two[0]]) - beam.vertices.row(g.nodes[two[1]])).norm();
    EXPECT_GE(apart, 0.7) << cells << "×" << cells;
    // Both on the section, the first an interior node (six neighbours in the Kuhn split).
    EXPECT_EQ(beam.vertices(g.nodes[two[0]], 0), 2.0);
    EXPECT_EQ(beam.vertices(g.nodes[two[1]], 0), 2.0);
    EXPECT_EQ(g.degree(two[0]), 6);
  }
  // 3×3 cells: the first is grid point (j, k) = (1, 1); the farthest, 3 hops away, are (3, 0)
  // and (0, 3) (the in-plane diagonals run from (j, k) to (j+1, k+1)); (3, 0) has the lower id.
  const TetMesh beam = make_box_mesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 8, 3, 3);
  const auto id = [](int j, int k) { return Index(4 + 9 * (j + 4 * k)); };
  EXPECT_EQ(select_boundary_nodes(beam, cross_section(8, 3, 3, 4), 2),
            (std::vector<Index>{id(1, 1), id(3, 0)}));
}

TEST(BoundaryNodeSelection, IsDeterministic) {
  const TetMesh beam = make_box_mesh(Vec3(0, 0, 0), Vec3(10, 2, 2), 10, 4, 4);
  std::vector<Index> section = cross_section(10, 4, 4, 5);
  const std::vector<Index> first = select_boundary_nodes(beam, section, 6);
  EXPECT_EQ(first.size(), 6u);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 5; ++trial) {
    std::shuffle(section.begin(), section.end(), rng);
    EXPECT_EQ(select_boundary_nodes(beam, section, 6), first);
  }
  // Fewer nodes are the first of more.
  for (int count = 0; count <= 6; ++count) {
    const std::vector<Index> some = select_boundary_nodes(beam, section, count);
    EXPECT_TRUE(std::equal(some.begin(), some.end(), first.begin()));
  }
}

TEST(BoundaryNodeSelection, DisconnectedBoundaryGetsOneNodePerComponentFirst) {
  // Three separate cross-sections of a beam: three components of 25 nodes.
  const TetMesh beam = make_box_mesh(Vec3(0, 0, 0), Vec3(10, 2, 2), 10, 4, 4);
  std::vector<Index> boundary;
  for (const int i : {1, 5, 8}) {
    const std::vector<Index> s = cross_section(10, 4, 4, i);
    boundary.insert(boundary.end(), s.begin(), s.end());
  }
  const BoundaryGraph g = make_boundary_graph(beam, boundary);
  const std::vector<int> three = select_boundary_nodes(g, 3);
  std::set<double> sections;
  for (const int node : three) sections.insert(beam.vertices(g.nodes[node], 0));
  EXPECT_EQ(sections, (std::set<double>{1.0, 5.0, 8.0}));
  // The components after the first get their lowest node: every node of theirs is equally
  // unreachable from the chosen ones.
  const std::vector<int> d0 = hop_distances_from(g, three[0]);
  const std::vector<int> d1 = hop_distances_from(g, three[1]);
  EXPECT_EQ(d0[three[1]], kUnreachable);
  EXPECT_EQ(d0[three[2]], kUnreachable);
  EXPECT_EQ(d1[three[2]], kUnreachable);
  for (int b = 0; b < three[1]; ++b) EXPECT_NE(d0[b], kUnreachable);
  for (int b = 0; b < three[2]; ++b) EXPECT_TRUE(d0[b] != kUnreachable || d1[b] != kUnreachable);
  // A fourth node goes back to a component already served.
  const std::vector<int> four = select_boundary_nodes(g, 4);
  EXPECT_EQ(std::vector<int>(four.begin(), four.begin() + 3), three);
}

TEST(BoundaryNodeSelection, RejectsVerticesAndSourcesOutOfRange) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 1, 1);
  EXPECT_THROW(make_boundary_graph(mesh, {0, 8}), Error);
  EXPECT_THROW(make_boundary_graph(mesh, {-1, 2}), Error);
  EXPECT_THROW(select_boundary_nodes(mesh, {0, 8}, 1), Error);
  const BoundaryGraph g = make_boundary_graph(mesh, {0, 1, 2});
  EXPECT_EQ(g.node_of(3), -1);
  EXPECT_THROW(hop_distances_from(g, 3), Error);
  EXPECT_THROW(hop_distances_from(g, -1), Error);
}

}  // namespace
}  // namespace substruct
