// SPDX-License-Identifier: GPL-3.0-or-later
// domains = bands:N: geodesic bands from the clamp, split into pieces and merged so that the
// domain graph is a tree rooted at the clamped domain, on a beam and on a ring whose two arms
// meet again.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/domains/band_partition.hpp"
#include "substruct/domains/decomposition.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

std::vector<Index> vertices_where(const TetMesh& mesh, bool (*pick)(double x, double y)) {
  std::vector<Index> out;
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    if (pick(mesh.vertices(v, 0), mesh.vertices(v, 1))) out.push_back(v);
  return out;
}

// The graph of domains sharing vertices is a tree, and every fixed vertex's elements are in
// one domain.
void expect_tree_rooted_at_clamp(const TetMesh& mesh, const ElementPartition& p,
                                 const std::vector<Index>& fixed) {
  const Decomposition d = decompose(mesh, p);
  const DomainGraph graph(p.num_domains, d.interfaces);
  EXPECT_TRUE(graph.is_tree()) << p.num_domains << " domains, " << graph.edges().size() << " edges";
  std::set<int> clamped;
  const std::set<Index> fixed_set(fixed.begin(), fixed.end());
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int k = 0; k < 4; ++k)
      if (fixed_set.count(mesh.tets(e, k)) != 0)
        clamped.insert(p.domain_of_element[static_cast<std::size_t>(e)]);
  EXPECT_EQ(clamped, (std::set<int>{0}));
}

TEST(BandPartition, ABeamClampedAtOneEndIsAChainOfBands) {
  const TetMesh beam = make_box_mesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 16, 4, 4);
  const auto fixed = vertices_where(beam, [](double x, double) { return x == 0; });
  const ElementPartition p = geodesic_band_partition(beam, fixed, 4);
  EXPECT_EQ(p.num_domains, 4);
  expect_tree_rooted_at_clamp(beam, p, fixed);
  // The same through the scene's spec.
  EXPECT_EQ(make_element_partition(beam, "bands:4", ".", fixed).domain_of_element,
            p.domain_of_element);
}

TEST(BandPartition, ARingWhoseArmsMeetAgainHasNoLoop) {
  // A 5 × 5 cell square without its middle 3 × 3 cells, clamped at one corner: the bands run
  // both ways round and meet at the opposite corner.
  const TetMesh box = make_box_mesh(Vec3(0, 0, 0), Vec3(5, 5, 1), 5, 5, 1);
  TetMesh ring = box;
  std::vector<Index> kept;
  for (Index e = 0; e < box.num_elements(); ++e) {
    const Index cell = e / 6, i = cell % 5, j = cell / 5;
    if (i == 0 || i == 4 || j == 0 || j == 4) kept.push_back(e);
  }
  ring.tets = Tets(static_cast<Eigen::Index>(kept.size()), 4);
  for (std::size_t k = 0; k < kept.size(); ++k)
    ring.tets.row(static_cast<Eigen::Index>(k)) = box.tets.row(kept[k]);
  ring.element_material.assign(kept.size(), 0);
  const auto fixed = vertices_where(ring, [](double x, double y) { return x <= 1 && y <= 1; });
  for (const int bands : {2, 3, 6}) {
    SCOPED_TRACE(bands);
    const ElementPartition p = geodesic_band_partition(ring, fixed, bands);
    EXPECT_GE(p.num_domains, 2);
    expect_tree_rooted_at_clamp(ring, p, fixed);
  }
  // METIS's cut of the same ring has a loop: what bands are for.
  const ElementPartition metis = metis_element_partition(ring, 4);
  EXPECT_FALSE(DomainGraph(4, decompose(ring, metis).interfaces).is_tree());
}

TEST(BandPartition, WithoutFixedVerticesOrWithABadCountItSaysWhy) {
  const TetMesh beam = make_box_mesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 4, 1, 1);
  EXPECT_NE(testing::error_message([&] {
              geodesic_band_partition(beam, {}, 3);
            }).find("the scene has none"),
            std::string::npos);
  EXPECT_NE(testing::error_message([&] {
              make_element_partition(beam, "bands:x", ".", {0});
            }).find("expected bands:N with N a positive integer"),
            std::string::npos);
}

}  // namespace
}  // namespace substruct
