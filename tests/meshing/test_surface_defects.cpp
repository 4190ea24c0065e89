// SPDX-License-Identifier: GPL-3.0-or-later
// first_surface_defect: closed surfaces pass, and each kind of defect is named with its first
// triangles and how many there are.
#include <string>

#include <gtest/gtest.h>

#include "substruct/meshing/surface_defects.hpp"
#include "support/icosphere.hpp"

namespace substruct {
namespace {

using testing::box_surface;
using testing::icosphere;

// `s` without its triangle t (0-based).
SurfaceMesh without(const SurfaceMesh& s, Eigen::Index t) {
  SurfaceMesh out = s;
  out.triangles = Triangles(s.triangles.rows() - 1, 3);
  for (Eigen::Index i = 0, k = 0; i < s.triangles.rows(); ++i)
    if (i != t) out.triangles.row(k++) = s.triangles.row(i);
  return out;
}

void expect_has(const std::string& message, const std::string& fragment) {
  EXPECT_NE(message.find(fragment), std::string::npos) << message;
}

TEST(SurfaceDefects, ClosedSurfacesHaveNone) {
  EXPECT_EQ(first_surface_defect(icosphere(3)), "");
  EXPECT_EQ(first_surface_defect(box_surface(1, 2, 3)), "");
}

TEST(SurfaceDefects, AnOpenSurfaceNamesItsFirstOpenEdge) {
  const std::string m = first_surface_defect(without(box_surface(1, 1, 1), 0));
  expect_has(m,
             "the surface is open: the edge of vertices 1 and 2 at (0, 0, 0) belongs to "
             "triangle 4 only (3 open edges in all)");
}

TEST(SurfaceDefects, FlippedDuplicateDegenerateAndNonManifold) {
  SurfaceMesh s = box_surface(1, 1, 1);
  std::swap(s.triangles(3, 1), s.triangles(3, 2));
  expect_has(first_surface_defect(s), "the surface is not consistently oriented: triangles");

  s = box_surface(1, 1, 1);
  s.triangles.conservativeResize(13, 3);
  s.triangles.row(12) = s.triangles.row(4);
  expect_has(first_surface_defect(s), "triangles 5 and 13 are the same triangle");

  s = box_surface(1, 1, 1);
  s.triangles(2, 2) = s.triangles(2, 0);
  expect_has(first_surface_defect(s), "triangle 3 has no area (vertices 5 6 5");

  // Two boxes sharing the edge (0,0,0)–(0,0,1) only: four triangles on that edge.
  SurfaceMesh a = box_surface(1, 1, 1), b = box_surface(1, 1, 1);
  b.vertices.col(0) *= -1;
  b.vertices.col(1) *= -1;
  SurfaceMesh two = testing::merged(a, b);
  // Share the edge's vertices: b's 0 and 4 are a's 0 and 4.
  for (Eigen::Index t = 12; t < 24; ++t)
    for (int k = 0; k < 3; ++k)
      if (two.triangles(t, k) == 8 || two.triangles(t, k) == 12) two.triangles(t, k) -= 8;
  expect_has(first_surface_defect(two),
             "the surface is not manifold: the edge of vertices 1 and 5");
}

TEST(SurfaceDefects, TwoSpheresThatOverlapCrossEachOther) {
  const SurfaceMesh a = icosphere(2), b = icosphere(2, 1.0, Vec3(1.2, 0.1, 0.05));
  SurfaceMesh s = testing::merged(a, b);
  const std::string m = first_surface_defect(s);
  expect_has(m, "the surface crosses itself: triangles ");
  // Apart, the two spheres are two closed surfaces and no defect.
  s.vertices.bottomRows(b.vertices.rows()).col(0).array() += 1.0;
  EXPECT_EQ(first_surface_defect(s), "");
}

}  // namespace
}  // namespace substruct
