// SPDX-License-Identifier: GPL-3.0-or-later
// voxelize_surface: cubes whose centres are inside, conforming tets, the largest piece kept.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/meshing/voxel_mesher.hpp"
#include "support/icosphere.hpp"
#include "support/temp_dir_test.hpp"
#include "support/tet_mesh_topology.hpp"

namespace substruct {
namespace {

double volume_of(const TetMesh& mesh) {
  double v = 0;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    EXPECT_GT(testing::signed_volume(mesh, e), 0) << e;
    v += testing::signed_volume(mesh, e);
  }
  return v;
}

TEST(VoxelMesher, ABoxOnItsOwnGridIsFilledExactly) {
  VoxelMeshReport r;
  const TetMesh mesh = voxelize_surface(testing::box_surface(2, 1, 0.5), 8, &r);
  EXPECT_EQ(r.dims[0], 8);
  EXPECT_EQ(r.dims[1], 4);
  EXPECT_EQ(r.dims[2], 2);
  EXPECT_EQ(r.inside_cells, 64);
  EXPECT_EQ(r.kept_cells, 64);
  EXPECT_EQ(mesh.num_elements(), 6 * 64);
  EXPECT_EQ(mesh.num_vertices(), 9 * 5 * 3);
  EXPECT_NEAR(volume_of(mesh), 1.0, 1e-12);
  const testing::FaceCounts faces = testing::count_faces(mesh);
  EXPECT_EQ(faces.other, 0);
  EXPECT_TRUE(faces.boundary_is_closed_manifold);
  EXPECT_EQ(faces.euler_characteristic, 2);
}

TEST(VoxelMesher, ASphereAndTwoOverlappingCopiesOfItFillTheBall) {
  const SurfaceMesh sphere = testing::icosphere(4);
  const TetMesh one = voxelize_surface(sphere, 20);
  EXPECT_NEAR(volume_of(one), 4.0 / 3 * std::numbers::pi, 0.05 * 4.0 / 3 * std::numbers::pi);
  // The same surface twice (every triangle duplicated): crossings counted once, same ball.
  SurfaceMesh twice = sphere;
  twice.triangles = Triangles(2 * sphere.triangles.rows(), 3);
  twice.triangles << sphere.triangles, sphere.triangles;
  const TetMesh two = voxelize_surface(twice, 20);
  EXPECT_EQ(two.num_elements(), one.num_elements());
  EXPECT_EQ(testing::count_faces(two).other, 0);
}

TEST(VoxelMesher, TheLargestPieceIsKeptAndAnEmptyGridIsAnError) {
  const SurfaceMesh big = testing::icosphere(2, 1.0),
                    small = testing::icosphere(2, 0.3, Vec3(3, 0, 0));
  const SurfaceMesh both = testing::merged(big, small);
  VoxelMeshReport r;
  const TetMesh mesh = voxelize_surface(both, 40, &r);
  EXPECT_GT(r.inside_cells, r.kept_cells);
  EXPECT_EQ(6 * r.kept_cells, mesh.num_elements());
  EXPECT_LT(mesh.vertices.col(0).maxCoeff(), 1.1);  // the small ball at x = 3 is dropped
  const std::string message =
      testing::error_message([&] { voxelize_surface(both, 1); });  // its centre between them
  EXPECT_NE(message.find("voxels: no cube of"), std::string::npos) << message;
}

}  // namespace
}  // namespace substruct
