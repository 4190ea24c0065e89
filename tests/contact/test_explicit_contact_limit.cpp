// SPDX-License-Identifier: GPL-3.0-or-later
// The explicit contact limit: the bound Δt ≤ 2 (√(1 + ζ²) − ζ) / ω against the damped spring
// stepped with its force held over the step (bounded just below, growing just above), and its
// value on one tetrahedron computed by hand (a vertex's third of its faces' area over its quarter
// of the mass); no obstacle or no free surface vertex gives no limit; the refusal names the vertex
// and what to change.
#include "substruct/contact/explicit_contact_limit.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "substruct/scene/scene.hpp"

namespace substruct {
namespace {

// x'' + 2ζω x' + ω² x = 0 stepped as the explicit methods step a held force: v₊ = v + Δt a(x, v),
// x₊ = x + Δt v₊. The largest |x| over 20,000 steps from x = 1, v = 0.
double largest_amplitude(double omega_dt, double zeta) {
  double x = 1, v = 0;  // ω = 1, Δt = omega_dt
  double largest = 1;
  for (int s = 0; s < 20000; ++s) {
    v += omega_dt * (-x - 2 * zeta * v);
    x += omega_dt * v;
    largest = std::max(largest, std::abs(x));
    if (!(largest < 1e30)) break;
  }
  return largest;
}

TEST(ExplicitContactLimit, TheBoundIsWhereTheHeldSpringTurnsUnstable) {
  for (double zeta : {0.0, 0.25, 0.5, 1.0}) {
    const double bound = 2 * (std::sqrt(1 + zeta * zeta) - zeta);
    EXPECT_LT(largest_amplitude(0.98 * bound, zeta), 1e2) << "ζ = " << zeta;
    EXPECT_GT(largest_amplitude(1.02 * bound, zeta), 1e6) << "ζ = " << zeta;
  }
}

Scene one_tet() {
  Scene scene;
  scene.mesh.vertices.resize(4, 3);
  scene.mesh.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  scene.mesh.tets.resize(1, 4);
  scene.mesh.tets << 0, 1, 2, 3;
  scene.mesh.materials = {Material{}};  // ρ = 1000 kg/m³
  scene.mesh.element_material = {0};
  return scene;
}

TEST(ExplicitContactLimit, OnOneTetIsTheSlantedFacesVertex) {
  ContactSettings s;
  s.ground = {0, 1, 0, -1};
  s.stiffness = 1e6;
  s.damping = 0.5;
  const Scene scene = one_tet();
  const ExplicitContactLimit limit = explicit_contact_limit(s, scene, 0.01);
  // Vertices 1–3: two right-angled faces (½ each) and the slanted one (√3/2), a third each;
  // vertex 0 has only the three right-angled faces (share ½). Mass ρ V / 4 = 1000 / 24 kg.
  const double share = (1 + std::sqrt(3.0) / 2) / 3, mass = 1000.0 / 24;
  const double c = 2 * (std::sqrt(1 + 0.25) - 0.5);
  EXPECT_EQ(limit.vertex, 1);
  EXPECT_NEAR(limit.max_dt, c / std::sqrt(1e6 * share / mass), 1e-12);
  EXPECT_NEAR(limit.max_stiffness, c * c * mass / (share * 0.01 * 0.01), 1e-6);
  // Four times the stiffness halves the step; at max_stiffness the limit is the run's dt.
  s.stiffness = 4e6;
  EXPECT_NEAR(explicit_contact_limit(s, scene, 0.01).max_dt, 0.5 * limit.max_dt, 1e-12);
  s.stiffness = limit.max_stiffness;
  EXPECT_NEAR(explicit_contact_limit(s, scene, 0.01).max_dt, 0.01, 1e-12);
}

TEST(ExplicitContactLimit, NoObstacleOrNoFreeSurfaceVertexGivesNone) {
  Scene scene = one_tet();
  ContactSettings s;
  EXPECT_EQ(explicit_contact_limit(s, scene, 0.01).vertex, -1);
  EXPECT_EQ(explicit_contact_refusal(s, scene, 0.01, "ddm"), "");
  s.spheres = {0, -2, 0, 0.5};
  scene.fixed_vertices = {0, 1, 2, 3};
  EXPECT_EQ(explicit_contact_limit(s, scene, 0.01).vertex, -1);
  EXPECT_EQ(explicit_contact_refusal(s, scene, 0.01, "ddm"), "");
}

TEST(ExplicitContactLimit, TheRefusalNamesTheVertexTheLimitsAndFull) {
  ContactSettings s;
  s.boxes = {0, -2, 0, 1, 1, 1};
  const Scene scene = one_tet();
  const ExplicitContactLimit limit = explicit_contact_limit(s, scene, 0.01);
  ASSERT_LT(limit.max_dt, 0.01);  // the default 1e8 Pa/m
  const std::string why = explicit_contact_refusal(s, scene, 0.01, "ddm");
  EXPECT_NE(why.find("ddm applies the [contact] forces explicitly"), std::string::npos) << why;
  EXPECT_NE(why.find("surface vertex 1 "), std::string::npos) << why;
  EXPECT_NE(why.find("coupling.plugin = full"), std::string::npos) << why;
  EXPECT_EQ(explicit_contact_refusal(s, scene, 0.9 * limit.max_dt, "ddm"), "");
}

}  // namespace
}  // namespace substruct
