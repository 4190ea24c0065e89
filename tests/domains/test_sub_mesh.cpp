// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/sub_mesh.hpp"

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"

namespace substruct {
namespace {

/// 3×1×1 box of unit cubes; cell c holds elements 6c … 6c+5; cells 1 and 2 of a second material.
TetMesh three_cubes() {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(3, 1, 1), 3, 1, 1);
  Material soft;
  soft.name = "soft";
  soft.youngs_modulus = 1e5;
  mesh.materials.push_back(soft);
  for (Index e = 6; e < 18; ++e) mesh.element_material[e] = 1;
  mesh.element_sets["middle"] = {6, 7, 8, 9, 10, 11};
  mesh.element_sets["ends"] = {0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17};
  mesh.element_sets["mixed"] = {5, 6, 11, 12};
  return mesh;
}

TEST(SubMesh, MiddleCubeKeepsGeometryMaterialsAndMaps) {
  const TetMesh mesh = three_cubes();
  const SubMesh sub = extract_sub_mesh(mesh, {6, 7, 8, 9, 10, 11}, 1);
  EXPECT_EQ(sub.domain, 1);
  ASSERT_EQ(sub.mesh.num_elements(), 6);
  ASSERT_EQ(sub.mesh.num_vertices(), 8);
  // The middle cube's corners are the grid points with x ∈ {1, 2}, in increasing global id.
  const std::vector<Index> expected{1, 2, 5, 6, 9, 10, 13, 14};
  EXPECT_EQ(sub.global_vertex, expected);
  EXPECT_EQ(sub.global_element, (std::vector<Index>{6, 7, 8, 9, 10, 11}));
  for (Index l = 0; l < sub.mesh.num_vertices(); ++l) {
    EXPECT_EQ(sub.local_vertex(sub.global_vertex[l]), l);
    EXPECT_EQ(Vec3(sub.mesh.vertices.row(l).transpose()),
              Vec3(mesh.vertices.row(sub.global_vertex[l]).transpose()));
  }
  for (Index k = 0; k < 6; ++k) {
    EXPECT_EQ(sub.local_element(6 + k), k);
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(sub.global_vertex[sub.mesh.tets(k, i)], mesh.tets(6 + k, i));
    EXPECT_EQ(sub.mesh.element_material[k], 1);
    EXPECT_EQ(sub.mesh.material_of(k).name, "soft");
  }
  EXPECT_EQ(sub.local_vertex(0), -1);   // x = 0: not in the middle cube
  EXPECT_EQ(sub.local_vertex(15), -1);  // x = 3
  EXPECT_EQ(sub.local_element(5), -1);
  EXPECT_EQ(sub.local_element(12), -1);
  ASSERT_EQ(sub.mesh.materials.size(), 2u);
  EXPECT_EQ(sub.mesh.materials[1].youngs_modulus, 1e5);
}

TEST(SubMesh, NamedSetsAreRestrictedAndRenumbered) {
  const TetMesh mesh = three_cubes();
  const SubMesh sub = extract_sub_mesh(mesh, {6, 7, 8, 9, 10, 11}, 1);
  EXPECT_EQ(sub.mesh.element_sets.at("middle"), (std::vector<Index>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(sub.mesh.element_sets.at("mixed"), (std::vector<Index>{0, 5}));
  EXPECT_EQ(sub.mesh.element_sets.count("ends"), 0u);  // empty here: dropped
  // Vertex sets: the cube touches ymin (4 corners) but neither xmin nor xmax.
  EXPECT_EQ(sub.mesh.vertex_sets.count("xmin"), 0u);
  EXPECT_EQ(sub.mesh.vertex_sets.count("xmax"), 0u);
  const auto& ymin = sub.mesh.vertex_sets.at("ymin");
  ASSERT_EQ(ymin.size(), 4u);
  for (const Index l : ymin) EXPECT_EQ(sub.mesh.vertices(l, 1), 0.0);
}

TEST(SubMesh, ScatteredElementsKeepTheirOrder) {
  const TetMesh mesh = three_cubes();
  const SubMesh sub = extract_sub_mesh(mesh, {0, 17}, 4);
  ASSERT_EQ(sub.mesh.num_elements(), 2);
  // Elements 0 and 17 are the first tet of cube 0 and the last of cube 2; they share no vertex.
  EXPECT_EQ(sub.mesh.num_vertices(), 8);
  for (Index k = 0; k < 2; ++k)
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(sub.global_vertex[sub.mesh.tets(k, i)], mesh.tets(k == 0 ? 0 : 17, i));
  EXPECT_EQ(sub.mesh.element_material, (std::vector<Index>{0, 1}));
}

TEST(SubMesh, RejectsUnsortedOrMissingElements) {
  const TetMesh mesh = three_cubes();
  EXPECT_THROW(extract_sub_mesh(mesh, {3, 2}, 0), Error);
  EXPECT_THROW(extract_sub_mesh(mesh, {2, 2}, 0), Error);
  EXPECT_THROW(extract_sub_mesh(mesh, {18}, 0), Error);
  EXPECT_THROW(extract_sub_mesh(mesh, {-1}, 0), Error);
}

}  // namespace
}  // namespace substruct
