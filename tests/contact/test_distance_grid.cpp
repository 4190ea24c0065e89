// SPDX-License-Identifier: GPL-3.0-or-later
// The sampled distance field's query: the exact distance of a plane and of a sphere sampled on a
// grid, read back between the samples (exact for the plane, within the interpolation's
// O(h²/R) for the sphere), its normal against the field's finite differences, and points beyond
// the grid far outside.
#include "substruct/contact/distance_grid.hpp"

#include <cmath>
#include <functional>

#include <gtest/gtest.h>

namespace substruct {
namespace {

DistanceGrid sampled(const std::function<double(const Vec3&)>& f, const Vec3& origin, double h,
                     long n) {
  DistanceGrid g;
  g.origin = origin;
  g.voxel = h;
  g.dims = {n, n, n};
  g.band = 1e9;
  g.values.resize(std::size_t(n * n * n));
  for (long k = 0; k < n; ++k)
    for (long j = 0; j < n; ++j)
      for (long i = 0; i < n; ++i)
        g.values[std::size_t((k * n + j) * n + i)] =
            float(f(origin + h * Vec3(double(i), double(j), double(k))));
  return g;
}

TEST(DistanceGrid, APlaneIsExactBetweenSamples) {
  const Vec3 n = Vec3(1, 2, 2) / 3;
  const auto plane = [&](const Vec3& x) { return n.dot(x) - 0.1; };
  const DistanceGrid g = sampled(plane, Vec3(-1, -1, -1), 0.1, 21);
  for (const Vec3 x : {Vec3(0.013, 0.27, -0.31), Vec3(-0.55, 0.4, 0.77), Vec3(0.9, -0.9, 0.05)}) {
    const SurfaceDistance s = grid_distance(g, x);
    EXPECT_NEAR(s.distance, plane(x), 1e-6) << x.transpose();
    EXPECT_LT((s.normal - n).norm(), 1e-5) << x.transpose();
    EXPECT_TRUE(s.curvature.isZero());
  }
}

TEST(DistanceGrid, ASphereIsWithinTheInterpolationErrorAndItsNormalIsTheGradient) {
  const double R = 0.5, h = 0.05;
  const auto sphere = [&](const Vec3& x) { return x.norm() - R; };
  const DistanceGrid g = sampled(sphere, Vec3(-1, -1, -1), h, 41);
  // Points inside cells: on a cell's face the interpolant's gradient jumps, and a central
  // difference across it is the mean of the two sides.
  for (const Vec3 x : {Vec3(0.52, 0.013, 0.021), Vec3(-0.213, 0.31, -0.337),
                       Vec3(0.117, -0.093, 0.452), Vec3(0.061, 0.027, 0.013)}) {
    const SurfaceDistance s = grid_distance(g, x);
    // Trilinear interpolation of a function of curvature 1/ρ: error ≤ 3 h²/(8ρ).
    EXPECT_NEAR(s.distance, sphere(x), 3 * h * h / (8 * std::max(x.norm(), h))) << x.transpose();
    // The normal is the interpolant's gradient, as the distance's finite differences give it.
    const double e = 1e-6;
    Vec3 fd;
    for (int a = 0; a < 3; ++a)
      fd[a] = (grid_distance(g, x + e * Vec3::Unit(a)).distance -
               grid_distance(g, x - e * Vec3::Unit(a)).distance) /
              (2 * e);
    EXPECT_LT((s.normal - fd.normalized()).norm(), 1e-5) << x.transpose();
    // Away from the centre's kink, the normal is the sphere's.
    if (x.norm() > 2 * h) EXPECT_LT((s.normal - x.normalized()).norm(), 0.1) << x.transpose();
  }
}

TEST(DistanceGrid, BeyondTheGridIsFarOutside) {
  const DistanceGrid g =
      sampled([](const Vec3& x) { return x.norm() - 0.5; }, Vec3(-1, -1, -1), 0.1, 21);
  const SurfaceDistance s = grid_distance(g, Vec3(3, 0, 0));
  EXPECT_NEAR(s.distance, 0.5 + 2.0, 1e-6);  // the sample at (1, 0, 0), then 2 m beyond
  EXPECT_LT((s.normal - Vec3::UnitX()).norm(), 1e-12);
}

}  // namespace
}  // namespace substruct
