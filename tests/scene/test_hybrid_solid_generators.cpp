// SPDX-License-Identifier: GPL-3.0-or-later
// generate_hybrid_bar and generate_limb: the scenes of Yang et al. 2010 — the rigid parts' own
// materials, element sets that partition the mesh and survive the .veg round trip (so that
// `domains = sets` reads them back), and the boundaries the hybrid method glues.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/domains/decomposition.hpp"
#include "substruct/domains/element_partition.hpp"
#include "substruct/domains/hybrid_regions.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/scene/hybrid_bar_generator.hpp"
#include "substruct/scene/limb_generator.hpp"
#include "support/temp_dir_test.hpp"
#include "support/tet_mesh_topology.hpp"

namespace substruct {
namespace {

class HybridSolidGenerators : public testing::TempDirTest {
 protected:
  // The mesh written as .veg and read back, partitioned by its element sets.
  ElementPartition round_trip(const TetMesh& mesh, TetMesh& read) {
    write_veg(dir() / "m.veg", mesh);
    read = read_tet_mesh(dir() / "m.veg");
    return make_element_partition(read, "sets", dir());
  }
};

TEST_F(HybridSolidGenerators, TheHybridBarHasThePapersSizeAndARigidMiddle) {
  std::vector<Index> fixed, tip, free_end;
  const TetMesh mesh = generate_hybrid_bar(HybridBarParameters{}, &fixed, &tip, &free_end);
  EXPECT_EQ(mesh.num_elements(), 324);  // the paper's Bar1: 323
  EXPECT_EQ(fixed.size(), 8u);
  EXPECT_EQ(free_end.size(), 8u);
  for (Index v : free_end) EXPECT_DOUBLE_EQ(mesh.vertices(v, 0), 0.9);
  ASSERT_EQ(mesh.materials.size(), 2u);
  EXPECT_EQ(mesh.materials[1].name, "rigid");
  EXPECT_DOUBLE_EQ(mesh.materials[1].youngs_modulus, 1000 * mesh.materials[0].youngs_modulus);
  TetMesh read;
  const ElementPartition partition = round_trip(mesh, read);
  ASSERT_EQ(partition.num_domains, 3);
  const HybridRegions regions = hybrid_regions(read, partition, {false, true, false});
  ASSERT_EQ(regions.boundaries.size(), 2u);
  for (const RegionBoundary& b : regions.boundaries)
    EXPECT_EQ(b.vertices.size(), 8u);  // Fig. 2c: "all eight boundary nodes"
  for (Index e = 0; e < read.num_elements(); ++e)
    EXPECT_EQ(read.material_of(e).name == "rigid",
              partition.domain_of_element[static_cast<std::size_t>(e)] == 1)
        << e;
}

TEST_F(HybridSolidGenerators, SeveralRigidDomainsEachHaveTheirOwnMaterial) {
  HybridBarParameters p;
  p.cells_x = 10;
  p.domains = 5;
  p.rigid_domains = {1, 3};
  const TetMesh mesh = generate_hybrid_bar(p);
  ASSERT_EQ(mesh.materials.size(), 3u);
  EXPECT_EQ(mesh.materials[1].name, "rigid1");
  EXPECT_EQ(mesh.materials[2].name, "rigid3");
  TetMesh read;
  const ElementPartition partition = round_trip(mesh, read);  // no overlapping sets
  EXPECT_EQ(partition.num_domains, 5);
  p.rigid_domains = {5};
  EXPECT_THROW(generate_hybrid_bar(p), Error);
}

TEST_F(HybridSolidGenerators, TheLimbsBonesFloatInsideTheFlesh) {
  std::vector<Index> fixed, foot;
  const TetMesh mesh = generate_limb(LimbParameters{}, &fixed, &foot);
  EXPECT_EQ(mesh.num_elements(), 1920);
  EXPECT_EQ(fixed.size(), 25u);
  EXPECT_EQ(foot.size(), 4u);
  const std::vector<int> membership = testing::set_membership(mesh);
  EXPECT_TRUE(std::all_of(membership.begin(), membership.end(), [](int c) { return c == 1; }));
  EXPECT_EQ(mesh.element_sets.at("bone0").size(), 7u * 4 * 6);  // 7 layers × 2 × 2 cells
  EXPECT_EQ(mesh.element_sets.at("bone1").size(), 7u * 4 * 6);
  for (const char* bone : {"bone0", "bone1"})
    EXPECT_TRUE(testing::is_face_connected(mesh, mesh.element_sets.at(bone))) << bone;
  TetMesh read;
  const ElementPartition partition = round_trip(mesh, read);
  ASSERT_EQ(partition.num_domains, 3);  // bone0, bone1, flesh
  const HybridRegions regions = hybrid_regions(read, partition, {true, true, false});
  ASSERT_EQ(regions.boundaries.size(), 2u);
  // each bone's whole surface: 8 × 3 × 3 grid points less the 6 inside
  for (const RegionBoundary& b : regions.boundaries) EXPECT_EQ(b.vertices.size(), 66u);
  for (Index v : fixed)  // the bones do not reach the hip
    for (const RegionBoundary& b : regions.boundaries)
      EXPECT_FALSE(std::binary_search(b.vertices.begin(), b.vertices.end(), v));
  LimbParameters bad;
  bad.shin_end = 20;  // no flesh beyond the foot's bone
  EXPECT_THROW(generate_limb(bad), Error);
}

}  // namespace
}  // namespace substruct
