// SPDX-License-Identifier: GPL-3.0-or-later
// `substruct generate flower|tree|beam|bar|bimaterial-bar|torus-knot`: the files it writes make a
// scene that loads (and, for the paper scenes, that `full` runs).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include <sys/wait.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/bar_generator.hpp"
#include "substruct/scene/flower_generator.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/scene/torus_knot_generator.hpp"
#include "substruct/scene/tree_generator.hpp"
#include "substruct/sim/simulation.hpp"
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
  EXPECT_NE(log().find("rose.veg: 1099 vertices, 2640 tets, 12 element sets"), std::string::npos)
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
  EXPECT_EQ(scene.root, 10);  // stem0 in set-name order
  const TreeView tree = scene.graph.rooted_at(scene.root);
  EXPECT_EQ(*std::max_element(tree.depth.begin(), tree.depth.end()), 3);
  EXPECT_EQ(scene.fixed_vertices, fixed);
  ASSERT_EQ(scene.tracked_vertices.size(), 3u);
  // The first tracked vertex is the top centre of the bloom, 18 cells up.
  const Vec3 top = scene.mesh.vertices.row(scene.tracked_vertices[0]).transpose();
  EXPECT_EQ(top.x(), 0.0);
  EXPECT_NEAR(top.y(), 0.18, 1e-15);
  EXPECT_EQ(top.z(), 0.0);
}

TEST_F(GenerateCommand, TreeSceneLoadsWithOneDomainPerPartAndInstancingSettings) {
  ASSERT_EQ(generate(fmt::format("tree --out '{}' --branches 7 --leaves-per-branch 5 --name oak",
                                 dir().string())),
            0)
      << log();
  // 7 branches: ⌈7 / 4⌉ = 2 on the trunk with 3 and 2 sub-branches; 5 leaves on each.
  TreeParameters p;
  p.branches = 7;
  p.leaves_per_branch = 5;
  std::vector<Index> fixed;
  TreeSummary summary;
  const TetMesh expected = generate_tree(p, &fixed, &summary);
  ASSERT_EQ(summary.domains, 1 + 7 + 35);
  EXPECT_NE(log().find(fmt::format("oak.veg: {} vertices, {} tets, 43 element sets",
                                   expected.num_vertices(), expected.num_elements())),
            std::string::npos)
      << log();
  EXPECT_NE(log().find("tree: 43 domains (1 trunk, 7 branches = 2 + 5 by level, 35 leaves), "
                       "depth 3, 3 branch shapes"),
            std::string::npos)
      << log();
  EXPECT_NE(log().find(fmt::format("size: {} vertices, {} tets, {} DOFs; reduced ≈ ",
                                   expected.num_vertices(), expected.num_elements(),
                                   3 * expected.num_vertices())),
            std::string::npos)
      << log();

  const TetMesh mesh = read_veg(dir() / "oak.veg");
  EXPECT_TRUE(mesh.vertices == expected.vertices);
  EXPECT_TRUE(mesh.tets == expected.tets);
  EXPECT_EQ(mesh.element_material, expected.element_material);
  EXPECT_EQ(read_bou(dir() / "oak.bou", mesh.num_vertices()), fixed);

  // The scene asks for the inertia coupling; it loads with any coupling plugin that is installed.
  const std::string ini = read("oak.ini");
  EXPECT_NE(ini.find("[coupling]\nplugin = inertia\n"), std::string::npos) << ini;
  EXPECT_NE(ini.find("[reduction]\nmode_count = adaptive"), std::string::npos) << ini;
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Config config = Config::load(dir() / "oak.ini", {"--coupling.plugin=full"}, host);
  EXPECT_EQ(config.get<std::string>("reduction.mode_count"), "adaptive");
  EXPECT_EQ(config.get<int>("reduction.r_max"), 20);
  EXPECT_TRUE(config.get<bool>("reduction.instancing"));
  const Scene scene = load_scene(config);
  EXPECT_EQ(scene.num_domains(), 43);
  EXPECT_TRUE(scene.graph.is_tree());
  EXPECT_EQ(scene.root, 42);  // "trunk" sorts after "branch…" and "leaf…"
  const TreeView tree = scene.graph.rooted_at(scene.root);
  EXPECT_EQ(*std::max_element(tree.depth.begin(), tree.depth.end()), 3);
  EXPECT_EQ(scene.fixed_vertices, fixed);
  ASSERT_EQ(scene.tracked_vertices.size(), 3u);
  // The tips of branch0 (domain 0) and of leaf00 (domain 7, after branch0…6).
  EXPECT_EQ(scene.vertex_domain[static_cast<std::size_t>(scene.tracked_vertices[1])], 0);
  EXPECT_EQ(scene.vertex_domain[static_cast<std::size_t>(scene.tracked_vertices[2])], 7);
}

