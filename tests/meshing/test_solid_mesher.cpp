// SPDX-License-Identifier: GPL-3.0-or-later
// tetrahedralize_surface (Gmsh): the tets fill exactly the closed surface's volume, their
// boundary is the surface's triangles, the surface's vertices come first and unchanged.
#include <algorithm>
#include <array>
#include <set>

#include <gtest/gtest.h>

#include "substruct/meshing/solid_mesher.hpp"
#include "support/icosphere.hpp"
#include "support/tet_mesh_topology.hpp"

namespace substruct {
namespace {

void expect_fills(const SurfaceMesh& surface, const TetMesh& mesh) {
  ASSERT_GE(mesh.num_vertices(), surface.vertices.rows());
  EXPECT_TRUE(mesh.vertices.topRows(surface.vertices.rows()) == surface.vertices);
  double volume = 0;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const double v = testing::signed_volume(mesh, e);
    EXPECT_GT(v, 0) << e;
    volume += v;
  }
  EXPECT_NEAR(volume, testing::enclosed_volume(surface), 1e-12 * volume);
  std::set<testing::Face> boundary, triangles;
  for (const auto& [face, tets] : testing::faces_of(mesh)) {
    EXPECT_LE(tets.size(), 2u);
    if (tets.size() == 1) boundary.insert(face);
  }
  for (Eigen::Index t = 0; t < surface.triangles.rows(); ++t) {
    testing::Face f = {surface.triangles(t, 0), surface.triangles(t, 1), surface.triangles(t, 2)};
    std::sort(f.begin(), f.end());
    triangles.insert(f);
  }
  EXPECT_EQ(boundary, triangles);
}

TEST(SolidMesher, AnIcosphereIsFilledWithQualityTetsBoundedByItsTriangles) {
  const SurfaceMesh sphere = testing::icosphere(3);
  const TetMesh mesh = tetrahedralize_surface(sphere);
  expect_fills(sphere, mesh);
  EXPECT_GT(mesh.num_elements(), 2 * sphere.triangles.rows());
  const TetQuality q = tet_quality(mesh);
  EXPECT_GT(q.min_dihedral_degrees, 5.0);
  EXPECT_LT(q.max_radius_edge, 3.0);
  // A smaller size inside gives more tets, and the same boundary.
  const TetMesh fine = tetrahedralize_surface(sphere, {0.05});
  expect_fills(sphere, fine);
  EXPECT_GT(fine.num_elements(), 2 * mesh.num_elements());
}

TEST(SolidMesher, ABoxIsFilledExactly) {
  const SurfaceMesh box = testing::box_surface(2, 1, 0.5);
  expect_fills(box, tetrahedralize_surface(box));
}

TEST(SolidMesher, TheRegularTetHasTheBestQuality) {
  TetMesh t;
  t.vertices = Points(4, 3);
  t.vertices << 1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1;
  t.tets = Tets(1, 4);
  t.tets << 0, 1, 2, 3;
  const TetQuality q = tet_quality(t);
  EXPECT_NEAR(q.min_dihedral_degrees, std::acos(1.0 / 3) * 180 / M_PI, 1e-9);
  EXPECT_NEAR(q.max_radius_edge, std::sqrt(6.0) / 4, 1e-12);
}

}  // namespace
}  // namespace substruct
