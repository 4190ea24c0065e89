// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/scene.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

using namespace substruct;
namespace fs = std::filesystem;

namespace {

using substruct::testing::error_message;

class SceneTest : public substruct::testing::TempDirTest {
 protected:
  Scene load(const std::vector<Setting>& settings) {
    return load_scene(Config::from_settings(settings, dir(), host_));
  }

  /// A 3×3×1 slab of unit cubes without its centre cube, cut into 4 domains that form a
  /// ring: bottom row, right cube, top row, left cube.
  fs::path write_ring() {
    TetMesh box = make_box_mesh(Vec3(0, 0, 0), Vec3(3, 3, 1), 3, 3, 1);
    TetMesh ring = box;
    std::vector<int> ids;
    std::vector<Index> kept;
    for (Index e = 0; e < box.num_elements(); ++e) {
      const Index cell = e / 6;
      const int i = cell % 3, j = cell / 3;
      if (i == 1 && j == 1) continue;
      kept.push_back(e);
      ids.push_back(j == 0 ? 0 : (j == 2 ? 2 : (i == 2 ? 1 : 3)));
    }
    ring.tets.resize(static_cast<Eigen::Index>(kept.size()), 4);
    for (std::size_t k = 0; k < kept.size(); ++k)
      ring.tets.row(Eigen::Index(k)) = box.tets.row(kept[k]);
    ring.element_material.assign(kept.size(), 0);
    ring.element_sets.clear();
    write_veg(dir() / "ring.veg", ring);
    std::string lines;
    for (int id : ids) lines += std::to_string(id) + "\n";
    write("ring.domains", lines);
    return dir() / "ring.veg";
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

}  // namespace

TEST_F(SceneTest, BeamSceneFromShare) {
  const fs::path scenes = substruct::testing::share_dir() / "scenes";
  const Config config = Config::load(scenes / "beam.ini", {}, host_);
  const Scene scene = load_scene(config);
  EXPECT_EQ(scene.name, "beam");
  EXPECT_EQ(scene.mesh.num_vertices(), 208);
  EXPECT_EQ(scene.mesh.num_elements(), 450);
  EXPECT_EQ(scene.fixed_vertices, (std::vector<Index>{50, 51, 102, 103, 154, 155, 206, 207}));
  EXPECT_EQ(scene.num_domains(), 1);
  EXPECT_EQ(scene.root, 0);
  EXPECT_EQ(scene.material_model, MaterialModel::stvk);
  EXPECT_NEAR(scene.size(), std::sqrt(0.12 * 0.12 + 1.0 + 0.04 * 0.04), 1e-12);
  EXPECT_EQ(scene.tracked_vertices, (std::vector<Index>{0, 157}));
}

TEST_F(SceneTest, MaterialOverridesApplyToEveryElement) {
  SUBSTRUCT_REQUIRE_SHARED("asianDragon/asianDragon.veg");
  const fs::path dragon = substruct::testing::shared_data() / "asianDragon" / "asianDragon.veg";
  const Scene scene = load({{"scene.mesh", dragon.string(), "test"},
                            {"material.youngs_modulus", "3e5", "test"},
                            {"material.model", "corotational", "test"},
                            {"material.rayleigh_stiffness", "0.01", "test"}});
  for (const Material& m : scene.mesh.materials) {
    EXPECT_DOUBLE_EQ(m.youngs_modulus, 3e5);
    EXPECT_DOUBLE_EQ(m.density, 1000);  // not overridden: the file's
  }
  EXPECT_EQ(scene.material_model, MaterialModel::corotational);
  EXPECT_DOUBLE_EQ(scene.rayleigh_stiffness, 0.01);
  const std::string m = error_message([&] {
    load({{"scene.mesh", dragon.string(), "test"}, {"material.poisson_ratio", "0.5", "test"}});
  });
  EXPECT_NE(m.find("test: [material] poisson_ratio = '0.5': expected a finite number in (-1, 0.5)"),
            std::string::npos)
      << m;
}

TEST_F(SceneTest, FixedVerticesFromANamedSetAndTrackedVertices) {
  write_veg(dir() / "box.veg", make_box_mesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 4, 1, 1));
  // .veg keeps element sets only; a vertex set comes from a Gmsh/TetGen mesh, so name an
  // element set here: its vertices are fixed.
  TetMesh box = make_box_mesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 4, 1, 1);
  box.element_sets["first_cell"] = {0, 1, 2, 3, 4, 5};
  write_veg(dir() / "box.veg", box);
  const Scene scene = load({{"scene.mesh", "box.veg", "test"},
                            {"scene.fixed_set", "first_cell", "test"},
                            {"scene.tracked_vertices", "3, 4", "test"}});
  EXPECT_EQ(scene.fixed_vertices.size(), 8u);
  for (Index v : scene.fixed_vertices) EXPECT_LE(scene.mesh.vertices(v, 0), 1.0);
  EXPECT_EQ(scene.tracked_vertices, (std::vector<Index>{3, 4}));

