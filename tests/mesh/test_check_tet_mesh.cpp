// SPDX-License-Identifier: GPL-3.0-or-later
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct {
namespace {

const std::filesystem::path kSource = "meshes/sample.veg";

// Two unit-corner tets sharing the face 1 2 3: (0,0,0) (1,0,0) (0,1,0) (0,0,1) and (1,1,1).
TetMesh two_tets() {
  TetMesh mesh;
  mesh.vertices.resize(5, 3);
  mesh.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1;
  mesh.tets.resize(2, 4);
  mesh.tets << 0, 1, 2, 3, 1, 2, 3, 4;
  mesh.materials = {Material{}};
  mesh.element_material = {0, 0};
  return mesh;
}

// check_tet_mesh throws ParseError(kSource, 0, "expected …") holding `fragment`.
void expect_rejected(const TetMesh& mesh, const std::string& fragment) {
  try {
    check_tet_mesh(mesh, kSource);
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.file(), kSource);
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(message.rfind(kSource.string() + ": expected ", 0), 0u) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

TEST(CheckTetMesh, AcceptsAValidMesh) {
  EXPECT_NO_THROW(check_tet_mesh(two_tets(), kSource));
}

TEST(CheckTetMesh, AcceptsInvertedElements) {
  TetMesh mesh = two_tets();
  std::swap(mesh.tets(1, 0), mesh.tets(1, 1));  // negative det Dm, still a volume
  EXPECT_NO_THROW(check_tet_mesh(mesh, kSource));
}

TEST(CheckTetMesh, RejectsNonFiniteCoordinates) {
  TetMesh mesh = two_tets();
  mesh.vertices(3, 1) = std::numeric_limits<double>::quiet_NaN();
  expect_rejected(mesh, "finite vertex coordinates, found vertex 4 (1-based) at (0, nan, 1)");
  mesh = two_tets();
  mesh.vertices(4, 0) = std::numeric_limits<double>::infinity();
  expect_rejected(mesh, "found vertex 5 (1-based) at (inf, 1, 1)");
}

TEST(CheckTetMesh, RejectsVertexIndexOutOfRange) {
  TetMesh mesh = two_tets();
  mesh.tets(1, 3) = 5;
  expect_rejected(mesh, "vertex indices of element 2 (1-based) in [1, 5], found 2 3 4 6");
  mesh.tets(1, 3) = -1;
  expect_rejected(mesh, "vertex indices of element 2 (1-based) in [1, 5], found 2 3 4 0");
}

TEST(CheckTetMesh, RejectsRepeatedVertex) {
  TetMesh mesh = two_tets();
  mesh.tets(0, 2) = 0;
  expect_rejected(mesh, "4 distinct vertices in element 1 (1-based), found 1 2 1 4");
}

TEST(CheckTetMesh, DegeneracyIsRelativeToTheLongestEdge) {
  // A flat tet: the apex at height ε over the triangle (0,0,0) (1,0,0) (0,1,0), near its
  // centroid, so h = √2 and |det Dm| = ε. The threshold is 1e-12·h³ = 2.83e-12.
  TetMesh mesh = two_tets();
  mesh.vertices.row(3) << 0.3, 0.3, 1e-11;
  mesh.vertices.row(4) << 0.3, 0.3, 2.0;  // keep element 2 a real volume
  EXPECT_NO_THROW(check_tet_mesh(mesh, kSource));
  mesh.vertices(3, 2) = 2e-12;
  expect_rejected(mesh, "element 1 (1-based) to have non-zero volume");

  // The same shapes scaled by 1e-6 give the same verdicts.
  TetMesh tiny = two_tets();
  tiny.vertices *= 1e-6;
  EXPECT_NO_THROW(check_tet_mesh(tiny, kSource));
  tiny.vertices.row(3) << 0.3e-6, 0.3e-6, 2e-18;
  expect_rejected(tiny, "element 1 (1-based) to have non-zero volume");
}

TEST(CheckTetMesh, RejectsCoincidentVertices) {
  TetMesh mesh = two_tets();
  mesh.vertices.row(4) = mesh.vertices.row(3);
  expect_rejected(mesh, "element 2 (1-based) to have non-zero volume");
}

TEST(CheckTetMesh, RejectsInconsistentMaterialsAndSets) {
  TetMesh mesh = two_tets();
  mesh.materials.clear();
  expect_rejected(mesh, "at least one material");
  mesh = two_tets();
  mesh.element_material = {0};
  expect_rejected(mesh, "one material index per element (2), found 1");
  mesh = two_tets();
  mesh.element_material = {0, 1};
  expect_rejected(mesh, "a material index of element 2 (1-based) in [0, 1), found 1");
  mesh = two_tets();
  mesh.element_sets["left"] = {0, 2};
  expect_rejected(mesh, "element ids of set 'left' in [0, 2) (0-based), found 2");
  mesh = two_tets();
  mesh.vertex_sets["fixed"] = {7};
  expect_rejected(mesh, "vertex ids of set 'fixed' in [0, 5) (0-based), found 7");
}

TEST(CheckTetMesh, RejectsAMeshWithoutElements) {
  TetMesh mesh = two_tets();
  mesh.tets.resize(0, 4);
  mesh.element_material.clear();
  expect_rejected(mesh, "at least one tetrahedron, found none");
}

}  // namespace
}  // namespace substruct
