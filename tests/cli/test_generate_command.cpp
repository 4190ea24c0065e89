// `substruct generate flower|beam`: the files it writes make a scene that loads.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <sys/wait.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/flower_generator.hpp"
#include "substruct/scene/scene.hpp"
#include "support/temp_dir_test.hpp"

using namespace substruct;
namespace fs = std::filesystem;

namespace {

class GenerateCommand : public substruct::testing::TempDirTest {
 protected:
  /// Runs `substruct generate ARGS`, its output in dir()/log; returns the exit status.
  int generate(const std::string& args) const {
    const std::string command =
        fmt::format("'{}' generate {} > '{}' 2>&1", SUBSTRUCT_CLI, args, (dir() / "log").string());
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  /// What the last generate() printed.
  std::string log() const { return read("log"); }
};

TEST_F(GenerateCommand, FlowerSceneLoadsWithOneDomainPerPartInATree) {
  ASSERT_EQ(generate(fmt::format("flower --out '{}' --mesh-dir '{}' --name rose --steps 7",
                                 (dir() / "scenes").string(), (dir() / "meshes").string())),
            0)
      << log();
  EXPECT_NE(log().find("rose.veg: 1083 vertices, 2640 tets, 12 element sets"), std::string::npos)
      << log();
  ASSERT_TRUE(fs::exists(dir() / "scenes" / "rose.ini"));

  // The written mesh is the generator's, exactly.
  std::vector<Index> fixed;
  const TetMesh expected = generate_flower(FlowerParameters{}, &fixed);
  const TetMesh mesh = read_veg(dir() / "meshes" / "rose.veg");
  EXPECT_TRUE(mesh.vertices == expected.vertices);
  EXPECT_TRUE(mesh.tets == expected.tets);
  EXPECT_EQ(read_bou(dir() / "meshes" / "rose.bou", mesh.num_vertices()), fixed);

  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Config config = Config::load(dir() / "scenes" / "rose.ini", {}, host);
  EXPECT_EQ(config.get<long>("run.steps"), 7);
  EXPECT_EQ(config.get<std::string>("run.output"), "out/rose.pvd");
  const Scene scene = load_scene(config);
  EXPECT_EQ(scene.num_domains(), 12);
  EXPECT_TRUE(scene.graph.is_tree());
  EXPECT_EQ(scene.root, 9);  // stem0 in set-name order
  EXPECT_EQ(scene.fixed_vertices, fixed);
  ASSERT_EQ(scene.tracked_vertices.size(), 3u);
  // The first tracked vertex is the top centre of the bloom, 26 cells up.
  const Vec3 top = scene.mesh.vertices.row(scene.tracked_vertices[0]).transpose();
  EXPECT_EQ(top.x(), 0.0);
  EXPECT_NEAR(top.y(), 0.26, 1e-15);
  EXPECT_EQ(top.z(), 0.0);
}

TEST_F(GenerateCommand, BeamSceneHasTheRequestedCells) {
  ASSERT_EQ(generate(fmt::format("beam --out '{}' --length 2 --cells 4 1 1 --domains auto:2",
                                 dir().string())),
            0)
      << log();
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Scene scene = load_scene(Config::load(dir() / "beam.ini", {}, host));
  EXPECT_EQ(scene.mesh.num_elements(), 24);
  EXPECT_EQ(scene.mesh.num_vertices(), 20);
  EXPECT_EQ(scene.num_domains(), 2);
  EXPECT_EQ(scene.fixed_vertices.size(), 4u);  // the x = 0 face
  for (Index v : scene.fixed_vertices) EXPECT_EQ(scene.mesh.vertices(v, 0), 0.0);
  ASSERT_EQ(scene.tracked_vertices.size(), 1u);
  EXPECT_EQ(scene.mesh.vertices(scene.tracked_vertices[0], 0), 2.0);  // the free end
}

TEST_F(GenerateCommand, BadArgumentsFailWithAMessage) {
  EXPECT_EQ(generate("tree --out x"), 1);
  EXPECT_NE(log().find("unknown shape 'tree'"), std::string::npos) << log();
  EXPECT_EQ(generate("flower"), 1);  // --out is required
  EXPECT_NE(log().find("out"), std::string::npos) << log();
  EXPECT_EQ(generate(fmt::format("flower --out '{}' --petals 6", dir().string())), 1);
  EXPECT_NE(log().find("petals"), std::string::npos) << log();
  EXPECT_EQ(generate(fmt::format("beam --out '{}' --cells 3 3", dir().string())), 1);
  EXPECT_NE(log().find("three counts"), std::string::npos) << log();
  EXPECT_EQ(generate("flower --help"), 0);
  EXPECT_NE(log().find("--segments"), std::string::npos) << log();
}

}  // namespace
