// SPDX-License-Identifier: GPL-3.0-or-later
// Triangle-mesh obstacles: OpenVDB's distance field of a closed box surface against the box's
// exact distance (faces, inside, placement), the errors for an open surface and a missing file,
// and a block dropped onto a mesh slab resting where it rests on the same slab as a ground plane.
#include "substruct/contact/mesh_obstacle.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/contact/contact_service.hpp"
#include "substruct/contact/distance_grid.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

bool have_module() {
  return fs::exists(fs::path(SUBSTRUCT_BINARY_DIR) / "lib/libsubstruct_mesh_distance.so");
}
#define SKIP_WITHOUT_MODULE() \
  if (!have_module())         \
  GTEST_SKIP() << "substruct was built without OpenVDB (Debian libopenvdb-dev): no mesh obstacles"

// The closed, outward-oriented surface of the box [lo, hi] as an OBJ; `drop` leaves out that
// many of its 12 triangles (an open surface).
void write_box_obj(const fs::path& file, const Vec3& lo, const Vec3& hi, int drop = 0) {
  std::ofstream out(file);
  for (int c = 0; c < 8; ++c)
    out << fmt::format("v {} {} {}\n", (c & 1) ? hi.x() : lo.x(), (c & 2) ? hi.y() : lo.y(),
                       (c & 4) ? hi.z() : lo.z());
  // Corners 1-based: bit 0 x, bit 1 y, bit 2 z.
  const int faces[12][3] = {{1, 3, 4}, {1, 4, 2}, {5, 6, 8}, {5, 8, 7}, {1, 2, 6}, {1, 6, 5},
                            {3, 7, 8}, {3, 8, 4}, {1, 5, 7}, {1, 7, 3}, {2, 4, 8}, {2, 8, 6}};
  for (int f = drop; f < 12; ++f)
    out << fmt::format("f {} {} {}\n", faces[f][0], faces[f][1], faces[f][2]);
}

// The exact distance of the box [lo, hi], as the box obstacle gives it.
double box_distance(const Vec3& x, const Vec3& lo, const Vec3& hi) {
  Obstacle box;
  box.shape = ObstacleShape::box;
  box.a = 0.5 * (lo + hi);
  box.b = 0.5 * (hi - lo);
  return surface_distance(box, x).distance;
}

class MeshObstacle : public testing::TempDirTest {};

TEST_F(MeshObstacle, TheFieldOfAClosedBoxIsTheBoxsDistance) {
  SKIP_WITHOUT_MODULE();
  const Vec3 lo(-0.5, -0.1, -0.4), hi(0.5, 0.0, 0.4);
  write_box_obj(dir() / "slab.obj", lo, hi);
  MeshObstacleRequest request{dir() / "slab.obj", 1.0, Vec3::Zero(), 0.02};
  const auto grid = mesh_distance_grid(request);
  EXPECT_EQ(grid->voxel, 0.02);
  EXPECT_EQ(grid->triangles.size(), 12u);
  EXPECT_EQ(mesh_distance_grid(request), grid) << "the same request gives the same grid";
  // Over the top face, away from its edges: the distance is linear, so exact between samples.
  for (const Vec3 x : {Vec3(0.013, 0.031, -0.27), Vec3(-0.3, 0.0047, 0.11), Vec3(0.2, -0.013, 0.1),
                       Vec3(0.41, 0.05, 0.33)}) {
    const SurfaceDistance s = grid_distance(*grid, x);
    EXPECT_NEAR(s.distance, box_distance(x, lo, hi), 1e-3 * grid->voxel) << x.transpose();
    EXPECT_NEAR(s.normal.y(), 1.0, 1e-4) << x.transpose();
  }
  // Inside (the inside is filled; off the mid-plane, where the samples on both sides are nearer
  // their own faces and the kink is rounded off), and beyond the grid: far and outside.
  EXPECT_NEAR(grid_distance(*grid, Vec3(0.013, -0.031, 0.017)).distance, -0.031, 0.1 * grid->voxel);
  EXPECT_GT(grid_distance(*grid, Vec3(0, 2, 0)).distance, 1.9);
  // Near an edge the sampled field rounds the corner off by about a sample.
  const Vec3 edge(0.5 + 0.01, 0.01, 0);
  EXPECT_NEAR(grid_distance(*grid, edge).distance, box_distance(edge, lo, hi), grid->voxel);
}

