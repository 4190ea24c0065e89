// SPDX-License-Identifier: GPL-3.0-or-later
// Inverted tetrahedra: counted, refused with the first one named, or reoriented on request.
#include "substruct/mesh/element_orientation.hpp"

#include <string>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

TEST(ElementOrientation, ABoxMeshIsPositiveAndLeftAlone) {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 2, 2, 2);
  const Tets before = mesh.tets;
  EXPECT_EQ(count_inverted_elements(mesh), 0);
  EXPECT_EQ(orient_elements(mesh, "box.veg", false), 0);
  EXPECT_TRUE(mesh.tets == before);
}

TEST(ElementOrientation, InvertedElementsAreRefusedNamingTheFirst) {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 2, 2, 2);
  std::swap(mesh.tets(4, 0), mesh.tets(4, 3));
  std::swap(mesh.tets(9, 1), mesh.tets(9, 2));
  EXPECT_EQ(count_inverted_elements(mesh), 2);
  const std::string m = testing::error_message([&] { orient_elements(mesh, "m.veg", false); });
  EXPECT_NE(m.find("m.veg"), std::string::npos) << m;
  EXPECT_NE(m.find("found 2 inverted, the first element 5 (1-based"), std::string::npos) << m;
  EXPECT_NE(m.find("reorient_elements = true"), std::string::npos) << m;
}

TEST(ElementOrientation, ReorientingSwapsTwoVerticesOfEachInvertedElement) {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 2, 2, 2);
  const Tets positive = mesh.tets;
  std::swap(mesh.tets(4, 1), mesh.tets(4, 2));
  std::swap(mesh.tets(9, 0), mesh.tets(9, 1));
  EXPECT_EQ(orient_elements(mesh, "m.veg", true), 2);
  EXPECT_EQ(count_inverted_elements(mesh), 0);
  EXPECT_TRUE(mesh.tets.row(4) == positive.row(4));  // swapped back exactly
  for (Index e = 0; e < mesh.num_elements(); ++e)    // the same vertices in every element
    EXPECT_EQ(mesh.tets.row(e).sum(), positive.row(e).sum()) << e;
}

}  // namespace
}  // namespace substruct
