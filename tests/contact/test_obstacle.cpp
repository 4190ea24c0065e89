// SPDX-License-Identifier: GPL-3.0-or-later
// The obstacles' signed distances, normals and normal derivatives: values at known points, and
// ∂n/∂x against central differences of n.
#include "substruct/contact/obstacle.hpp"

#include <gtest/gtest.h>

namespace substruct {
namespace {

Obstacle plane(const Vec3& n, double D) {
  Obstacle o;
  o.shape = ObstacleShape::plane;
  o.a = n.normalized();
  o.size = D;
  return o;
}
Obstacle sphere(const Vec3& c, double R) {
  Obstacle o;
  o.shape = ObstacleShape::sphere;
  o.a = c;
  o.size = R;
  return o;
}
Obstacle capsule(const Vec3& A, const Vec3& B, double R) {
  Obstacle o;
  o.shape = ObstacleShape::capsule;
  o.a = A;
  o.b = B;
  o.size = R;
  return o;
}
Obstacle box(const Vec3& c, const Vec3& half) {
  Obstacle o;
  o.shape = ObstacleShape::box;
  o.a = c;
  o.b = half;
  return o;
}

TEST(Obstacle, SignedDistancesAndNormalsAtKnownPoints) {
  const SurfaceDistance p = surface_distance(plane(Vec3(0, 2, 0), -0.5), Vec3(3, -0.7, 1));
  EXPECT_NEAR(p.distance, -0.2, 1e-15);
  EXPECT_EQ(p.normal, Vec3(0, 1, 0));
  // Translated by (0, 1, 0): the plane y = 0.5.
  EXPECT_NEAR(surface_distance(plane(Vec3(0, 1, 0), -0.5), Vec3(0, 0.7, 0), Vec3(0, 1, 0)).distance,
              0.2, 1e-15);

  const SurfaceDistance s = surface_distance(sphere(Vec3(1, 0, 0), 0.5), Vec3(1, 0.3, 0.4));
  EXPECT_NEAR(s.distance, 0.0, 1e-15);
  EXPECT_TRUE(s.normal.isApprox(Vec3(0, 0.6, 0.8), 1e-15));

  const Obstacle c = capsule(Vec3(0, 0, 0), Vec3(0, 0, 2), 0.25);
  EXPECT_NEAR(surface_distance(c, Vec3(0.2, 0, 1)).distance, -0.05, 1e-15);  // the cylinder
  EXPECT_NEAR(surface_distance(c, Vec3(0, 0, 2.5)).distance, 0.25, 1e-15);   // the cap at B
  EXPECT_TRUE(surface_distance(c, Vec3(0, 0, -1)).normal.isApprox(Vec3(0, 0, -1)));

  const Obstacle b = box(Vec3(0, 0, 0), Vec3(1, 2, 3));
  const SurfaceDistance inside = surface_distance(b, Vec3(0.5, -1.9, 0));  // nearest face y = −2
  EXPECT_NEAR(inside.distance, -0.1, 1e-15);
  EXPECT_EQ(inside.normal, Vec3(0, -1, 0));
  EXPECT_EQ(inside.curvature, Mat3::Zero());
  const SurfaceDistance corner = surface_distance(b, Vec3(4, 6, 3));  // beyond x and y: (3, 4)
  EXPECT_NEAR(corner.distance, 5.0, 1e-14);
  EXPECT_TRUE(corner.normal.isApprox(Vec3(0.6, 0.8, 0), 1e-15));
}

// ∂n/∂x = (I − n nᵀ [− t tᵀ])/ρ against central differences, for the curved shapes.
TEST(Obstacle, NormalDerivativeMatchesFiniteDifferences) {
  const std::vector<std::pair<Obstacle, Vec3>> cases = {
      {sphere(Vec3(0.1, 0.2, 0.3), 0.5), Vec3(0.4, 0.5, 0.1)},
      {capsule(Vec3(0, 0, 0), Vec3(1, 1, 0), 0.3), Vec3(0.6, 0.3, 0.2)},   // the cylinder
      {capsule(Vec3(0, 0, 0), Vec3(1, 1, 0), 0.3), Vec3(-0.2, 0.1, 0.1)},  // the cap at A
      {box(Vec3(0, 0, 0), Vec3(1, 1, 1)), Vec3(1.2, 1.3, 0.5)},            // beyond an edge
  };
  const double h = 1e-6;
  for (const auto& [o, x] : cases) {
    const SurfaceDistance s = surface_distance(o, x);
    for (int j = 0; j < 3; ++j) {
      const Vec3 e = h * Vec3::Unit(j);
      const Vec3 fd =
          (surface_distance(o, x + e).normal - surface_distance(o, x - e).normal) / (2 * h);
      EXPECT_LT((fd - s.curvature.col(j)).norm(), 1e-7) << to_string(o.shape) << " column " << j;
      // ∂d/∂x = nᵀ
      const double dd =
          (surface_distance(o, x + e).distance - surface_distance(o, x - e).distance) / (2 * h);
      EXPECT_NEAR(dd, s.normal[j], 1e-8) << to_string(o.shape);
    }
  }
}

}  // namespace
}  // namespace substruct
