// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/vertex_partition.hpp"

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

/// One domain per cell of a box mesh (cell c owns elements 6c … 6c+5).
ElementPartition per_cell(const TetMesh& mesh) {
  ElementPartition p;
  p.num_domains = mesh.num_elements() / 6;
  for (Index e = 0; e < mesh.num_elements(); ++e) p.domain_of_element.push_back(e / 6);
  return p;
}

TEST(VertexPartition, FromElementsGivesSharedVerticesToTheLowestDomain) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(3, 1, 1), 3, 1, 1);
  const VertexPartition p = vertex_partition_from_elements(mesh, per_cell(mesh));
  ASSERT_EQ(p.num_domains, 3);
  ASSERT_EQ(p.domain_of_vertex.size(), 16u);
  for (Index v = 0; v < mesh.num_vertices(); ++v) {
    // Planes x = 0, 1 → domain 0; x = 2 → domain 1 (shared by cells 1 and 2); x = 3 → domain 2.
    const int x = static_cast<int>(mesh.vertices(v, 0));
    const int expected = x <= 1 ? 0 : x - 1;
    EXPECT_EQ(p.domain_of_vertex[v], expected) << "vertex " << v << " at x = " << x;
  }
  EXPECT_EQ(std::count(p.domain_of_vertex.begin(), p.domain_of_vertex.end(), 0), 8);
  EXPECT_EQ(std::count(p.domain_of_vertex.begin(), p.domain_of_vertex.end(), 1), 4);
  EXPECT_EQ(std::count(p.domain_of_vertex.begin(), p.domain_of_vertex.end(), 2), 4);
}

TEST(VertexPartition, FromElementsRejectsDomainsLeftWithoutVertices) {
  // One domain per tet of a single cube: tets 1…4 each bring one new corner, tet 5 (corners
  // 0, 5, 1, 7) none, so domain 5 keeps nothing of its own.
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 1, 1);
  const ElementPartition per_tet{{0, 1, 2, 3, 4, 5}, 6};
  const std::string msg =
      testing::error_message([&] { vertex_partition_from_elements(mesh, per_tet); });
  EXPECT_NE(msg.find("domain 5 has no vertex of its own"), std::string::npos) << msg;
}

TEST(VertexPartition, MetisSplitsTheVertexGraphDeterministically) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(8, 2, 2), 8, 2, 2);  // 81 vertices
  const VertexPartition p = metis_vertex_partition(mesh, 3);
  ASSERT_EQ(p.num_domains, 3);
  std::vector<int> size(3, 0);
  for (const int d : p.domain_of_vertex) {
    ASSERT_GE(d, 0);
    ASSERT_LT(d, 3);
    ++size[d];
  }
  for (int d = 0; d < 3; ++d) {
    EXPECT_GE(size[d], 25) << "domain " << d;  // 27 each when perfectly balanced
    EXPECT_LE(size[d], 29) << "domain " << d;
  }
  EXPECT_EQ(metis_vertex_partition(mesh, 3).domain_of_vertex, p.domain_of_vertex);
  EXPECT_EQ(metis_vertex_partition(mesh, 1).domain_of_vertex, std::vector<int>(81, 0));
}

TEST(VertexPartition, MetisLeavesUnusedVerticesOutAndChecksTheCount) {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);  // 12 vertices used
  mesh.vertices.conservativeResize(13, 3);
  mesh.vertices.row(12) << 5, 5, 5;  // no element uses it
  const VertexPartition p = metis_vertex_partition(mesh, 2);
  EXPECT_EQ(p.domain_of_vertex[12], -1);
  EXPECT_EQ(std::count(p.domain_of_vertex.begin(), p.domain_of_vertex.end(), -1), 1);
  EXPECT_GT(std::count(p.domain_of_vertex.begin(), p.domain_of_vertex.end(), 0), 0);
  EXPECT_GT(std::count(p.domain_of_vertex.begin(), p.domain_of_vertex.end(), 1), 0);
  EXPECT_THROW(metis_vertex_partition(mesh, 13), Error);
  EXPECT_THROW(metis_vertex_partition(mesh, 0), Error);
  const VertexPartition from_elements =
      vertex_partition_from_elements(mesh, ElementPartition{std::vector<int>(12, 0), 1});
  EXPECT_EQ(from_elements.domain_of_vertex[12], -1);
}

}  // namespace
}  // namespace substruct