TEST_F(GenerateCommand, RigidLeavesAreTheLeafDomainsAsARange) {
  ASSERT_EQ(generate(fmt::format("tree --out '{}' --branches 7 --leaves-per-branch 5 --name "
                                 "rigid --rigid-leaves",
                                 dir().string())),
            0)
      << log();
  const std::string ini = read("rigid.ini");
  // Domains by set name: branch0…6 are 0–6, leaf… 7–41, trunk 42.
  EXPECT_NE(ini.find("[inertia]\nrigid_domains = 7-41  # the 35 leaves"), std::string::npos) << ini;
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Config config = Config::load(dir() / "rigid.ini", {}, host);
  const std::vector<Index> rigid = config.indices("inertia.rigid_domains");
  ASSERT_EQ(rigid.size(), 35u);
  const Scene scene = load_scene(config);
  for (Index d : rigid) {
    const auto& sets = scene.decomposition.domains[static_cast<std::size_t>(d)].mesh.element_sets;
    EXPECT_TRUE(sets.size() == 1 && sets.begin()->first.starts_with("leaf")) << d;
  }
}

TEST_F(GenerateCommand, ForestRunsUnderInertiaOnItsRigidGround) {
  ASSERT_EQ(generate(fmt::format("forest --out '{}' --plants 4 --variation 0.5 --cache-free",
                                 dir().string())),
            1)
      << "an unknown option is an error";
  ASSERT_EQ(generate(fmt::format("forest --out '{}' --plants 4 --variation 0.5", dir().string())),
            0)
      << log();
  EXPECT_NE(log().find("forest: 4 plants (2 + 1 + 1 by species"), std::string::npos) << log();
  const std::string ini = read("forest.ini");
  EXPECT_EQ(ini.find("[inertia]"), std::string::npos) << ini;  // nothing to say: r = 0
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Config config =
      Config::load(dir() / "forest.ini", {"--run.exporters=", "--run.steps=5"}, host);
  const Scene scene = load_scene(config);
  EXPECT_EQ(scene.root, 0);  // the ground holds every fixed vertex
  // The ground is the fixed virtual root: every vertex of it is fixed, none other.
  std::set<Index> ground;
  for (Index e : scene.mesh.element_sets.at("ground"))
    for (int a = 0; a < 4; ++a) ground.insert(scene.mesh.tets(e, a));
  EXPECT_EQ(std::set<Index>(scene.fixed_vertices.begin(), scene.fixed_vertices.end()), ground);
  EXPECT_TRUE(scene.graph.is_tree());
  const TreeView tree = scene.graph.rooted_at(0);
  EXPECT_EQ(tree.children[0].size(), 4u);  // the trunks
  // A few steps of inertia coupling under gravity: the ground does not move, the plants do.
  Simulation sim(config, host);
  const RunSummary run = sim.run();
  EXPECT_EQ(run.steps, 5);
  double ground_motion = 0, plant_motion = 0;
  for (Index v = 0; v < scene.mesh.num_vertices(); ++v) {
    const double d = (sim.positions().row(v) - scene.mesh.vertices.row(v)).norm();
    (scene.vertex_domain[static_cast<std::size_t>(v)] == 0 ? ground_motion : plant_motion) += d;
  }
  EXPECT_EQ(ground_motion, 0.0);
  EXPECT_GT(plant_motion, 0.0);
}

