// SPDX-License-Identifier: GPL-3.0-or-later
// Vertices no tetrahedron uses: found, and refused by scenes and `modes` with a message naming
// the file and the vertices, unless they are fixed.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/mesh/unused_vertices.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/scene.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

TetMesh with_loose_vertex() {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 1, 1);  // 8 vertices
  mesh.vertices.conservativeResize(9, 3);
  mesh.vertices.row(8) = Vec3(5, 5, 5).transpose();
  return mesh;
}

TEST(UnusedVertices, AreFoundAndRefusedUnlessFixed) {
  const TetMesh mesh = with_loose_vertex();
  EXPECT_EQ(unused_vertices(mesh), (std::vector<Index>{8}));
  EXPECT_TRUE(unused_vertices(make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 2, 2, 2)).empty());
  const std::string why = testing::error_message([&] { require_used_or_fixed(mesh, {}, "m.veg"); });
  EXPECT_NE(why.find("m.veg: 1 of its 9 vertices belongs to no tetrahedron (0-based: 8)"),
            std::string::npos)
      << why;
  EXPECT_NO_THROW(require_used_or_fixed(mesh, {0, 8}, "m.veg"));
}

class UnusedVerticesScene : public testing::TempDirTest {};

TEST_F(UnusedVerticesScene, ASceneWithALooseVertexIsAnErrorNamingTheMesh) {
  write_veg(dir() / "loose.veg", with_loose_vertex());
  std::ofstream(dir() / "loose.bou") << "1\n";
  const PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Config config = Config::from_settings(
      {{"scene.mesh", "loose.veg", "test"}, {"scene.fixed", "loose.bou", "test"}}, dir(), host);
  const std::string why = testing::error_message([&] { load_scene(config); });
  EXPECT_NE(why.find("loose.veg: 1 of its 9 vertices belongs to no tetrahedron"), std::string::npos)
      << why;
  std::ofstream(dir() / "loose.bou") << "1\n9\n";  // fixed: accepted
  EXPECT_NO_THROW(load_scene(config));
}

}  // namespace
}  // namespace substruct
