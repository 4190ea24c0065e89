// SPDX-License-Identifier: GPL-3.0-or-later
// The render surface: barycentric embedding in the tets (exact under any affine deformation,
// inside or outside the mesh), the boundary surface of a tet mesh (closed, outward) and smooth
// vertex normals.
#include <map>
#include <random>
#include <utility>

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "substruct/geometry/render_embedding.hpp"
#include "substruct/geometry/render_surface.hpp"
#include "substruct/mesh/box_mesh.hpp"

namespace substruct {
namespace {

TEST(RenderEmbedding, ReproducesAnAffineDeformationExactlyInsideAndOutside) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 0.5), 6, 3, 2);
  std::mt19937 random(5);
  std::uniform_real_distribution<double> u(-0.2, 1.2);  // some points outside the box
  const Points points =
      Points::NullaryExpr(300, 3, [&] { return u(random); }) * Vec3(2, 1, 0.5).asDiagonal();
  const RenderEmbedding e = embed_points(mesh, points);
  ASSERT_EQ(e.size(), 300);
  Mat3 A;
  A << 1.2, 0.3, -0.1, 0.05, 0.9, 0.2, -0.3, 0.1, 1.1;
  const Vec3 b(0.4, -1, 2);
  Points deformed = (mesh.vertices * A.transpose()).rowwise() + b.transpose();
  Points y;
  embedded_positions(e, deformed, y);
  const Points expected = (points * A.transpose()).rowwise() + b.transpose();
  EXPECT_LT((y - expected).cwiseAbs().maxCoeff(), 1e-12);
  for (Index k = 0; k < e.size(); ++k) {
    EXPECT_NEAR(e.weights.row(k).sum(), 1.0, 1e-12);
    const Vec3 p = points.row(k).transpose();
    const bool inside = (p.array() >= 0).all() && (p.array() <= Vec3(2, 1, 0.5).array()).all();
    if (inside) {
      EXPECT_EQ(e.distance[k], 0.0) << "point " << k;
      EXPECT_GE(e.weights.row(k).minCoeff(), -1e-12) << "point " << k;
    } else {
      EXPECT_GT(e.distance[k], 0.0) << "point " << k;
    }
  }
}

TEST(RenderEmbedding, AnOutsidePointGoesToTheNearestTet) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 8, 2, 2);
  Points p(1, 3);
  p << 4.3, 0.5, 0.5;  // 0.3 beyond the x = 4 face
  const RenderEmbedding e = embed_points(mesh, p);
  EXPECT_NEAR(e.distance[0], 0.3, 1e-12);
  for (int a = 0; a < 4; ++a) EXPECT_GE(mesh.vertices(e.vertices(0, a), 0), 3.5 - 1e-12);
}

TEST(BoundaryTriangles, AreTheClosedOutwardSurfaceOfTheMesh) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(3, 2, 1), 3, 2, 1);
  const Triangles t = boundary_triangles(mesh);
  EXPECT_EQ(t.rows(), 2 * 2 * (3 * 2 + 2 * 1 + 3 * 1));  // two triangles per boundary cell face
  // Closed and consistently oriented: every directed edge appears once, its reverse once.
  std::map<std::pair<Index, Index>, int> edges;
  for (Eigen::Index f = 0; f < t.rows(); ++f)
    for (int a = 0; a < 3; ++a) ++edges[{t(f, a), t(f, (a + 1) % 3)}];
  for (const auto& [edge, count] : edges) {
    EXPECT_EQ(count, 1);
    EXPECT_EQ(edges.count({edge.second, edge.first}), 1u);
  }
  // Outward: the divergence theorem gives the box's volume with a + sign.
  double volume = 0;
  for (Eigen::Index f = 0; f < t.rows(); ++f) {
    const Vec3 a = mesh.vertices.row(t(f, 0)), b = mesh.vertices.row(t(f, 1)),
               c = mesh.vertices.row(t(f, 2));
    volume += a.dot(b.cross(c)) / 6;
  }
  EXPECT_NEAR(volume, 6.0, 1e-12);
}

TEST(ClosedAndOriented, HoldsForATetBoundaryAndFailsForAHoleOrAFlippedFace) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(3, 2, 1), 3, 2, 1);
  Triangles t = boundary_triangles(mesh);
  EXPECT_TRUE(is_closed_and_oriented(t));
  EXPECT_TRUE(render_surface(mesh, nullptr).closed);
  Triangles flipped = t;
  std::swap(flipped(4, 0), flipped(4, 1));
  EXPECT_FALSE(is_closed_and_oriented(flipped));
  const Triangles open = t.topRows(t.rows() - 1);  // a hole
  EXPECT_FALSE(is_closed_and_oriented(open));
  EXPECT_FALSE(is_closed_and_oriented(Triangles(0, 3)));
  // An open render mesh (one triangle) is not culled.
  SurfaceMesh sheet;
  sheet.vertices = Points(3, 3);
  sheet.vertices << 0.5, 0.5, 0.5, 1.5, 0.5, 0.5, 0.5, 1.5, 0.5;
  sheet.triangles = Triangles(1, 3);
  sheet.triangles << 0, 1, 2;
  EXPECT_FALSE(render_surface(mesh, &sheet).closed);
}

TEST(VertexNormals, AreTheFaceNormalOnAFlatFaceAndUnitLength) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 2, 2, 2);
  const Triangles t = boundary_triangles(mesh);
  Points n;
  vertex_normals(mesh.vertices, t, n);
  // Grid point (1, 1, 0) is the middle of the z = 0 face: normal −z; (1, 1, 1) is interior.
  const Index face_middle = 1 + 3 * (1 + 3 * 0);
  EXPECT_LT((n.row(face_middle).transpose() - Vec3(0, 0, -1)).norm(), 1e-12);
  const Index interior = 1 + 3 * (1 + 3 * 1);
  EXPECT_EQ(n.row(interior).norm(), 0.0);
  const Index corner = 0;
  EXPECT_NEAR(n.row(corner).norm(), 1.0, 1e-12);
  EXPECT_GT(n.row(corner).dot(Vec3(-1, -1, -1).transpose()), 0.0) << "points out of the corner";
}

}  // namespace
}  // namespace substruct
