// SPDX-License-Identifier: GPL-3.0-or-later
// `substruct import MODEL --out DIR`: a closed surface becomes a scene that `substruct run`
// takes; surfaces that bound no solid, selectors that fix nothing and bad options are refused
// before anything is written; the real surfaces of ../shared/data become scenes.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/mesh/mesh_io.hpp"
#include "support/icosphere.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

class ImportCommand : public testing::TempDirTest {
 protected:
  /// Runs `substruct COMMAND ARGS` in dir(), its output in dir()/log; returns the exit status.
  int substruct(const std::string& args) const {
    const std::string command =
        fmt::format("cd '{}' && '{}' {} > log 2>&1", dir().string(), SUBSTRUCT_CLI, args);
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string log() const { return read("log"); }
  bool logged(const std::string& text) const { return log().find(text) != std::string::npos; }
};

double volume_of(const TetMesh& mesh) {
  double v = 0;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const Vec3 x0 = mesh.vertices.row(mesh.tets(e, 0)).transpose();
    v += (mesh.vertices.row(mesh.tets(e, 1)).transpose() - x0)
             .dot((mesh.vertices.row(mesh.tets(e, 2)).transpose() - x0)
                      .cross(mesh.vertices.row(mesh.tets(e, 3)).transpose() - x0)) /
         6;
  }
  return v;
}

TEST_F(ImportCommand, AClosedSphereBecomesASceneThatRuns) {
  const SurfaceMesh sphere = testing::icosphere(3);
  write("sphere.obj", testing::obj_text(sphere));
  ASSERT_EQ(substruct("import sphere.obj --out scene --fix 'y < -0.8'"), 0) << log();
  for (const char* line :
       {"model      sphere.obj: 642 vertices, 1280 triangles in 1 meshes",
        "surface    closed, manifold", "by Gmsh", "fixed      ", "run it     substruct run "})
    EXPECT_TRUE(logged(line)) << line << "\n" << log();

  // The model as read (Assimp keeps single-precision positions, vertices in the order the
  // faces first use them) is the render surface and the tets' boundary.
  const TetMesh mesh = read_veg(dir() / "scene" / "sphere.veg");
  const SurfaceMesh render = read_obj(dir() / "scene" / "sphere.obj");
  ASSERT_EQ(render.vertices.rows(), 642);
  ASSERT_EQ(render.triangles.rows(), 1280);
  EXPECT_TRUE(mesh.vertices.topRows(642) == render.vertices);
  EXPECT_NEAR(volume_of(mesh), testing::enclosed_volume(render), 1e-12);
  EXPECT_NEAR(volume_of(mesh), testing::enclosed_volume(sphere), 1e-6);
  const std::vector<Index> fixed = read_bou(dir() / "scene" / "sphere.bou", mesh.num_vertices());
  Index below = 0;
  for (Index v = 0; v < mesh.num_vertices(); ++v) below += mesh.vertices(v, 1) < -0.8 ? 1 : 0;
  EXPECT_EQ(static_cast<Index>(fixed.size()), below);
  EXPECT_GT(below, 0);
  for (const Index v : fixed) EXPECT_LT(mesh.vertices(v, 1), -0.8);

  // 20 steps of the full method: the sphere sags on its clamp and moves.
  ASSERT_EQ(substruct("run scene/sphere.ini --run.steps=20"), 0) << log();
  EXPECT_TRUE(logged("steps      20 × dt 0.01 s")) << log();
  const std::size_t at = log().find("energy     kinetic ");
  ASSERT_NE(at, std::string::npos) << log();
  const double kinetic = std::stod(log().substr(at + 19));
  EXPECT_TRUE(std::isfinite(kinetic));
  EXPECT_GT(kinetic, 0.0) << log();
}

