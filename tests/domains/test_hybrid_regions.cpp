// SPDX-License-Identifier: GPL-3.0-or-later
// Regions of a hybrid solid (Yang et al. 2010): same-type domains that share a face merge, the
// deformable–rigid boundaries are found, degenerate boundaries are errors naming the regions.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/domains/element_partition.hpp"
#include "substruct/domains/hybrid_regions.hpp"
#include "substruct/mesh/box_mesh.hpp"

namespace substruct {
namespace {

// A bar of n cells along x, one domain per cell (6 tets each).
ElementPartition cell_domains(const TetMesh& mesh, int cells) {
  ElementPartition p;
  p.num_domains = cells;
  for (Index e = 0; e < mesh.num_elements(); ++e) p.domain_of_element.push_back(e / 6);
  return p;
}

TEST(HybridRegions, FaceAdjacentDomainsOfOneTypeMergeAndBoundariesSitBetweenTypes) {
  const TetMesh bar = make_box_mesh(Vec3(0, 0, 0), Vec3(5, 1, 1), 5, 1, 1);
  // cells: D D R R D → regions {0,1} deformable, {2,3} rigid, {4} deformable
  const HybridRegions r =
      hybrid_regions(bar, cell_domains(bar, 5), {false, false, true, true, false});
  ASSERT_EQ(r.regions.size(), 3u);
  EXPECT_EQ(r.regions[0].domains, (std::vector<int>{0, 1}));
  EXPECT_TRUE(r.regions[1].rigid);
  EXPECT_EQ(r.regions[1].domains, (std::vector<int>{2, 3}));
  EXPECT_EQ(r.region_of_domain, (std::vector<int>{0, 0, 1, 1, 2}));
  EXPECT_EQ(r.regions[2].elements.size(), 6u);
  ASSERT_EQ(r.boundaries.size(), 2u);
  EXPECT_EQ(r.boundaries[0].deformable, 0);
  EXPECT_EQ(r.boundaries[0].rigid, 1);
  EXPECT_EQ(r.boundaries[0].vertices.size(), 4u);  // the x = 2 cross-section
  for (Index v : r.boundaries[0].vertices) EXPECT_EQ(bar.vertices(v, 0), 2.0);
  EXPECT_EQ(r.boundaries[1].deformable, 2);
  for (Index v : r.boundaries[1].vertices) EXPECT_EQ(bar.vertices(v, 0), 4.0);
}

TEST(HybridRegions, AllOneTypeHasNoBoundary) {
  const TetMesh bar = make_box_mesh(Vec3(0, 0, 0), Vec3(3, 1, 1), 3, 1, 1);
  const HybridRegions r = hybrid_regions(bar, cell_domains(bar, 3), {true, true, true});
  EXPECT_EQ(r.regions.size(), 1u);
  EXPECT_TRUE(r.boundaries.empty());
}

TEST(HybridRegions, ABoundaryAlongAnEdgeIsAnErrorNamingTheRegions) {
  // The cells (0,0) and (1,1) of a 2×2×1 block: they touch along the edge x = y = 1 only.
  const TetMesh full = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 2, 1), 2, 2, 1);
  TetMesh block = full;
  block.tets.resize(12, 4);
  block.element_material.assign(12, 0);
  block.element_sets.clear();
  ElementPartition p;
  p.num_domains = 2;
  for (int k = 0; k < 2; ++k)
    for (int t = 0; t < 6; ++t) {
      block.tets.row(6 * k + t) = full.tets.row(6 * (k == 0 ? 0 : 3) + t);
      p.domain_of_element.push_back(k);
    }
  // Same type: two regions that touch along an edge stay separate, and that is fine.
  EXPECT_EQ(hybrid_regions(block, p, {false, false}).regions.size(), 2u);
  try {
    hybrid_regions(block, p, {false, true});
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("deformable region 0 (domains 0)"), std::string::npos) << what;
    EXPECT_NE(what.find("rigid region 1 (domains 1)"), std::string::npos) << what;
    EXPECT_NE(what.find("degenerate"), std::string::npos) << what;
  }
}

TEST(HybridRegions, WrongFlagCountIsAnError) {
  const TetMesh bar = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  EXPECT_THROW(hybrid_regions(bar, cell_domains(bar, 2), {true}), Error);
}

}  // namespace
}  // namespace substruct