  std::string m = error_message([&] {
    load({{"scene.mesh", "box.veg", "test"}, {"scene.fixed_set", "nope", "test"}});
  });
  EXPECT_NE(m.find("no such set"), std::string::npos) << m;
  EXPECT_NE(m.find("first_cell"), std::string::npos) << m;
  m = error_message([&] {
    load({{"scene.mesh", "box.veg", "test"}, {"scene.tracked_vertices", "999", "test"}});
  });
  EXPECT_NE(m.find("vertex 999 does not exist"), std::string::npos) << m;
  m = error_message([&] {
    load({{"scene.mesh", "box.veg", "test"}, {"scene.root", "7", "test"}});
  });
  EXPECT_NE(m.find("test: [scene] root = '7': the scene has domains 0…"), std::string::npos) << m;
  m = error_message([&] { load({{"run.dt", "0.1", "test"}}); });
  EXPECT_NE(m.find("[scene] mesh is required"), std::string::npos) << m;
}

TEST_F(SceneTest, MetisDomainsGiveAConnectedGraphAndARootHoldingTheFixedVertices) {
  TetMesh box = make_box_mesh(Vec3(0, 0, 0), Vec3(8, 1, 1), 16, 2, 2);
  write_veg(dir() / "bar.veg", box);
  write("bar.bou", "1\n");  // vertex 0, at x = 0
  const Scene scene = load({{"scene.mesh", "bar.veg", "test"},
                            {"scene.fixed", "bar.bou", "test"},
                            {"scene.domains", "auto:4", "test"}});
  EXPECT_EQ(scene.num_domains(), 4);
  EXPECT_EQ(scene.graph.connected_components().size(), 1u);
  // The root is the domain holding vertex 0.
  EXPECT_EQ(scene.vertex_domain[0], scene.root);
  // By default the tip, the vertex farthest from the fixed ones, is tracked.
  ASSERT_EQ(scene.tracked_vertices.size(), 1u);
  EXPECT_EQ(scene.mesh.vertices(scene.tracked_vertices[0], 0), 8.0);
}

TEST_F(SceneTest, ABeamClampedAtBothEndsTracksItsMiddleNotAFixedVertex) {
  // The old default, the vertex farthest from the fixed vertices' centroid, was a clamped corner
  // here: every accuracy figure of it read 0.
  TetMesh box = make_box_mesh(Vec3(0, 0, 0), Vec3(8, 1, 1), 16, 2, 2);
  write_veg(dir() / "bridge.veg", box);
  std::string bou;
  for (Index v = 0; v < box.num_vertices(); ++v)
    if (box.vertices(v, 0) == 0.0 || box.vertices(v, 0) == 8.0) bou += std::to_string(v + 1) + "\n";
  write("bridge.bou", bou);
  const Scene scene =
      load({{"scene.mesh", "bridge.veg", "test"}, {"scene.fixed", "bridge.bou", "test"}});
  ASSERT_EQ(scene.tracked_vertices.size(), 1u);
  const Index tracked = scene.tracked_vertices[0];
  EXPECT_FALSE(
      std::binary_search(scene.fixed_vertices.begin(), scene.fixed_vertices.end(), tracked));
  EXPECT_EQ(scene.mesh.vertices(tracked, 0), 4.0);
}

TEST_F(SceneTest, LoopsAreKeptOrCutIntoASpanningTreeOnRequest) {
  write_ring();
  const Scene kept =
      load({{"scene.mesh", "ring.veg", "test"}, {"scene.domains", "ring.domains", "test"}});
  EXPECT_EQ(kept.num_domains(), 4);
  EXPECT_EQ(kept.graph.edges().size(), 4u);
  EXPECT_FALSE(kept.graph.is_tree());
  EXPECT_EQ(kept.graph.find_cycle().size(), 4u);
  EXPECT_TRUE(kept.removed_edges.empty());

  const Scene cut = load({{"scene.mesh", "ring.veg", "test"},
                          {"scene.domains", "ring.domains", "test"},
                          {"scene.root", "0", "test"},
                          {"scene.resolve_loops", "spanning-tree", "test"}});
  EXPECT_TRUE(cut.graph.is_tree());
  EXPECT_EQ(cut.graph.edges().size(), 3u);
  ASSERT_EQ(cut.removed_edges.size(), 1u);
  // Breadth-first from 0 reaches 1 and 3, then 2 through 1: the edge closing the loop is 2–3.
  EXPECT_EQ(cut.removed_edges[0].a, 2);
  EXPECT_EQ(cut.removed_edges[0].b, 3);

  const std::string m = error_message([&] {
    load({{"scene.mesh", "ring.veg", "test"}, {"scene.resolve_loops", "maybe", "test"}});
  });
  EXPECT_NE(m.find("test: [scene] resolve_loops = 'maybe': expected one of error, spanning-tree"),
            std::string::npos)
      << m;
}