TEST_F(GenerateCommand, ForestOfNamedSpeciesWithRigidLeavesHasOneLeafRangePerPlant) {
  ASSERT_EQ(generate(fmt::format("forest --out '{}' --plants 3 --species oak", dir().string())), 1);
  EXPECT_NE(log().find("unknown species 'oak' (species: broadleaf, conifer, bush, fir"),
            std::string::npos)
      << log();
  ASSERT_EQ(generate(fmt::format("forest --out '{}' --plants 3 --species conifer,bush "
                                 "--variation 0 --rigid-leaves",
                                 dir().string())),
            0)
      << log();
  EXPECT_NE(log().find("forest: 3 plants (2 + 1 by species"), std::string::npos) << log();
  const std::string ini = read("forest.ini");
  // Sets by name: ground, then per plant branch…, leaf…, trunk; each plant's leaves a range.
  EXPECT_NE(ini.find("[inertia]\nrigid_domains = 9-40 46-53 63-94  # the 72 leaves"),
            std::string::npos)
      << ini;
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Config config = Config::load(dir() / "forest.ini", {}, host);
  const std::vector<Index> rigid = config.indices("inertia.rigid_domains");
  ASSERT_EQ(rigid.size(), 72u);
  const Scene scene = load_scene(config);
  std::size_t leaves = 0;
  for (Index d = 0; d < scene.num_domains(); ++d) {
    const auto& sets = scene.decomposition.domains[static_cast<std::size_t>(d)].mesh.element_sets;
    const bool leaf = sets.size() == 1 && sets.begin()->first.find("_leaf") != std::string::npos;
    leaves += leaf;
    EXPECT_EQ(leaf, std::find(rigid.begin(), rigid.end(), d) != rigid.end()) << d;
  }
  EXPECT_EQ(leaves, 72u);
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

// Loads DIR/NAME.ini and steps `full` a few times; returns the scene's tracked vertices' drop.
std::vector<double> run_full(const fs::path& ini, const PluginHost& host, int steps) {
  Simulation sim(Config::load(ini, {"--run.exporters=", "--coupling.plugin=full"}, host), host);
  sim.precompute();
  sim.reset();
  StepStats stats;
  for (int i = 0; i < steps; ++i) sim.step(stats);
  EXPECT_TRUE(sim.positions().allFinite()) << ini;
  std::vector<double> drops;
  for (Index v : sim.scene().tracked_vertices)
    drops.push_back(sim.scene().mesh.vertices(v, 1) - sim.positions()(v, 1));
  return drops;
}

TEST_F(GenerateCommand, BarSceneHasItsDomainsAlongTheBarAndDamping) {
  ASSERT_EQ(generate(fmt::format("bar --out '{}' --cells 12 2 2 --domains 4 --rayleigh-mass 0.5 "
                                 "--youngs-modulus 5e6",
                                 dir().string())),
            0)
      << log();
  EXPECT_NE(log().find("bar.veg: 117 vertices, 288 tets, 4 element sets"), std::string::npos)
      << log();
  const std::string ini = read("bar.ini");
  EXPECT_NE(ini.find("domains = sets\n"), std::string::npos) << ini;
  EXPECT_NE(ini.find("rayleigh_mass = 0.5  #"), std::string::npos) << ini;
  EXPECT_NE(ini.find("steps = 300\n"), std::string::npos) << ini;
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Scene scene = load_scene(Config::load(dir() / "bar.ini", {}, host));
  EXPECT_EQ(scene.num_domains(), 4);
  EXPECT_TRUE(scene.graph.is_tree());
  EXPECT_EQ(scene.root, 0);  // domain0, at the clamp
  EXPECT_EQ(scene.rayleigh_mass, 0.5);
  EXPECT_EQ(scene.mesh.materials[0].youngs_modulus, 5e6);
  EXPECT_EQ(scene.fixed_vertices.size(), 9u);
  ASSERT_EQ(scene.tracked_vertices.size(), 4u);
  for (Index v : scene.tracked_vertices) EXPECT_EQ(scene.mesh.vertices(v, 0), 1.0);
  for (double drop : run_full(dir() / "bar.ini", host, 3)) EXPECT_GT(drop, 0);
}

TEST_F(GenerateCommand, TorusKnotSceneIsACycleOfDomainsThatFullRuns) {
  ASSERT_EQ(generate(fmt::format("torus-knot --out '{}' --name knot --domains 3 --segments 30",
                                 dir().string())),
            0)
      << log();
  EXPECT_NE(log().find("knot.veg: 270 vertices, 720 tets, 3 element sets"), std::string::npos)
      << log();
  EXPECT_NE(log().find("knot.bou: 9 fixed vertices"), std::string::npos) << log();
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Scene scene = load_scene(Config::load(dir() / "knot.ini", {}, host));
  EXPECT_EQ(scene.num_domains(), 3);
  EXPECT_EQ(scene.graph.find_cycle(), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(scene.root, 0);
  ASSERT_EQ(scene.tracked_vertices.size(), 2u);
  // The first tracked vertex is the lowest one.
  EXPECT_EQ(scene.mesh.vertices(scene.tracked_vertices[0], 1),
            scene.mesh.vertices.col(1).minCoeff());
  // With resolve_loops = spanning-tree the cycle is cut once.
  const Scene tree =
      load_scene(Config::load(dir() / "knot.ini", {"--scene.resolve_loops=spanning-tree"}, host));
  EXPECT_TRUE(tree.graph.is_tree());
  EXPECT_EQ(tree.removed_edges.size(), 1u);
  for (double drop : run_full(dir() / "knot.ini", host, 3)) EXPECT_GT(drop, 0);
}

TEST_F(GenerateCommand, BimaterialBarSceneHasTwoMaterialsAndAutomaticDomains) {
  ASSERT_EQ(generate(fmt::format("bimaterial-bar --out '{}' --stiffness-ratio 20", dir().string())),
            0)
      << log();
  EXPECT_NE(log().find("bimaterial_bar.veg: 625 vertices, 2304 tets, 2 element sets"),
            std::string::npos)
      << log();
  const std::string ini = read("bimaterial_bar.ini");
  EXPECT_NE(ini.find("domains = auto:4\n"), std::string::npos) << ini;
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Scene scene = load_scene(Config::load(dir() / "bimaterial_bar.ini", {}, host));
  EXPECT_EQ(scene.num_domains(), 4);
  ASSERT_EQ(scene.mesh.materials.size(), 2u);
  EXPECT_EQ(scene.mesh.materials[0].name, "stiff");
  EXPECT_DOUBLE_EQ(scene.mesh.materials[0].youngs_modulus,
                   20 * scene.mesh.materials[1].youngs_modulus);
  EXPECT_EQ(scene.mesh.material_of(0).name, "stiff");      // cell (0, 0, 0), at the clamp
  EXPECT_EQ(scene.mesh.material_of(23 * 6).name, "soft");  // cell (23, 0, 0), at the free end
  const Scene halves =
      load_scene(Config::load(dir() / "bimaterial_bar.ini", {"--scene.domains=sets"}, host));
  EXPECT_EQ(halves.num_domains(), 2);
  for (double drop : run_full(dir() / "bimaterial_bar.ini", host, 3)) EXPECT_GT(drop, 0);
}

TEST_F(GenerateCommand, BadArgumentsFailWithAMessage) {
  EXPECT_EQ(generate("shrub --out x"), 1);
  EXPECT_NE(log().find("unknown shape 'shrub'"), std::string::npos) << log();
  EXPECT_EQ(generate(fmt::format("tree --out '{}' --leaf-width 3", dir().string())), 1);
  EXPECT_NE(log().find("leaf_width must be even, found 3"), std::string::npos) << log();
  EXPECT_EQ(generate(fmt::format("tree --out '{}' --branches 0", dir().string())), 1);
  EXPECT_NE(log().find("branches must be in [1, 100000], found 0"), std::string::npos) << log();
  EXPECT_EQ(generate("tree --help"), 0);
  EXPECT_NE(log().find("--leaves-per-branch"), std::string::npos) << log();
  EXPECT_EQ(generate("flower"), 1);  // --out is required
  EXPECT_NE(log().find("out"), std::string::npos) << log();
  EXPECT_EQ(generate(fmt::format("flower --out '{}' --petals 6", dir().string())), 1);
  EXPECT_NE(log().find("petals"), std::string::npos) << log();
  EXPECT_EQ(generate(fmt::format("beam --out '{}' --cells 3 3", dir().string())), 1);
  EXPECT_NE(log().find("three counts"), std::string::npos) << log();
  EXPECT_EQ(generate("flower --help"), 0);
  EXPECT_NE(log().find("--segments"), std::string::npos) << log();
  EXPECT_EQ(generate(fmt::format("bar --out '{}' --domains 30", dir().string())), 1);
  EXPECT_NE(log().find("domains must be in [1, cells along x = 24], found 30"), std::string::npos)
      << log();
  EXPECT_EQ(generate(fmt::format("torus-knot --out '{}' --p 2 --q 4", dir().string())), 1);
  EXPECT_NE(log().find("p and q must be coprime"), std::string::npos) << log();
  EXPECT_EQ(generate(fmt::format("bimaterial-bar --out '{}' --cells 7 4 4", dir().string())), 1);
  EXPECT_NE(log().find("must be even"), std::string::npos) << log();
  EXPECT_EQ(generate("torus-knot --help"), 0);
  EXPECT_NE(log().find("--tube-radius"), std::string::npos) << log();
  EXPECT_EQ(generate("bimaterial-bar --help"), 0);
  EXPECT_NE(log().find("--stiffness-ratio"), std::string::npos) << log();
}

TEST_F(GenerateCommand, OptionsComeFromOneDeclarationWithTypesDefaultsAndBounds) {
  // The help lists each option with its default, unit and type.
  ASSERT_EQ(generate("bar --help"), 0);
  EXPECT_NE(log().find("usage: substruct generate bar --out DIR [--domains N] [--cells NX NY NZ]"),
            std::string::npos)
      << log();
  EXPECT_NE(log().find("  --cells = 24 4 4  (indices, A-B for A to B)\n"), std::string::npos)
      << log();
  EXPECT_NE(log().find("  --dt = 0.01 [s]  (number > 0)\n"), std::string::npos) << log();
  EXPECT_NE(log().find("  --steps = 300  (integer ≥ 0)\n"), std::string::npos) << log();
  EXPECT_NE(log().find("  --youngs-modulus = 3000000 [Pa]  (number > 0)\n      E\n"),
            std::string::npos)
      << log();
  // A value its option refuses is named with the option and what it expects.
  EXPECT_EQ(generate(fmt::format("bar --out '{}' --dt 0", dir().string())), 1);
  EXPECT_NE(log().find("generate bar: --dt '0': expected a finite number > 0"), std::string::npos)
      << log();
  EXPECT_EQ(generate(fmt::format("hybrid-bar --out '{}' --rigid-domains 1 x", dir().string())), 1);
  EXPECT_NE(log().find("generate hybrid-bar: --rigid-domains '1 x': item 'x': expected "
                       "non-negative indices"),
            std::string::npos)
      << log();
  EXPECT_EQ(generate(fmt::format("figure --out '{}' --shape dragon", dir().string())), 1);
  EXPECT_NE(log().find("--shape 'dragon': expected one of hammock, caterpillar, armadillo, chain"),
            std::string::npos)
      << log();
  EXPECT_EQ(generate(fmt::format("beam --out '{}' --steps", dir().string())), 1);
  EXPECT_NE(log().find("generate beam: --steps needs a value"), std::string::npos) << log();
  EXPECT_EQ(generate(fmt::format("beam --out '{}' 12", dir().string())), 1);
  EXPECT_NE(log().find("generate beam: unexpected argument '12'"), std::string::npos) << log();
  EXPECT_EQ(generate("beam --cells 2 2 2"), 1);
  EXPECT_NE(log().find("generate beam: where to? --out DIR is required"), std::string::npos)
      << log();
  // A list's items in one argument or several, --key=VALUE, a range: the same scene.
  ASSERT_EQ(generate(fmt::format("hybrid-bar --out '{}' --name a --domains 5 --rigid-domains 1 3",
                                 dir().string())),
            0)
      << log();
  ASSERT_EQ(generate(fmt::format("hybrid-bar --out '{}' --name b --domains=5 --rigid-domains=1,3",
                                 dir().string())),
            0)
      << log();
  const std::string a = read("a.ini");
  EXPECT_NE(a.find("[spectral-hybrid]\nrigid_domains = 1 3\n"), std::string::npos) << a;
  std::string b = read("b.ini");
  EXPECT_NE(b.find("[spectral-hybrid]\nrigid_domains = 1 3\n"), std::string::npos) << b;
  ASSERT_EQ(generate(fmt::format("hybrid-bar --out '{}' --name c --domains 5 --rigid-domains 1-3",
                                 dir().string())),
            0)
      << log();
  const std::string c = read("c.ini");
  EXPECT_NE(c.find("[spectral-hybrid]\nrigid_domains = 1 2 3\n"), std::string::npos) << c;
}

}  // namespace
