// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/mesh/box_mesh.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <gtest/gtest.h>
#include <Eigen/LU>

#include "substruct/core/error.hpp"

namespace substruct {
namespace {

double signed_volume(const TetMesh& mesh, Index e) {
  const Vec3 X0 = mesh.vertices.row(mesh.tets(e, 0)).transpose();
  Mat3 Dm;
  for (int c = 0; c < 3; ++c) Dm.col(c) = mesh.vertices.row(mesh.tets(e, c + 1)).transpose() - X0;
  return Dm.determinant() / 6;
}

TEST(BoxMesh, CountsAndVertexNumbering) {
  const Vec3 lower(-1, 0, 2), upper(3, 1, 2.5);
  const TetMesh mesh = make_box_mesh(lower, upper, 4, 3, 2);
  EXPECT_EQ(mesh.num_vertices(), 5 * 4 * 3);
  EXPECT_EQ(mesh.num_elements(), 6 * 4 * 3 * 2);
  ASSERT_EQ(mesh.materials.size(), 1u);
  EXPECT_EQ(mesh.element_material, std::vector<Index>(144, 0));
  // Grid point (i,j,k) is vertex i + 5(j + 4k), at lower + (upper − lower)∘(i/4, j/3, k/2).
  const Index v = 3 + 5 * (1 + 4 * 1);
  EXPECT_DOUBLE_EQ(mesh.vertices(v, 0), -1 + 4.0 * 3 / 4);
  EXPECT_DOUBLE_EQ(mesh.vertices(v, 1), 1.0 / 3);
  EXPECT_DOUBLE_EQ(mesh.vertices(v, 2), 2.25);
  // The corners are exactly the box corners.
  EXPECT_EQ(Vec3(mesh.vertices.row(0).transpose()), lower);
  EXPECT_EQ(Vec3(mesh.vertices.row(mesh.num_vertices() - 1).transpose()), upper);
  // Every vertex is used by some element.
  std::set<Index> used(mesh.tets.data(), mesh.tets.data() + mesh.tets.size());
  EXPECT_EQ(used.size(), static_cast<std::size_t>(mesh.num_vertices()));
}

TEST(BoxMesh, VolumesArePositiveEqualAndSumToTheBox) {
  const Vec3 lower(0.1, -0.2, 0.3), upper(0.7, 0.4, 1.2);
  const int nx = 3, ny = 4, nz = 5;
  const TetMesh mesh = make_box_mesh(lower, upper, nx, ny, nz);
  const double box = (upper - lower).prod();
  const double each = box / (6.0 * nx * ny * nz);
  double total = 0;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const double V = signed_volume(mesh, e);
    EXPECT_GT(V, 0) << "element " << e;
    // Each tet is 1/6 of a cell; rounding of the coordinates only (≈ 1e-16 relative).
    EXPECT_NEAR(V, each, 1e-13 * each) << "element " << e;
    total += V;
  }
  EXPECT_NEAR(total, box, 1e-13 * box);
}

TEST(BoxMesh, IsConforming) {
  // In a conforming tet mesh every interior triangle is shared by exactly two tets and boundary
  // triangles lie on the box faces; the boundary has 2 triangles per face cell.
  const int nx = 3, ny = 2, nz = 2;
  const TetMesh mesh = make_box_mesh(Vec3::Zero(), Vec3::Ones(), nx, ny, nz);
  std::map<std::tuple<Index, Index, Index>, int> faces;
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int skip = 0; skip < 4; ++skip) {
      std::vector<Index> f;
      for (int a = 0; a < 4; ++a)
        if (a != skip) f.push_back(mesh.tets(e, a));
      std::sort(f.begin(), f.end());
      ++faces[{f[0], f[1], f[2]}];
    }
  int boundary = 0;
  for (const auto& [face, count] : faces) {
    ASSERT_LE(count, 2);
    if (count == 1) ++boundary;
  }
  EXPECT_EQ(boundary, 2 * 2 * (nx * ny + ny * nz + nx * nz));
}

TEST(BoxMesh, FaceVertexSets) {
  const int nx = 2, ny = 3, nz = 4;
  const TetMesh mesh = make_box_mesh(Vec3::Zero(), Vec3(2, 3, 4), nx, ny, nz);
  const auto& xmax = mesh.vertex_sets.at("xmax");
  EXPECT_EQ(xmax.size(), static_cast<std::size_t>((ny + 1) * (nz + 1)));
  for (Index v : xmax) EXPECT_EQ(mesh.vertices(v, 0), 2.0);
  const auto& zmin = mesh.vertex_sets.at("zmin");
  EXPECT_EQ(zmin.size(), static_cast<std::size_t>((nx + 1) * (ny + 1)));
  for (Index v : zmin) EXPECT_EQ(mesh.vertices(v, 2), 0.0);
  for (const char* name : {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"})
    EXPECT_TRUE(std::is_sorted(mesh.vertex_sets.at(name).begin(), mesh.vertex_sets.at(name).end()))
        << name;
}

TEST(BoxMesh, RejectsBadArguments) {
  EXPECT_THROW(make_box_mesh(Vec3::Zero(), Vec3::Ones(), 0, 1, 1), Error);
  EXPECT_THROW(make_box_mesh(Vec3::Zero(), Vec3(1, 0, 1), 1, 1, 1), Error);
  EXPECT_THROW(make_box_mesh(Vec3::Zero(), Vec3::Ones(), 1000, 1000, 1000), Error);
}

}  // namespace
}  // namespace substruct