TEST_F(ImportCommand, WhatBoundsNoSolidOrFixesNothingIsRefusedBeforeWriting) {
  SurfaceMesh open = testing::box_surface(1, 1, 1);
  open.triangles.conservativeResize(11, 3);  // the last triangle missing
  write("open.obj", testing::obj_text(open));
  EXPECT_EQ(substruct("import open.obj --out scene"), 1);
  EXPECT_TRUE(logged("does not bound a solid: the surface is open: the edge of vertices")) << log();
  EXPECT_TRUE(logged("--as voxels fills its inside")) << log();
  EXPECT_FALSE(fs::exists(dir() / "scene"));

  write("box.obj", testing::obj_text(testing::box_surface(1, 1, 1)));
  EXPECT_EQ(substruct("import box.obj --out scene --fix 'y < -1'"), 1);
  EXPECT_TRUE(logged("--fix 'y < -1' fixes none of the mesh's")) << log();
  EXPECT_FALSE(fs::exists(dir() / "scene" / "box.ini"));
  EXPECT_EQ(substruct("import box.obj --out scene --fix 'y <= 1'"), 1);
  EXPECT_TRUE(logged("fixes all of the mesh's")) << log();

  EXPECT_EQ(substruct("import box.obj --out scene --as jelly"), 1);
  EXPECT_TRUE(logged("[import] as = 'jelly': expected one of solid, voxels")) << log();
  EXPECT_EQ(substruct("import box.obj --out scene --fixx 'y < 0'"), 1);
  EXPECT_TRUE(logged("unknown option '--fixx'; did you mean '--fix'?")) << log();
  EXPECT_EQ(substruct("import box.obj"), 1);
  EXPECT_TRUE(logged("--out DIR")) << log();
  EXPECT_EQ(substruct("import missing.obj --out scene"), 1);
  EXPECT_TRUE(logged("missing.obj")) << log();

  // The open box fills as voxels.
  ASSERT_EQ(substruct("import box.obj --out vox --as voxels --cells 4 --fix lowest"), 0) << log();
  EXPECT_EQ(read_veg(dir() / "vox" / "box.veg").num_elements(), 6 * 64);
}

TEST_F(ImportCommand, TheSharedSurfacesBecomeScenes) {
  SUBSTRUCT_REQUIRE_SHARED("sofa-armadillo/Armadillo_simplified.obj");
  SUBSTRUCT_REQUIRE_SHARED("asianDragon/asianDragon.obj");
  for (const auto& [model, defect] : std::vector<std::pair<std::string, std::string>>{
           {"sofa-armadillo/Armadillo_simplified.obj", "the surface crosses itself: triangles"},
           {"asianDragon/asianDragon.obj", "are the same triangle"}}) {
    SCOPED_TRACE(model);
    const std::string path = (testing::shared_data() / model).string();
    EXPECT_EQ(substruct(fmt::format("import '{}' --out solid", path)), 1);
    EXPECT_TRUE(logged(defect)) << log();
    const auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(
        substruct(fmt::format("import '{}' --out scene --as voxels --cells 40 --fix lowest", path)),
        0)
        << log();
    std::printf("%s: %.2f s to import\n%s", model.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                log().c_str());
    const TetMesh mesh = read_veg(dir() / "scene" / (fs::path(model).stem().string() + ".veg"));
    EXPECT_GT(mesh.num_elements(), 1000);
  }
}

// --as plant (Zhao 2014, §4.1, Steps 1–9) on a Quaternius tree kept in share/ (CC0): a tree of
// domains with every child fixed to its parent, which inertia runs for 0.1 s.
TEST_F(ImportCommand, AQuaterniusTreeBecomesAPlantSceneThatInertiaRuns) {
  const fs::path tree = testing::share_dir() / "meshes" / "quaternius" / "Tree_1.obj";
  ASSERT_EQ(
      substruct(fmt::format("import '{}' --out plant --as plant --plant-cells 30", tree.string())),
      0)
      << log();
  for (const char* line :
       {"pieces     23 (connected components): 8 flexible, 15 rigid",
        "instances  13 pieces are copies of others, in 3 sets",
        "1 flexible group; root piece 0 (lowest); 1 loop cut",
        "meshes     22 domains (F 8, R1 13, R2 1; 1 pieces merged into their parent) on cubes of "
        "0.2218: 7450 vertices, 21012 tets",
        "fixed      20 vertices of the root (lowest); 571 vertices shared by children with their "
        "parents",
        "run it     substruct run "})
    EXPECT_TRUE(logged(line)) << line << "\n" << log();
  std::printf("%s", log().c_str());
  // Each tet's domain, parents before children: domain 0, the root, holds every fixed vertex.
  const TetMesh mesh = read_veg(dir() / "plant" / "Tree_1.veg");
  ASSERT_EQ(mesh.num_elements(), 21012);
  std::vector<int> domain_of;
  {
    std::istringstream in(read("plant/Tree_1.domains"));
    std::string line;
    while (std::getline(in, line))
      if (!line.empty() && line[0] != '#') domain_of.push_back(std::stoi(line));
  }
  ASSERT_EQ(domain_of.size(), 21012U);
  EXPECT_EQ(*std::max_element(domain_of.begin(), domain_of.end()), 21);
  std::set<Index> root;
  for (Index e = 0; e < mesh.num_elements(); ++e)
    if (domain_of[static_cast<std::size_t>(e)] == 0)
      for (int k = 0; k < 4; ++k) root.insert(mesh.tets(e, k));
  for (const Index v : read_bou(dir() / "plant" / "Tree_1.bou", mesh.num_vertices()))
    EXPECT_EQ(root.count(v), 1U) << v;
  const std::string ini = read("plant/Tree_1.ini");
  EXPECT_NE(ini.find("plugin = inertia"), std::string::npos) << ini;
  EXPECT_NE(ini.find("rigid_domains = "), std::string::npos) << ini;

  ASSERT_EQ(substruct("run plant/Tree_1.ini --run.steps=10"), 0) << log();
  EXPECT_TRUE(logged("steps      10 × dt 0.01 s")) << log();
  const std::size_t at = log().find("energy     kinetic ");
  ASSERT_NE(at, std::string::npos) << log();
  const double kinetic = std::stod(log().substr(at + 19));
  EXPECT_TRUE(std::isfinite(kinetic)) << log();
  EXPECT_GT(kinetic, 0.0) << log();
  // Bounded: clamped and starting at rest, the tree gains less kinetic energy in 0.1 s than it
  // would falling freely, m g² t² / 2 = (g t² / 2 h) · m g h, a few % of its gravity energy.
  const std::size_t g = log().find("gravity ", at);
  ASSERT_NE(g, std::string::npos) << log();
  EXPECT_LT(kinetic, 0.05 * std::stod(log().substr(g + 8))) << log();
}