TEST_F(MeshObstacle, PlacementScalesThenMoves) {
  SKIP_WITHOUT_MODULE();
  write_box_obj(dir() / "unit.obj", Vec3(0, 0, 0), Vec3(1, 1, 1));
  const auto grid =
      mesh_distance_grid({dir() / "unit.obj", 0.2, Vec3(1, 2, 3), 0.01});  // [1, 1.2] × …
  const Vec3 x(1.1, 2.1, 3.2 + 0.015);
  EXPECT_NEAR(grid_distance(*grid, x).distance, 0.015, 1e-4);
  EXPECT_NEAR(grid->surface.col(0).maxCoeff(), 1.2, 1e-12);
}

TEST_F(MeshObstacle, AnOpenSurfaceOrAMissingFileIsAnErrorNamingIt) {
  SKIP_WITHOUT_MODULE();
  write_box_obj(dir() / "open.obj", Vec3(0, 0, 0), Vec3(1, 1, 1), /*drop=*/1);
  const std::string open = testing::error_message([&] {
    mesh_distance_grid({dir() / "open.obj", 1.0, Vec3::Zero(), 0});
  });
  EXPECT_NE(open.find("open.obj does not bound a solid"), std::string::npos) << open;
  EXPECT_NE(open.find("open edge"), std::string::npos) << open;
  const std::string missing = testing::error_message([&] {
    mesh_distance_grid({dir() / "none.obj", 1.0, Vec3::Zero(), 0});
  });
  EXPECT_NE(missing.find("none.obj"), std::string::npos) << missing;
  write_box_obj(dir() / "big.obj", Vec3(0, 0, 0), Vec3(1, 1, 1));
  const std::string samples = testing::error_message([&] {
    mesh_distance_grid({dir() / "big.obj", 1.0, Vec3::Zero(), 1e-4});
  });
  EXPECT_NE(samples.find("set contact.mesh_voxel larger"), std::string::npos) << samples;
}

// A free 0.4 m × 0.1 m × 0.1 m block dropped from 2 cm onto a slab whose top is y = −0.02, under
// full (backward Euler): on the slab as a mesh obstacle it moves as on the plane y = −0.02 (the
// field is exact on a face), and the slab carries its weight.
TEST_F(MeshObstacle, ABlockRestsOnAMeshSlabAsOnTheGround) {
  SKIP_WITHOUT_MODULE();
  write_veg(dir() / "block.veg", make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.1, 0.1), 8, 2, 2));
  write_box_obj(dir() / "slab.obj", Vec3(-0.3, -0.12, -0.3), Vec3(0.7, -0.02, 0.4));
  const PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const auto run = [&](const Setting& obstacle) {
    const std::vector<Setting> settings{{"scene.mesh", "block.veg", "test"},
                                        {"scene.domains", "single", "test"},
                                        {"material.youngs_modulus", "1e6", "test"},
                                        {"material.poisson_ratio", "0.3", "test"},
                                        {"material.density", "1000", "test"},
                                        {"coupling.plugin", "full", "test"},
                                        {"full.integrator", "backward-euler", "test"},
                                        {"run.dt", "0.01", "test"},
                                        {"run.loads", "gravity", "test"},
                                        {"run.exporters", "", "test"},
                                        {"gravity.acceleration", "0 -9.81 0", "test"},
                                        obstacle};
    Simulation sim(Config::from_settings(settings, dir(), host), host);
    sim.reset();
    StepStats stats;
    for (int s = 0; s < 80; ++s) sim.step(stats);
    double lift = 0;
    for (const PointForce& f : sim.forces().point_forces) lift += f.force.y();
    EXPECT_NEAR(lift, 39.24, 0.05 * 39.24) << obstacle.key;
    EXPECT_GT(sim.contact()->touching().size(), 0u);
    return Points(sim.positions());
  };
  const Points on_plane = run({"contact.ground", "0 1 0 -0.02", "test"});
  const Points on_mesh = run({"contact.mesh", "slab.obj", "test"});
  EXPECT_LT((on_plane - on_mesh).cwiseAbs().maxCoeff(), 1e-6);
}

}  // namespace
}  // namespace substruct
