// SPDX-License-Identifier: GPL-3.0-or-later
// The memory the inertia coupling holds per domain, by kind, on a small generated forest with
// rigid leaves (the figures `substruct run` prints): a rigid leaf holds its pose, its part of the
// scene and of the reduced layout, and no mass matrix or basis; instances share their model.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/forest_generator.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/sim/simulation.hpp"
#include "support/scoped_dir.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

double figure(const PrecomputeStats& stats, const std::string& name) {
  for (const auto& [key, value] : stats.figures)
    if (key == name) return value;
  ADD_FAILURE() << "no figure " << name;
  return 0;
}

TEST(InertiaMemory, ForestDomainsHoldWhatDiffersOnly) {
  const testing::ScopedDir dir(fs::temp_directory_path() /
                               fmt::format("substruct-inertia-memory-{}", ::getpid()));
  ForestParameters p;
  p.plants = 3;
  p.species = {forest_species("conifer")};
  p.variation = 0.4;
  std::vector<Index> fixed;
  const TetMesh mesh = generate_forest(p, &fixed);
  write_veg(dir / "forest.veg", mesh);
  std::string bou;
  for (Index v : fixed) bou += fmt::format("{}\n", v + 1);
  std::ofstream(dir / "forest.bou") << bou;
  // Domains are the element sets in name order; the leaves rigid.
  std::string leaves;
  int d = 0, leaf_count = 0;
  Index leaf_vertices = 0;
  for (const auto& [name, elements] : mesh.element_sets) {
    if (name == "allElements") continue;
    if (name.find("_leaf") != std::string::npos) {
      leaves += fmt::format("{} ", d);
      ++leaf_count;
      leaf_vertices += static_cast<Index>(4 * elements.size());  // an upper bound
    }
    ++d;
  }
  ASSERT_GT(leaf_count, 20);

  const PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const std::vector<Setting> settings{{"scene.mesh", "forest.veg", "test"},
                                      {"scene.fixed", "forest.bou", "test"},
                                      {"scene.domains", "sets", "test"},
                                      {"coupling.plugin", "inertia", "test"},
                                      {"reduction.cache", "false", "test"},
                                      {"reduction.mode_count", "adaptive", "test"},
                                      {"reduction.r_max", "8", "test"},
                                      {"reduction.linear_modes", "4", "test"},
                                      {"reduction.instancing", "true", "test"},
                                      {"inertia.rigid_domains", leaves, "test"},
                                      {"run.exporters", "", "test"}};
  Simulation sim(Config::from_settings(settings, dir.path(), host), host);
  sim.precompute();
  const PrecomputeStats& stats = sim.precompute_stats();
  const double rigid = figure(stats, "memory: bytes per rigid domain");
  const double flexible = figure(stats, "memory: bytes per flexible domain");
  const double instance = figure(stats, "memory: bytes per instance domain");
  EXPECT_EQ(figure(stats, "memory: rigid domains"), leaf_count + 1);  // + the fixed ground
  EXPECT_GT(figure(stats, "memory: instance domains"), figure(stats, "memory: flexible domains"));

  // A rigid leaf: its sub-mesh (≈ 120 B per vertex with its tets), rest shape, lumped masses,
  // layout and pose, about 300 B per vertex and 1.5 kB of fixed size; its consistent mass matrix
  // alone (≈ 40 entries per row of 3N at 12 B) would be 1.4 kB per vertex.
  const double per_leaf_vertices = double(leaf_vertices) / leaf_count / 4;  // about 4 tets/vertex
  EXPECT_LT(rigid, 1500 + 400 * per_leaf_vertices) << "rigid " << rigid;
  // An instance shares its representative's model, integrals and frames: far below it.
  EXPECT_LT(instance, 0.5 * flexible) << "instance " << instance << ", flexible " << flexible;
  EXPECT_GT(rigid, 0);

  // The method names its rigid domains to the framework (substruct precompute reduces the
  // others only): the leaves, as flags per domain.
  const Config config = Config::from_settings(settings, dir.path(), host);
  const Scene scene = load_scene(config);
  const auto method =
      host.create<CouplingMethod>("inertia", PluginKind::coupling, PluginContext{config});
  const std::vector<bool> flags = method->rigid_domains(scene);
  ASSERT_EQ(flags.size(), static_cast<std::size_t>(scene.num_domains()));
  EXPECT_EQ(std::count(flags.begin(), flags.end(), true), leaf_count);
  int first_leaf = 0;
  while (!flags[static_cast<std::size_t>(first_leaf)]) ++first_leaf;
  EXPECT_EQ(first_leaf, std::stoi(leaves));
  // A domain the scene lacks: an Error naming it.
  std::vector<Setting> beyond = settings;
  for (Setting& setting : beyond)
    if (setting.key == "inertia.rigid_domains") setting.value = std::to_string(scene.num_domains());
  const Config bad = Config::from_settings(beyond, dir.path(), host);
  const std::string message = testing::error_message([&] {
    host.create<CouplingMethod>("inertia", PluginKind::coupling, PluginContext{bad})
        ->rigid_domains(scene);
  });
  EXPECT_NE(message.find(fmt::format("rigid domain {} is not a domain", scene.num_domains())),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace substruct
