// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/domain_graph.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/domains/decomposition.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

ElementPartition per_cell(const TetMesh& mesh) {
  ElementPartition p;
  p.num_domains = mesh.num_elements() / 6;
  for (Index e = 0; e < mesh.num_elements(); ++e) p.domain_of_element.push_back(e / 6);
  return p;
}

/// One domain per cell of an nx×ny×nz box of unit cubes.
Decomposition cubes(int nx, int ny, int nz) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(nx, ny, nz), nx, ny, nz);
  return decompose(mesh, per_cell(mesh));
}

using testing::error_message;

TEST(DomainGraph, ThreeCubesInARowFormAPath) {
  const Decomposition dec = cubes(3, 1, 1);
  const DomainGraph graph(dec.num_domains(), dec.interfaces);
  EXPECT_EQ(graph.num_domains(), 3);
  EXPECT_EQ(graph.edges(), (std::vector<DomainEdge>{{0, 1, 0}, {1, 2, 1}}));
  EXPECT_EQ(graph.neighbors(0), std::vector<int>{1});
  EXPECT_EQ(graph.neighbors(1), (std::vector<int>{0, 2}));
  EXPECT_TRUE(graph.is_tree());
  EXPECT_TRUE(graph.find_cycle().empty());
  EXPECT_EQ(graph.connected_components(), (std::vector<std::vector<int>>{{0, 1, 2}}));

  const TreeView t = graph.rooted_at(0);
  EXPECT_EQ(t.root, 0);
  EXPECT_EQ(t.bfs_order, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.depth, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.parent, (std::vector<int>{-1, 0, 1}));
  EXPECT_EQ(t.parent_edge, (std::vector<int>{-1, 0, 1}));
  EXPECT_EQ(t.parent_interface, (std::vector<int>{-1, 0, 1}));
  EXPECT_EQ(t.children, (std::vector<std::vector<int>>{{1}, {2}, {}}));
  EXPECT_EQ(t.path(2, 0), (std::vector<int>{2, 1, 0}));

  const TreeView mid = graph.rooted_at(1);
  EXPECT_EQ(mid.bfs_order, (std::vector<int>{1, 0, 2}));
  EXPECT_EQ(mid.depth, (std::vector<int>{1, 0, 1}));
  EXPECT_EQ(mid.children[1], (std::vector<int>{0, 2}));
  EXPECT_EQ(mid.path(0, 2), (std::vector<int>{0, 1, 2}));
}

TEST(DomainGraph, RootHoldsTheMostFixedVerticesOrIsACentre) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(3, 1, 1), 3, 1, 1);
  const Decomposition dec = decompose(mesh, per_cell(mesh));
  const DomainGraph graph(dec.num_domains(), dec.interfaces);
  EXPECT_EQ(graph.choose_root(mesh.vertex_sets.at("xmax"), dec), 2);
  EXPECT_EQ(graph.choose_root(mesh.vertex_sets.at("xmin"), dec), 0);
  // The plane x = 2 (vertices 2, 6, 10, 14) lies in cubes 1 and 2: a tie, lowest id wins.
  EXPECT_EQ(graph.choose_root({2, 6, 10, 14}, dec), 1);
  // Vertex 1 (x = 1) is in cubes 0 and 1, vertices 3 and 7 (x = 3) in cube 2 only: 1, 1, 2.
  EXPECT_EQ(graph.choose_root({1, 3, 7}, dec), 2);
  EXPECT_EQ(graph.choose_root({}, dec), 1);  // the middle of the path
  EXPECT_THROW(graph.choose_root({-1}, dec), Error);
  EXPECT_THROW(graph.choose_root({1000}, dec), Error);
}

