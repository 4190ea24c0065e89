// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/interface.hpp"

#include <map>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"

namespace substruct {
namespace {

ElementPartition per_cell(const TetMesh& mesh) {
  ElementPartition p;
  p.num_domains = mesh.num_elements() / 6;
  for (Index e = 0; e < mesh.num_elements(); ++e) p.domain_of_element.push_back(e / 6);
  return p;
}

Points points(std::initializer_list<Vec3> list) {
  Points p(static_cast<Eigen::Index>(list.size()), 3);
  Eigen::Index i = 0;
  for (const Vec3& x : list) p.row(i++) = x.transpose();
  return p;
}

std::vector<Index> all_of(const Points& p) {
  std::vector<Index> ids;
  for (Index i = 0; i < p.rows(); ++i) ids.push_back(i);
  return ids;
}

TEST(Interface, AffineRankOfPointLinePlaneSolid) {
  const Points one = points({Vec3(1, 2, 3)});
  EXPECT_EQ(affine_rank(one, all_of(one)), 0);
  const Points same = points({Vec3(1, 2, 3), Vec3(1, 2, 3), Vec3(1, 2, 3)});
  EXPECT_EQ(affine_rank(same, all_of(same)), 0);
  // A tilted line through non-representable points: rounding must not raise the rank.
  const Vec3 o(0.1, 0.7, -0.3), d(1.0 / 3, 2.0 / 7, -1.0 / 11);
  const Points line = points({o, o + 0.3 * d, o + 1.7 * d, o - 2.9 * d, o + 1e3 * d});
  EXPECT_EQ(affine_rank(line, all_of(line)), 1);
  const Vec3 u(0.6, -0.8, 0.0), w(0.48, 0.36, -0.8);
  const Points plane = points({o, o + u, o + w, o + 0.3 * u - 2.0 * w, o + 5.0 * u + 0.1 * w});
  EXPECT_EQ(affine_rank(plane, all_of(plane)), 2);
  const Points solid = points({o, o + u, o + w, o + u.cross(w) * 1e-3});
  EXPECT_EQ(affine_rank(solid, all_of(solid)), 3);
  // Only the listed vertices count.
  EXPECT_EQ(affine_rank(solid, {0, 1, 2}), 2);
  EXPECT_EQ(affine_rank(solid, {3}), 0);
}

TEST(Interface, ThreeCubesInARowMeetInTwoSquares) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(3, 1, 1), 3, 1, 1);
  const auto interfaces = find_interfaces(mesh, per_cell(mesh));
  ASSERT_EQ(interfaces.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    const Interface& f = interfaces[k];
    EXPECT_EQ(f.a, k);
    EXPECT_EQ(f.b, k + 1);
    EXPECT_EQ(f.rank, 2);
    ASSERT_EQ(f.vertices.size(), 4u);
    // Grid points (k+1, j, l): vertex (k+1) + 4(j + 2l).
    EXPECT_EQ(f.vertices, (std::vector<Index>{k + 1, k + 5, k + 9, k + 13}));
    for (const Index v : f.vertices) EXPECT_EQ(mesh.vertices(v, 0), k + 1.0);
  }
}

TEST(Interface, CubesOfA2x2x2BlockMeetInFacesEdgesAndACorner) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 2, 2), 2, 2, 2);
  const auto interfaces = find_interfaces(mesh, per_cell(mesh));
  // Every pair of the 8 cubes touches: 12 share a face, 12 an edge, 4 only the centre point.
  ASSERT_EQ(interfaces.size(), 28u);
  std::map<int, int> count_of_rank;
  for (std::size_t k = 0; k < interfaces.size(); ++k) {
    const Interface& f = interfaces[k];
    ++count_of_rank[f.rank];
    if (k > 0) {
      const Interface& g = interfaces[k - 1];
      EXPECT_TRUE(g.a < f.a || (g.a == f.a && g.b < f.b)) << "interfaces sorted by (a, b)";
    }
    // Cell c = i + 2j + 4k: the cubes differ in as many axes as 3 − rank.
    const int differing = ((f.a ^ f.b) & 1) + (((f.a ^ f.b) >> 1) & 1) + (((f.a ^ f.b) >> 2) & 1);
    EXPECT_EQ(f.rank, 3 - differing) << "cubes " << f.a << " and " << f.b;
    const std::size_t expected_size = differing == 1 ? 4 : differing == 2 ? 2 : 1;
    EXPECT_EQ(f.vertices.size(), expected_size) << "cubes " << f.a << " and " << f.b;
  }
  EXPECT_EQ(count_of_rank[2], 12);
  EXPECT_EQ(count_of_rank[1], 12);
  EXPECT_EQ(count_of_rank[0], 4);
  // Cubes 0 and 7 share only the centre (1, 1, 1): grid point 1 + 3(1 + 3·1) = 13.
  EXPECT_EQ(interfaces.back().a, 6);
  for (const Interface& f : interfaces) {
    if (f.a == 0 && f.b == 7) {
      EXPECT_EQ(f.vertices, std::vector<Index>{13});
    }
  }
}

TEST(Interface, LineShapedInterfaceIsDegenerate) {
  // A 2×2×1 block: diagonal cubes (0,3) and (1,2) touch only along the vertical edge x = y = 1.
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 2, 1), 2, 2, 1);
  const auto interfaces = find_interfaces(mesh, per_cell(mesh));
  ASSERT_EQ(interfaces.size(), 6u);
  for (const Interface& f : interfaces) {
    const bool diagonal = (f.a == 0 && f.b == 3) || (f.a == 1 && f.b == 2);
    EXPECT_EQ(f.rank, diagonal ? 1 : 2) << f.a << "–" << f.b;
    EXPECT_EQ(f.vertices.size(), diagonal ? 2u : 4u) << f.a << "–" << f.b;
    if (diagonal) {
      EXPECT_EQ(f.vertices, (std::vector<Index>{4, 13}));
    }
  }
}

TEST(Interface, OneDomainHasNoInterfaceAndBadPartitionsAreRejected) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  EXPECT_TRUE(find_interfaces(mesh, ElementPartition{std::vector<int>(12, 0), 1}).empty());
  EXPECT_THROW(find_interfaces(mesh, ElementPartition{std::vector<int>(11, 0), 1}), Error);
  EXPECT_THROW(find_interfaces(mesh, ElementPartition{std::vector<int>(12, 0), 2}), Error);
}

}  // namespace
}  // namespace substruct
