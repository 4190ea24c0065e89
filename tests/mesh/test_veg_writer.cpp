// SPDX-License-Identifier: GPL-3.0-or-later
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

class VegWriter : public testing::TempDirTest {};

void expect_identical(const TetMesh& a, const TetMesh& b) {
  EXPECT_TRUE(a.vertices == b.vertices);  // bit-exact coordinates
  EXPECT_TRUE(a.tets == b.tets);
  ASSERT_EQ(a.materials.size(), b.materials.size());
  for (std::size_t k = 0; k < a.materials.size(); ++k) {
    EXPECT_EQ(a.materials[k].name, b.materials[k].name);
    EXPECT_EQ(a.materials[k].density, b.materials[k].density);
    EXPECT_EQ(a.materials[k].youngs_modulus, b.materials[k].youngs_modulus);
    EXPECT_EQ(a.materials[k].poisson_ratio, b.materials[k].poisson_ratio);
  }
  EXPECT_EQ(a.element_material, b.element_material);
  EXPECT_EQ(a.element_sets, b.element_sets);
}

// The beam with coordinates that have no short decimal form, two materials and two sets; the
// tip set holds exactly the soft elements.
TetMesh two_material_beam() {
  TetMesh mesh = read_veg(testing::share_dir() / "meshes" / "beam3_tet.veg");
  for (Index i = 0; i < mesh.num_vertices(); ++i)
    for (int d = 0; d < 3; ++d)
      mesh.vertices(i, d) =
          mesh.vertices(i, d) * (std::numbers::pi / 7) + 1.0 / 3.0 + std::ldexp(i, -60);
  mesh.materials.push_back({"soft", 1.0 / 3.0 * 3000, 12345.678901234567, 0.1 + 0.2});
  for (Index e = 400; e < mesh.num_elements(); ++e) {
    mesh.element_material[static_cast<std::size_t>(e)] = 1;
    mesh.element_sets["tip"].push_back(e);
  }
  mesh.element_sets["odd"] = {1, 3, 5, 401};
  return mesh;
}

TEST_F(VegWriter, RoundTripIsExact) {
  const TetMesh mesh = two_material_beam();
  const fs::path file = dir() / "beam.veg";
  write_veg(file, mesh);
  const TetMesh back = read_veg(file);
  expect_identical(mesh, back);
  EXPECT_TRUE(back.vertex_sets.empty());

  // Writing what was read gives the same bytes.
  const fs::path again = dir() / "again.veg";
  write_veg(again, back);
  EXPECT_EQ(read(file), read(again));
}

TEST_F(VegWriter, RoundTripOfAsianDragonIsExact) {
  SUBSTRUCT_REQUIRE_SHARED("asianDragon/asianDragon.veg");
  const TetMesh mesh = read_veg(testing::shared_data() / "asianDragon" / "asianDragon.veg");
  const fs::path file = dir() / "dragon.veg";
  write_veg(file, mesh);
  expect_identical(mesh, read_veg(file));
}

TEST_F(VegWriter, MaterialWithoutMatchingSetGetsAnExtraSet) {
  TetMesh mesh = two_material_beam();
  mesh.element_sets.erase("tip");
  const fs::path file = dir() / "beam.veg";
  write_veg(file, mesh);
  const TetMesh back = read_veg(file);
  EXPECT_EQ(back.element_material, mesh.element_material);
  ASSERT_EQ(back.element_sets.count("softElements"), 1u);
  const std::vector<Index>& soft = back.element_sets.at("softElements");
  ASSERT_EQ(soft.size(), 50u);
  EXPECT_EQ(soft.front(), 400);
  EXPECT_EQ(soft.back(), 449);
  EXPECT_EQ(back.element_sets.at("odd"), mesh.element_sets.at("odd"));
}

TEST_F(VegWriter, MostUsedMaterialIsTheBase) {
  TetMesh mesh = two_material_beam();
  // Make "soft" the majority: every element but the tip.
  for (Index& k : mesh.element_material) k = 1 - k;
  const fs::path file = dir() / "beam.veg";
  write_veg(file, mesh);
  const std::string text = read(file);
  EXPECT_NE(text.find("*REGION\nallElements, soft\ntip, BODY\n"), std::string::npos);
  EXPECT_EQ(read_veg(file).element_material, mesh.element_material);
}

TEST_F(VegWriter, UnwritableNamesAndFoldersAreErrors) {
  TetMesh mesh = two_material_beam();
  mesh.materials[1].name = "soft rubber";
  EXPECT_THROW(write_veg(dir() / "a.veg", mesh), Error);
  mesh = two_material_beam();
  mesh.element_sets["a,b"] = {0};
  EXPECT_THROW(write_veg(dir() / "b.veg", mesh), Error);
  mesh = two_material_beam();
  EXPECT_THROW(write_veg(dir() / "no" / "such" / "folder.veg", mesh), Error);
}

}  // namespace
}  // namespace substruct