TEST(DomainGraph, CentreOfTreesAndOfGraphsWithCycles) {
  const Decomposition five = cubes(5, 1, 1);  // only its domain count matters here
  const auto centre = [&](std::vector<std::pair<int, int>> edges) {
    return DomainGraph(5, edges).choose_root({}, five);
  };
  EXPECT_EQ(centre({{0, 1}, {1, 2}, {2, 3}, {3, 4}}), 2);
  EXPECT_EQ(centre({{4, 3}, {3, 0}, {0, 2}, {2, 1}}), 0);  // path 4–3–0–2–1
  EXPECT_EQ(centre({{0, 1}, {1, 2}, {2, 3}, {1, 4}}), 1);  // 1 reaches every domain in ≤ 2
  // Path 3–4–1–0 plus 2 hanging off 0: centres 4 and 1 (eccentricity 2), the lower wins.
  EXPECT_EQ(centre({{3, 4}, {4, 1}, {1, 0}, {0, 2}}), 1);
  // Triangle 0–1–2 with a tail 2–3–4: domains 2 and 3 reach all others in 2 steps.
  EXPECT_EQ(centre({{0, 1}, {1, 2}, {0, 2}, {2, 3}, {3, 4}}), 2);
  // Ring of five: every domain is 2 steps from its farthest; the lowest id wins.
  EXPECT_EQ(centre({{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}), 0);
}

/// Eccentricity of every domain by a BFS from each (the definition, for checking).
std::vector<int> eccentricities(const DomainGraph& graph) {
  const int n = graph.num_domains();
  std::vector<int> ecc(n, 0);
  for (int s = 0; s < n; ++s) {
    std::vector<int> dist(n, -1);
    std::vector<int> queue{s};
    dist[s] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (const int w : graph.neighbors(queue[head]))
        if (dist[w] < 0) {
          dist[w] = dist[queue[head]] + 1;
          queue.push_back(w);
        }
    ecc[s] = *std::max_element(dist.begin(), dist.end());
  }
  return ecc;
}

TEST(DomainGraph, CentreIsTheLowestDomainOfLeastEccentricity) {
  // Irregular connected graphs: a random tree plus random extra edges (fixed LCG seed).
  std::uint32_t state = 12345;
  const auto next = [&](std::uint32_t bound) {
    state = state * 1664525u + 1013904223u;
    return static_cast<int>((state >> 8) % bound);
  };
  for (const int n : {7, 40, 150}) {
    const Decomposition dec = cubes(n, 1, 1);
    for (int trial = 0; trial < 12; ++trial) {
      std::set<std::pair<int, int>> edges;
      for (int v = 1; v < n; ++v) edges.emplace(next(v), v);
      const int extra = trial % 4 == 0 ? 0 : next(n / 2 + 1);
      for (int k = 0; k < extra; ++k) {
        const int a = next(n), b = next(n);
        if (a != b) edges.emplace(std::min(a, b), std::max(a, b));
      }
      const DomainGraph graph(n, std::vector<std::pair<int, int>>(edges.begin(), edges.end()));
      const std::vector<int> ecc = eccentricities(graph);
      const int expected = static_cast<int>(std::min_element(ecc.begin(), ecc.end()) - ecc.begin());
      EXPECT_EQ(graph.choose_root({}, dec), expected)
          << n << " domains, " << edges.size() << " edges, trial " << trial;
    }
  }
}

TEST(DomainGraph, RingOfFourCubesHasOneLoop) {
  // 2×2×1 cubes: with rank ≥ 2 only the four shared faces count: the ring 0–1–3–2–0.
  const Decomposition dec = cubes(2, 2, 1);
  ASSERT_EQ(dec.interfaces.size(), 6u);  // 4 faces and 2 diagonal edges
  const DomainGraph ring(4, dec.interfaces, 2);
  ASSERT_EQ(ring.edges().size(), 4u);
  EXPECT_FALSE(ring.is_tree());
  EXPECT_EQ(ring.find_cycle(), (std::vector<int>{0, 1, 3, 2}));
  EXPECT_EQ(ring.connected_components().size(), 1u);

  const SpanningTree span = ring.spanning_tree(0);
  ASSERT_EQ(span.removed_edges.size(), 1u);
  const DomainEdge removed = span.removed_edges[0];
  EXPECT_EQ(removed.a, 2);
  EXPECT_EQ(removed.b, 3);
  EXPECT_EQ(dec.interfaces[removed.interface].a, 2);
  EXPECT_EQ(dec.interfaces[removed.interface].b, 3);
  EXPECT_EQ(span.tree.depth, (std::vector<int>{0, 1, 1, 2}));
  EXPECT_EQ(span.tree.parent, (std::vector<int>{-1, 0, 0, 1}));
  // The removed edge closes the loop it came from.
  EXPECT_EQ(span.tree.path(removed.a, removed.b), (std::vector<int>{2, 0, 1, 3}));

  const std::string msg = error_message([&] { ring.rooted_at(0); });
  EXPECT_NE(msg.find("domain graph has a cycle: 0 → 1 → 3 → 2 → 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("resolve_loops = spanning-tree"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("not connected"), std::string::npos) << msg;

  const DomainGraph tree = ring.without_edges({{3, 2}});
  EXPECT_TRUE(tree.is_tree());
  const TreeView t = tree.rooted_at(0);
  EXPECT_EQ(t.parent, span.tree.parent);
  for (int d = 1; d < 4; ++d) {
    const Interface& f = dec.interfaces[t.parent_interface[d]];
    EXPECT_EQ(std::min(d, t.parent[d]), f.a);
    EXPECT_EQ(std::max(d, t.parent[d]), f.b);
  }
  EXPECT_EQ(t.parent_interface[0], -1);
  // Edges keep their interface indices.
  for (const DomainEdge& e : tree.edges()) {
    EXPECT_EQ(dec.interfaces[e.interface].a, e.a);
    EXPECT_EQ(dec.interfaces[e.interface].b, e.b);
  }
  EXPECT_THROW(ring.without_edges({{0, 3}}), Error);  // not neighbours

  // With the diagonal (line) interfaces too, the graph is complete: 3 of its 6 edges go.
  const DomainGraph all(4, dec.interfaces);
  EXPECT_EQ(all.edges().size(), 6u);
  EXPECT_EQ(all.spanning_tree(0).removed_edges.size(), 3u);
}

TEST(DomainGraph, RingFromAnEdgeList) {
  const DomainGraph ring(4, std::vector<std::pair<int, int>>{{3, 0}, {0, 1}, {2, 1}, {2, 3}});
  EXPECT_EQ(ring.edges(), (std::vector<DomainEdge>{{0, 1, 1}, {0, 3, 0}, {1, 2, 2}, {2, 3, 3}}));
  EXPECT_EQ(ring.neighbors(0), (std::vector<int>{1, 3}));
  EXPECT_EQ(ring.find_cycle(), (std::vector<int>{0, 1, 2, 3}));
  const SpanningTree span = ring.spanning_tree(1);
  ASSERT_EQ(span.removed_edges.size(), 1u);
  // From 1: 0 and 2, then 3 from 0 (lower); the edge 2–3 is left over.
  EXPECT_EQ(span.removed_edges[0], (DomainEdge{2, 3, 3}));
  EXPECT_EQ(span.tree.bfs_order, (std::vector<int>{1, 0, 2, 3}));
  // A copy is an independent, equal graph.
  DomainGraph copy = ring;
  EXPECT_EQ(copy.edges(), ring.edges());
  copy = copy.without_edges({{0, 1}});
  EXPECT_TRUE(copy.is_tree());
  EXPECT_FALSE(ring.is_tree());
}

TEST(DomainGraph, DisconnectedBoxesAreReportedWithTheirComponents) {
  // Two boxes far apart in one mesh: 2 cubes at the origin, 3 cubes at x = 10.
  const TetMesh a = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  const TetMesh b = make_box_mesh(Vec3(10, 0, 0), Vec3(13, 1, 1), 3, 1, 1);
  TetMesh mesh = a;
  mesh.vertices.conservativeResize(a.num_vertices() + b.num_vertices(), 3);
  mesh.vertices.bottomRows(b.num_vertices()) = b.vertices;
  mesh.tets.conservativeResize(a.num_elements() + b.num_elements(), 4);
  mesh.tets.bottomRows(b.num_elements()) = b.tets.array() + a.num_vertices();
  mesh.element_material.assign(mesh.num_elements(), 0);
  mesh.vertex_sets.clear();
  const Decomposition dec = decompose(mesh, per_cell(mesh));
  ASSERT_EQ(dec.num_domains(), 5);
  const DomainGraph graph(dec.num_domains(), dec.interfaces);
  EXPECT_FALSE(graph.is_tree());
  EXPECT_TRUE(graph.find_cycle().empty());
  EXPECT_EQ(graph.connected_components(), (std::vector<std::vector<int>>{{0, 1}, {2, 3, 4}}));
  const std::string msg = error_message([&] { graph.rooted_at(0); });
  EXPECT_NE(msg.find("domain graph is not connected: components {0,1} and {2,3,4}"),
            std::string::npos)
      << msg;
  EXPECT_EQ(msg.find("cycle"), std::string::npos) << msg;
  const std::string span = error_message([&] { graph.spanning_tree(0); });
  EXPECT_NE(span.find("components {0,1} and {2,3,4}"), std::string::npos) << span;
}

TEST(DomainGraph, CycleAndSplitAreReportedTogether) {
  const DomainGraph graph(6, std::vector<std::pair<int, int>>{{2, 5}, {5, 4}, {4, 2}, {0, 1}});
  EXPECT_EQ(graph.find_cycle(), (std::vector<int>{2, 4, 5}));
  EXPECT_EQ(graph.connected_components(), (std::vector<std::vector<int>>{{0, 1}, {2, 4, 5}, {3}}));
  const std::string msg = error_message([&] { graph.rooted_at(2); });
  EXPECT_NE(msg.find("cycle: 2 → 4 → 5 → 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("components {0,1}, {2,4,5} and {3}"), std::string::npos) << msg;
}

TEST(DomainGraph, RejectsMalformedEdges) {
  using Edges = std::vector<std::pair<int, int>>;
  const auto message_for = [](const Edges& edges) {
    return error_message([&] { DomainGraph(3, edges); });
  };
  EXPECT_NE(message_for({{1, 1}}).find("to itself"), std::string::npos);
  EXPECT_NE(message_for({{0, 1}, {1, 0}}).find("twice"), std::string::npos);
  EXPECT_NE(message_for({{0, 3}}).find("outside 0…2"), std::string::npos);
  const DomainGraph graph(3, Edges{{0, 1}, {1, 2}});
  EXPECT_THROW(graph.rooted_at(3), Error);
  EXPECT_THROW(graph.neighbors(-1), Error);
}

TEST(DomainGraph, LargeCombTreeIsRootedAtItsCentre) {
  // A comb: a spine 0…49 with a tooth of 19 domains below each spine domain (1000 domains).
  std::vector<std::pair<int, int>> edges;
  for (int s = 0; s + 1 < 50; ++s) edges.emplace_back(s, s + 1);
  for (int s = 0; s < 50; ++s) {
    int prev = s;
    for (int k = 0; k < 19; ++k) {
      const int d = 50 + 19 * s + k;
      edges.emplace_back(prev, d);
      prev = d;
    }
  }
  const DomainGraph graph(1000, edges);
  ASSERT_TRUE(graph.is_tree());
  const TreeView t = graph.rooted_at(0);
  EXPECT_EQ(t.bfs_order.size(), 1000u);
  EXPECT_EQ(*std::max_element(t.depth.begin(), t.depth.end()), 49 + 19);
  for (const int d : t.bfs_order) {
    if (d != 0) {
      EXPECT_EQ(t.depth[d], t.depth[t.parent[d]] + 1);
    }
  }
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1000, 1, 1), 1000, 1, 1);
  const Decomposition dec = decompose(mesh, per_cell(mesh));
  // Longest path: tooth end of spine 0 (depth 19) … tooth end of spine 49: 19 + 49 + 19 = 87
  // edges; its middle lies on the spine, 43.5 steps from either end: spine domains 24 and 25.
  EXPECT_EQ(graph.choose_root({}, dec), 24);
}

}  // namespace
}  // namespace substruct