TEST_F(ImportCommand, APlantImportSaysWhatItAttachedAndRefusesWhatItCannotMesh) {
  // Two crossing bars and a speck far off: the speck is attached to the nearest and said so.
  SurfaceMesh upright = testing::box_surface(0.2, 2, 0.2);
  SurfaceMesh across = testing::box_surface(1, 0.15, 0.1);
  across.vertices.rowwise() += Eigen::RowVector3d(0.1, 1.2, 0.05);
  SurfaceMesh speck = testing::box_surface(0.05, 0.05, 0.05);
  speck.vertices.rowwise() += Eigen::RowVector3d(2, 0, 0);
  write("soup.obj", testing::obj_text(testing::merged(testing::merged(upright, across), speck)));
  ASSERT_EQ(substruct("import soup.obj --out soup --as plant --plant-cells 30 --small 0.05"), 0)
      << log();
  EXPECT_TRUE(logged("piece 2 touches nothing of the tree: attached to the nearest, piece 1"))
      << log();
  EXPECT_TRUE(fs::exists(dir() / "soup" / "soup.ini"));

  // --fix chooses among the root's vertices; one that fixes none of them is refused.
  ASSERT_EQ(substruct("import soup.obj --out fixed --as plant --plant-cells 30 --small 0.05 "
                      "--fix 'y < 0.5'"),
            0)
      << log();
  const TetMesh fixed_mesh = read_veg(dir() / "fixed" / "soup.veg");
  const std::vector<Index> fixed =
      read_bou(dir() / "fixed" / "soup.bou", fixed_mesh.num_vertices());
  EXPECT_GT(fixed.size(), 8U);
  for (const Index v : fixed) {
    EXPECT_LT(fixed_mesh.vertices(v, 1), 0.5);
    EXPECT_LT(fixed_mesh.vertices(v, 0), 1.0);  // the upright's, not the speck's (at x = 2)
  }
  EXPECT_EQ(substruct("import soup.obj --out none --as plant --small 0.05 --fix 'y < -1'"), 1);
  EXPECT_TRUE(logged("--fix 'y < -1' fixes none of the root domain's")) << log();
  EXPECT_FALSE(fs::exists(dir() / "none" / "soup.ini"));

  // Cubes too coarse for any centre to be inside the upright: an error naming it; nothing written.
  EXPECT_EQ(substruct("import soup.obj --out coarse --as plant --plant-cells 3 --fill centre"), 1);
  EXPECT_TRUE(logged("piece 0 (material 'DefaultMaterial', 12 triangles")) << log();
  EXPECT_TRUE(logged("has no cube whose centre is inside it")) << log();
  EXPECT_FALSE(fs::exists(dir() / "coarse"));

  // An empty file.
  write("empty.obj", "");
  EXPECT_EQ(substruct("import empty.obj --out empty --as plant"), 1);
  EXPECT_TRUE(logged("empty.obj")) << log();
  EXPECT_FALSE(fs::exists(dir() / "empty"));
}

}  // namespace
}  // namespace substruct
