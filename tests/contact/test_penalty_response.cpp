// SPDX-License-Identifier: GPL-3.0-or-later
// The penalty response of one vertex: the normal spring, the friction spring sticking and
// sliding, the damping's share of K, and K = −∂f/∂x against central differences of f.
#include "substruct/contact/penalty_response.hpp"

#include <gtest/gtest.h>
#include <Eigen/Geometry>

namespace substruct {
namespace {

Obstacle ground() {
  Obstacle o;
  o.shape = ObstacleShape::plane;
  o.a = Vec3(0, 1, 0);
  o.size = 0;
  return o;
}

Obstacle ball() {
  Obstacle o;
  o.shape = ObstacleShape::sphere;
  o.a = Vec3(0.1, -0.2, 0.05);
  o.size = 0.5;
  return o;
}

// f at x + e with the anchor as it is (a copy: the differences move nothing).
Vec3 force_at(const Obstacle& o, const Vec3& x, const PenaltyParameters& p, FrictionAnchor anchor) {
  return penalty_response(surface_distance(o, x), x, Vec3::Zero(), p, anchor).force;
}

// −∂f/∂x by central differences along `e` (unit).
Vec3 fd_stiffness(const Obstacle& o, const Vec3& x, const Vec3& e, const PenaltyParameters& p,
                  const FrictionAnchor& anchor) {
  const double h = 1e-7;
  return -(force_at(o, x + h * e, p, anchor) - force_at(o, x - h * e, p, anchor)) / (2 * h);
}

TEST(PenaltyResponse, NormalSpringPushesOutAndItsDerivativeIsExact) {
  const PenaltyParameters p{2e5, 0, 0, 0.01};
  FrictionAnchor anchor;
  const Vec3 x(0.3, -0.002, 0.1);
  const PenaltyResponse r =
      penalty_response(surface_distance(ground(), x), x, Vec3::Zero(), p, anchor);
  ASSERT_TRUE(r.active);
  EXPECT_NEAR(r.penetration, 0.002, 1e-15);
  EXPECT_TRUE(r.force.isApprox(Vec3(0, 400, 0), 1e-12));  // k d n
  EXPECT_NEAR(r.energy, 0.5 * 2e5 * 0.002 * 0.002, 1e-15);
  EXPECT_FALSE(anchor.set);  // frictionless: no anchor
  // On a sphere the normal turns with x: K = k n nᵀ − k d ∂n/∂x.
  const Vec3 y = ball().a + 0.499 * Vec3(0.6, 0, 0.8);
  const PenaltyResponse s =
      penalty_response(surface_distance(ball(), y), y, Vec3::Zero(), p, anchor);
  for (int j = 0; j < 3; ++j) {
    const Vec3 e = Vec3::Unit(j);
    EXPECT_LT((fd_stiffness(ball(), y, e, p, anchor) - s.stiffness * e).norm(), 1e-6 * 2e5);
  }
  // Outside and not arriving: nothing.
  const Vec3 z(0, 0.01, 0);
  EXPECT_FALSE(
      penalty_response(surface_distance(ground(), z), z, Vec3(0, -0.5, 0), p, anchor).active);
}

// A vertex on the surface at rest (an object placed on the ground) has its spring in the step
// from the start, with no force yet; one leaving the surface has none.
TEST(PenaltyResponse, AVertexOnTheSurfaceAtRestHasItsSpringFromTheStart) {
  const PenaltyParameters p{2e5, 0, 0, 0.01};
  FrictionAnchor anchor;
  const Vec3 x = Vec3::Zero();
  const PenaltyResponse r =
      penalty_response(surface_distance(ground(), x), x, Vec3::Zero(), p, anchor);
  EXPECT_TRUE(r.active);
  EXPECT_TRUE(r.force.isZero());
  EXPECT_TRUE(r.stiffness.isApprox(2e5 * Vec3::UnitY() * Vec3::UnitY().transpose()));
  EXPECT_FALSE(
      penalty_response(surface_distance(ground(), x), x, Vec3(0, 0.1, 0), p, anchor).active);
}

TEST(PenaltyResponse, AVertexArrivingWithinTheStepIsHeldByTheSpringsLinearisation) {
  // 1 mm above the ground at 0.5 m/s down: 5 mm into it by the step's end if unopposed.
  const PenaltyParameters p{2e5, 0, 0.5, 0.01};
  FrictionAnchor anchor;
  const Vec3 x(0, 0.001, 0);
  const PenaltyResponse r =
      penalty_response(surface_distance(ground(), x), x, Vec3(0, -0.5, 0), p, anchor);
  ASSERT_TRUE(r.active);
  EXPECT_EQ(r.penetration, 0);
  EXPECT_EQ(r.energy, 0);
  // f − K (x₊ − x) is the spring's force k d(x₊) n at any x₊ below the plane.
  const Vec3 x_next(0.002, -0.003, 0);
  const Vec3 f_next = r.force - r.stiffness * (x_next - x);
  EXPECT_TRUE(f_next.isApprox(Vec3(0, 2e5 * 0.003, 0), 1e-12));
  EXPECT_FALSE(anchor.set);  // no normal force yet: no friction
}

TEST(PenaltyResponse, FrictionSticksBelowMuTimesTheNormalForceAndSlidesAtIt) {
  const double k = 1e5, mu = 0.4, d = 0.001;
  const PenaltyParameters p{k, 0, mu, 0.01};
  FrictionAnchor anchor;
  const Vec3 x0(0, -d, 0);
  penalty_response(surface_distance(ground(), x0), x0, Vec3::Zero(), p, anchor);
  ASSERT_TRUE(anchor.set);
  EXPECT_EQ(anchor.point, x0);
  // Moved 0.3 mm along x: the spring holds it, −k s, below μ k d = 40 N.
  const Vec3 x1 = x0 + Vec3(0.0003, 0, 0);
  FrictionAnchor stuck = anchor;
  const PenaltyResponse s =
      penalty_response(surface_distance(ground(), x1), x1, Vec3::Zero(), p, stuck);
  EXPECT_FALSE(s.sliding);
  EXPECT_TRUE(s.force.isApprox(Vec3(-30, k * d, 0), 1e-12));
  for (int j = 0; j < 3; ++j) {
    const Vec3 e = Vec3::Unit(j);
    EXPECT_LT((fd_stiffness(ground(), x1, e, p, anchor) - s.stiffness * e).norm(), 1e-6 * k);
  }
  // Moved 1 mm along x and 0.5 mm along z: beyond μ d = 0.4 mm, it slides, pulled back with μ f_n
  // against the slip, and the anchor is dragged to 0.4 mm behind it.
  const Vec3 x2 = x0 + Vec3(0.001, 0, 0.0005);
  FrictionAnchor slid = anchor;
  const PenaltyResponse r =
      penalty_response(surface_distance(ground(), x2), x2, Vec3::Zero(), p, slid);
  EXPECT_TRUE(r.sliding);
  const Vec3 slip = Vec3(0.001, 0, 0.0005).normalized();
  EXPECT_TRUE(r.force.isApprox(Vec3(0, k * d, 0) - mu * k * d * slip, 1e-12));
  EXPECT_NEAR((x2 - slid.point).norm(), mu * d, 1e-15);
  EXPECT_NEAR(r.energy, 0.5 * k * d * d + 0.5 * k * (mu * d) * (mu * d), 1e-15);
  // K = k (n nᵀ + P − ŝ ŝᵀ): across the slip in the tangent plane it is the dragged spring's.
  const Vec3 across = Vec3(0, 1, 0).cross(slip);
  EXPECT_LT((fd_stiffness(ground(), x2, across, p, slid) - r.stiffness * across).norm(), 1e-6 * k);
  EXPECT_LT((r.stiffness * slip).norm(), 1e-9);  // along the slip the force stays μ f_n
}

// Beyond the limit but moving back towards its anchor (it turned within the last step): sliding
// friction −μ f_n ŝ would push it along its motion for the whole step. It is held by the spring
// dragged to μ d, whose force is μ f_n now and falls as it returns, and whose K = k P is the
// one-sided derivative in the direction it moves.
TEST(PenaltyResponse, AVertexTurningBackIsHeldNotPushedAlongItsMotion) {
  const double k = 1e5, mu = 0.4, d = 0.001, dt = 0.01;
  const PenaltyParameters p{k, 0, mu, dt};
  FrictionAnchor anchor;
  const Vec3 x0(0, -d, 0);
  penalty_response(surface_distance(ground(), x0), x0, Vec3::Zero(), p, anchor);
  const Vec3 x1 = x0 + Vec3(0.001, 0, 0);  // 1 mm from the anchor, beyond μ d = 0.4 mm…
  const Vec3 back(-0.05, 0, 0.01);         // …moving back towards it
  FrictionAnchor held = anchor;
  const PenaltyResponse r = penalty_response(surface_distance(ground(), x1), x1, back, p, held);
  EXPECT_FALSE(r.sliding);
  EXPECT_TRUE(r.force.isApprox(Vec3(-mu * k * d, k * d, 0), 1e-12));
  EXPECT_TRUE(held.point.isApprox(x1 - Vec3(mu * d, 0, 0), 1e-12));
  // What it gives back as it returns is the spring's stored energy, ½ k (μ d)², no more.
  EXPECT_NEAR(r.energy, 0.5 * k * d * d + 0.5 * k * (mu * d) * (mu * d), 1e-15);
  const auto force = [&](const Vec3& x) {
    FrictionAnchor copy = held;
    return penalty_response(surface_distance(ground(), x), x, back, p, copy).force;
  };
  const double h = 1e-7;
  const Vec3 toward(-1, 0, 0), across(0, 0, 1);
  EXPECT_LT((-(force(x1 + h * toward) - force(x1)) / h - r.stiffness * toward).norm(), 1e-6 * k);
  EXPECT_LT(
      (-(force(x1 + h * across) - force(x1 - h * across)) / (2 * h) - r.stiffness * across).norm(),
      1e-6 * k);
  // The same place moving on, away from the anchor: it slides, K zero along the slip.
  FrictionAnchor slid = anchor;
  const PenaltyResponse s = penalty_response(surface_distance(ground(), x1), x1, -back, p, slid);
  EXPECT_TRUE(s.sliding);
  EXPECT_LT((s.stiffness * Vec3(1, 0, 0)).norm(), 1e-9);
}

// A vertex out of contact at one evaluation keeps its anchor (chattering on the surface, it
// must not grip again at s = 0 when it returns); out at a second in a row, the anchor goes.
TEST(PenaltyResponse, TheAnchorOutlivesOneEvaluationOutOfContactNotTwo) {
  const double k = 1e5, mu = 0.4, d = 0.001;
  const PenaltyParameters p{k, 0, mu, 0.01};
  FrictionAnchor anchor;
  const Vec3 in(0, -d, 0), out(0.002, 1e-5, 0), back(0.004, -d, 0);
  const auto respond = [&](const Vec3& x) {
    return penalty_response(surface_distance(ground(), x), x, Vec3::Zero(), p, anchor);
  };
  respond(in);
  respond(out);
  ASSERT_TRUE(anchor.set);
  EXPECT_EQ(anchor.point, in);
  const PenaltyResponse r = respond(back);  // 4 mm from the anchor: slides, not held at s = 0
  EXPECT_TRUE(r.sliding);
  EXPECT_NEAR(r.force.x(), -mu * k * d, 1e-9);
  respond(out);
  respond(out);
  EXPECT_FALSE(anchor.set);
  EXPECT_FALSE(respond(back).sliding);  // a new anchor where it lands
  EXPECT_EQ(anchor.point, back);
}

TEST(PenaltyResponse, DampingEntersTheStiffnessAsCOverDt) {
  const PenaltyParameters undamped{1e5, 0, 0, 0.02};
  PenaltyParameters damped = undamped;
  damped.damping = 30;
  FrictionAnchor anchor;
  const Vec3 x(0, -0.001, 0);
  const SurfaceDistance s = surface_distance(ground(), x);
  const PenaltyResponse a = penalty_response(s, x, Vec3::Zero(), undamped, anchor);
  const PenaltyResponse b = penalty_response(s, x, Vec3::Zero(), damped, anchor);
  EXPECT_EQ(a.force, b.force);  // −c n·(x₊ − x)/Δt is zero at x
  Mat3 expected = Mat3::Zero();
  expected(1, 1) = 30 / 0.02;
  EXPECT_TRUE((b.stiffness - a.stiffness).isApprox(expected, 1e-12));
}

}  // namespace
}  // namespace substruct
