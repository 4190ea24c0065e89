// SPDX-License-Identifier: GPL-3.0-or-later
// generate_bimaterial_bar: the bar of Huang et al. 2006, Fig. 9 — a stiff clamped half and a
// soft free half, two materials and two element sets that survive the .veg round trip.
#include "substruct/scene/bimaterial_bar_generator.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/domains/decomposition.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "substruct/domains/element_partition.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/scene/bar_generator.hpp"
#include "support/temp_dir_test.hpp"
#include "support/tet_mesh_topology.hpp"

namespace substruct {
namespace {

class BimaterialBarGenerator : public testing::TempDirTest {};

TEST_F(BimaterialBarGenerator, ClampedHalfIsStiffAndFreeHalfSoft) {
  BimaterialBarParameters p;
  std::vector<Index> fixed, tip;
  const TetMesh mesh = generate_bimaterial_bar(p, &fixed, &tip);
  // generate_bar's mesh, with two materials.
  std::vector<Index> bar_fixed, bar_tip;
  const TetMesh bar = generate_bar(BarParameters{}, &bar_fixed, &bar_tip);
  EXPECT_TRUE(mesh.vertices == bar.vertices);
  EXPECT_TRUE(mesh.tets == bar.tets);
  EXPECT_EQ(fixed, bar_fixed);
  EXPECT_EQ(tip, bar_tip);
  EXPECT_EQ(mesh.num_elements(), 2304);

  ASSERT_EQ(mesh.materials.size(), 2u);
  EXPECT_EQ(mesh.materials[0].name, "stiff");
  EXPECT_EQ(mesh.materials[1].name, "soft");
  EXPECT_EQ(mesh.materials[1].youngs_modulus, p.soft.youngs_modulus);
  EXPECT_DOUBLE_EQ(mesh.materials[0].youngs_modulus, 10 * p.soft.youngs_modulus);
  EXPECT_EQ(mesh.materials[0].density, mesh.materials[1].density);
  EXPECT_EQ(mesh.materials[0].poisson_ratio, mesh.materials[1].poisson_ratio);

  std::vector<std::string> names;
  for (const auto& [name, elements] : mesh.element_sets) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"soft", "stiff"}));
  const std::vector<int> membership = testing::set_membership(mesh);
  EXPECT_TRUE(std::all_of(membership.begin(), membership.end(), [](int c) { return c == 1; }));
  for (const auto& [name, elements] : mesh.element_sets) {
    EXPECT_EQ(elements.size(), 1152u) << name;
    EXPECT_TRUE(testing::is_face_connected(mesh, elements)) << name;
    const Index material = name == "stiff" ? 0 : 1;
    for (Index e : elements) {
      EXPECT_EQ(mesh.element_material[static_cast<std::size_t>(e)], material) << e;
      double centre = 0;
      for (int k = 0; k < 4; ++k) centre += mesh.vertices(mesh.tets(e, k), 0) / 4;
      EXPECT_EQ(centre < 0.5, name == "stiff") << e;  // the stiff half at the clamp, x = 0
    }
  }
  for (Index v : fixed) EXPECT_EQ(mesh.vertices(v, 0), 0.0);

  // The halves meet on one 5 × 5 cross-section at x = 1/2.
  const Decomposition decomposition =
      decompose(mesh, make_element_partition(mesh, "sets", std::filesystem::path(".")));
  ASSERT_EQ(decomposition.interfaces.size(), 1u);
  EXPECT_EQ(decomposition.interfaces[0].vertices.size(), 25u);
  for (Index v : decomposition.interfaces[0].vertices) EXPECT_EQ(mesh.vertices(v, 0), 0.5);
}

TEST_F(BimaterialBarGenerator, MaterialsAndSetsSurviveTheVegRoundTrip) {
  BimaterialBarParameters p;
  p.stiffness_ratio = 25;
  p.cells_x = 6;
  p.cells_y = 2;
  p.cells_z = 2;
  const TetMesh mesh = generate_bimaterial_bar(p);
  write_veg(dir() / "bimaterial.veg", mesh);
  const TetMesh back = read_veg(dir() / "bimaterial.veg");
  EXPECT_TRUE(back.vertices == mesh.vertices);
  EXPECT_TRUE(back.tets == mesh.tets);
  EXPECT_EQ(back.element_sets, mesh.element_sets);  // no extra set for the region
  EXPECT_EQ(back.element_material, mesh.element_material);
  ASSERT_EQ(back.materials.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(back.materials[k].name, mesh.materials[k].name);
    EXPECT_EQ(back.materials[k].youngs_modulus, mesh.materials[k].youngs_modulus);
  }
  EXPECT_DOUBLE_EQ(back.material_of(0).youngs_modulus, 25 * p.soft.youngs_modulus);
  EXPECT_EQ(back.material_of(back.num_elements() - 1).youngs_modulus, p.soft.youngs_modulus);
}

TEST_F(BimaterialBarGenerator, RejectsParametersOutOfRange) {
  using Change = void (*)(BimaterialBarParameters&);
  for (const auto& [what, change] : std::vector<std::pair<const char*, Change>>{
           {"odd cells along x", [](BimaterialBarParameters& p) { p.cells_x = 7; }},
           {"stiffness ratio 0", [](BimaterialBarParameters& p) { p.stiffness_ratio = 0; }},
           {"soft material named stiff", [](BimaterialBarParameters& p) { p.soft.name = "stiff"; }},
           {"E = 0", [](BimaterialBarParameters& p) { p.soft.youngs_modulus = 0; }}}) {
    BimaterialBarParameters p;
    change(p);
    EXPECT_THROW(generate_bimaterial_bar(p), Error) << what;
  }
}

}  // namespace
}  // namespace substruct
