// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/fem/tet_geometry.hpp"

#include <string>

#include <gtest/gtest.h>
#include <Eigen/LU>

#include "substruct/core/error.hpp"

namespace substruct {
namespace {

TetMesh one_tet(const Mat3& edges, const Vec3& origin = Vec3::Zero()) {
  TetMesh mesh;
  mesh.vertices.resize(4, 3);
  mesh.vertices.row(0) = origin.transpose();
  for (int c = 0; c < 3; ++c) mesh.vertices.row(c + 1) = (origin + edges.col(c)).transpose();
  mesh.tets.resize(1, 4);
  mesh.tets << 0, 1, 2, 3;
  mesh.materials = {Material{}};
  mesh.element_material = {0};
  return mesh;
}

TEST(TetGeometry, UnitRightTet) {
  const TetGeometry g = TetGeometry::build(one_tet(Mat3::Identity()));
  ASSERT_EQ(g.volume.size(), 1u);
  EXPECT_DOUBLE_EQ(g.volume[0], 1.0 / 6);
  EXPECT_EQ(g.Dm_inv[0], Mat3::Identity());
}

TEST(TetGeometry, OrientationDoesNotMatter) {
  Mat3 edges;
  edges << 0.3, -0.1, 0.05,  //
      0.02, 0.4, -0.07,      //
      0.01, 0.03, 0.5;
  TetMesh mesh = one_tet(edges, Vec3(1, 2, 3));
  const double expected = std::abs(edges.determinant()) / 6;
  ASSERT_GT(edges.determinant(), 0);
  // The same tet stored with the opposite orientation (two vertices swapped).
  mesh.tets.conservativeResize(2, 4);
  mesh.tets.row(1) << 0, 2, 1, 3;
  mesh.element_material = {0, 0};
  const TetGeometry g = TetGeometry::build(mesh);
  EXPECT_NEAR(g.volume[0], expected, 1e-15 * expected);
  EXPECT_NEAR(g.volume[1], expected, 1e-15 * expected);
  // Dm⁻¹ inverts each element's own Dm: F = I at rest for either orientation.
  Mat3 Dm1;
  Dm1 << edges.col(1), edges.col(0), edges.col(2);
  EXPECT_LT((g.Dm_inv[0] * edges - Mat3::Identity()).norm(), 1e-14);
  EXPECT_LT((g.Dm_inv[1] * Dm1 - Mat3::Identity()).norm(), 1e-14);
}

TEST(TetGeometry, ShapeGradientsReproduceAffineMaps) {
  Mat3 edges;
  edges << 0.2, 0.05, -0.03,  //
      0.0, 0.3, 0.1,          //
      -0.04, 0.02, 0.25;
  const TetMesh mesh = one_tet(edges, Vec3(-0.5, 0.2, 0.1));
  const TetGeometry g = TetGeometry::build(mesh);
  const Eigen::Matrix<double, 4, 3> G = shape_gradients(g.Dm_inv[0]);
  // Σ_a ∇N_a = 0 (the N_a sum to one).
  EXPECT_LT(G.colwise().sum().norm(), 1e-13 * G.norm());
  // For x = A X + b: Σ_a x_a ∇N_aᵀ = A.
  Mat3 A;
  A << 1.1, 0.2, -0.3,  //
      0.4, 0.9, 0.05,   //
      -0.2, 0.1, 1.3;
  const Vec3 b(0.3, -0.7, 2.0);
  Mat3 F = Mat3::Zero();
  for (int a = 0; a < 4; ++a) F += (A * mesh.vertices.row(a).transpose() + b) * G.row(a);
  EXPECT_LT((F - A).norm(), 1e-13 * A.norm());
  // N_a(X) = δ_a0 + ∇N_a·(X − X₀) is 1 at vertex a and 0 at the others.
  for (int a = 0; a < 4; ++a)
    for (int c = 0; c < 4; ++c) {
      const double Na =
          (a == 0 ? 1.0 : 0.0) + G.row(a).dot(mesh.vertices.row(c) - mesh.vertices.row(0));
      EXPECT_NEAR(Na, a == c ? 1.0 : 0.0, 1e-13) << "N_" << a << " at vertex " << c;
    }
}

TEST(TetGeometry, DegenerateTetThrowsNamingTheElement) {
  TetMesh mesh = one_tet(Mat3::Identity());
  mesh.vertices.conservativeResize(5, 3);
  mesh.vertices.row(4) << 0.5, 0.5, 0.0;  // in the plane of vertices 0, 1, 2
  mesh.tets.conservativeResize(2, 4);
  mesh.tets.row(1) << 0, 1, 2, 4;
  mesh.element_material = {0, 0};
  try {
    TetGeometry::build(mesh);
    FAIL() << "a flat tet was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("element 1 "), std::string::npos) << what;
    EXPECT_NE(what.find("degenerate"), std::string::npos) << what;
  }
}

TEST(TetGeometry, NearlyFlatButValidTetIsAccepted) {
  // V / h³ = 1e-9: thin, but above the 1e-12 threshold.
  Mat3 edges = Mat3::Identity();
  edges(2, 2) = 6e-9;
  const TetGeometry g = TetGeometry::build(one_tet(edges));
  EXPECT_NEAR(g.volume[0], 1e-9, 1e-24);
}

TEST(TetGeometry, VertexOutOfRangeThrowsNamingTheElement) {
  TetMesh mesh = one_tet(Mat3::Identity());
  mesh.tets(0, 2) = 4;
  try {
    TetGeometry::build(mesh);
    FAIL() << "an out-of-range vertex index was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("element 0 "), std::string::npos) << what;
    EXPECT_NE(what.find("vertex 4"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace substruct
