// SPDX-License-Identifier: GPL-3.0-or-later
// generate_bar: the paper's bar (Huang et al. 2006, Fig. 1) — sizes, a conforming mesh with the
// square bar's symmetry, domains along the length, and the shipped scene share/scenes/bar.ini.
#include "substruct/scene/bar_generator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/domains/decomposition.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "substruct/domains/element_partition.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"
#include "support/shared_data.hpp"
#include "support/tet_mesh_topology.hpp"

namespace substruct {
namespace {

using testing::count_faces;
using testing::signed_volume;

TEST(BarGenerator, DefaultBarHasThePapersSizeInThreeEqualThirds) {
  const BarParameters p;
  std::vector<Index> fixed, tip;
  const TetMesh mesh = generate_bar(p, &fixed, &tip);
  EXPECT_EQ(mesh.num_elements(), 6 * 24 * 4 * 4);  // 2,304 (the paper: 2,205)
  EXPECT_EQ(mesh.num_vertices(), 25 * 5 * 5);      // 625 (the paper: 611)
  ASSERT_EQ(mesh.materials.size(), 1u);
  EXPECT_EQ(mesh.element_material, std::vector<Index>(2304, 0));

  std::vector<std::string> names;
  for (const auto& [name, elements] : mesh.element_sets) {
    names.push_back(name);
    EXPECT_EQ(elements.size(), 768u) << name;
    EXPECT_TRUE(std::is_sorted(elements.begin(), elements.end())) << name;
    EXPECT_TRUE(testing::is_face_connected(mesh, elements)) << name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"domain0", "domain1", "domain2"}));
  const std::vector<int> membership = testing::set_membership(mesh);
  EXPECT_TRUE(std::all_of(membership.begin(), membership.end(), [](int c) { return c == 1; }));
  // Domain d is the third [d/3, (d+1)/3] of the length.
  for (int d = 0; d < 3; ++d)
    for (Index e : mesh.element_sets.at("domain" + std::to_string(d)))
      for (int k = 0; k < 4; ++k) {
        const double x = mesh.vertices(mesh.tets(e, k), 0);
        EXPECT_GE(x, d / 3.0 - 1e-12);
        EXPECT_LE(x, (d + 1) / 3.0 + 1e-12);
      }

  // Clamped at x = 0 (a 5 × 5 face), tracked at the four corners of the free end.
  ASSERT_EQ(fixed.size(), 25u);
  EXPECT_TRUE(std::is_sorted(fixed.begin(), fixed.end()));
  for (Index v : fixed) EXPECT_EQ(mesh.vertices(v, 0), 0.0);
  ASSERT_EQ(tip.size(), 4u);
  std::set<std::array<double, 3>> corners;
  for (Index v : tip)
    corners.insert({mesh.vertices(v, 0), mesh.vertices(v, 1), mesh.vertices(v, 2)});
  EXPECT_EQ(corners, (std::set<std::array<double, 3>>{
                         {1, -0.05, -0.05}, {1, 0.05, -0.05}, {1, -0.05, 0.05}, {1, 0.05, 0.05}}));
}

TEST(BarGenerator, MeshIsConformingWithEqualPositiveTets) {
  BarParameters p;
  p.length = 1.3;
  p.height = 0.2;
  p.width = 0.1;
  p.cells_x = 7;
  p.cells_y = 3;
  p.cells_z = 2;
  const TetMesh mesh = generate_bar(p);
  const double cell = 1.3 / 7 * 0.2 / 3 * 0.1 / 2;
  double total = 0;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const double v = signed_volume(mesh, e);
    EXPECT_NEAR(v / (cell / 6), 1.0, 1e-9) << e;
    total += v;
  }
  EXPECT_NEAR(total, 1.3 * 0.2 * 0.1, 1e-12);
  EXPECT_NO_THROW(check_tet_mesh(mesh, "bar"));

  // Each interior face in two tets, each boundary face in one: 2 triangles per boundary quad.
  const testing::FaceCounts faces = count_faces(mesh);
  EXPECT_EQ(faces.other, 0);
  EXPECT_EQ(faces.boundary, 2 * 2 * (7 * 3 + 7 * 2 + 3 * 2));
  EXPECT_EQ(4 * mesh.num_elements(), faces.boundary + 2 * faces.interior);
  EXPECT_TRUE(faces.boundary_is_closed_manifold);
  EXPECT_EQ(faces.euler_characteristic, 2);  // a sphere
}

// The tets as sets of corner positions, mapped by (x, y, z) ↦ (x, sy·y, sz·z) or, with `turn`, by
// the quarter turn (x, y, z) ↦ (x, −z, y).
std::set<std::set<std::array<long, 3>>> tet_shapes(const TetMesh& mesh, int sy, int sz, bool turn) {
  std::set<std::set<std::array<long, 3>>> shapes;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    std::set<std::array<long, 3>> corners;
    for (int k = 0; k < 4; ++k) {
      const Index v = mesh.tets(e, k);
      const auto q = [&](int d) { return std::lround(1e6 * mesh.vertices(v, d)); };
      corners.insert(turn ? std::array<long, 3>{q(0), -q(2), q(1)}
                          : std::array<long, 3>{q(0), sy * q(1), sz * q(2)});
    }
    shapes.insert(corners);
  }
  return shapes;
}

TEST(BarGenerator, EvenCrossSectionsMakeTheMeshAsSymmetricAsTheBar) {
  const TetMesh mesh = generate_bar(BarParameters{});
  const auto shapes = tet_shapes(mesh, 1, 1, false);
  EXPECT_EQ(tet_shapes(mesh, -1, 1, false), shapes);  // y ↦ −y
  EXPECT_EQ(tet_shapes(mesh, 1, -1, false), shapes);  // z ↦ −z
  EXPECT_EQ(tet_shapes(mesh, 1, 1, true), shapes);    // a quarter turn about x
}

TEST(BarGenerator, DomainsFormAPathFromTheClampedEnd) {
  std::vector<Index> fixed;
  const TetMesh mesh = generate_bar(BarParameters{}, &fixed);
  const Decomposition decomposition =
      decompose(mesh, make_element_partition(mesh, "sets", std::filesystem::path(".")));
  ASSERT_EQ(decomposition.num_domains(), 3);
  const DomainGraph graph(decomposition.num_domains(), decomposition.interfaces);
  EXPECT_TRUE(graph.is_tree());
  EXPECT_EQ(graph.neighbors(0), std::vector<int>{1});
  EXPECT_EQ(graph.neighbors(1), (std::vector<int>{0, 2}));
  EXPECT_EQ(graph.neighbors(2), std::vector<int>{1});
  ASSERT_EQ(decomposition.interfaces.size(), 2u);
  for (const Interface& i : decomposition.interfaces) {
    EXPECT_EQ(i.rank, 2);
    EXPECT_EQ(i.vertices.size(), 25u);  // a full 5 × 5 cross-section (the paper: 50 in all)
    for (Index v : i.vertices) EXPECT_NEAR(mesh.vertices(v, 0), (i.a + 1) / 3.0, 1e-12);
  }
  EXPECT_EQ(graph.choose_root(fixed, decomposition), 0);
}

TEST(BarGenerator, DomainCountIsAParameterAndNamesSortAlongTheBar) {
  BarParameters p;
  p.domains = 5;  // 24 layers: 5, 5, 5, 5, 4 (⌊5 i / 24⌋)
  TetMesh mesh = generate_bar(p);
  std::vector<std::size_t> sizes;
  for (const auto& [name, elements] : mesh.element_sets) sizes.push_back(elements.size() / 96);
  EXPECT_EQ(sizes, (std::vector<std::size_t>{5, 5, 5, 5, 4}));

  p.domains = 12;
  mesh = generate_bar(p);
  ASSERT_EQ(mesh.element_sets.size(), 12u);
  EXPECT_EQ(mesh.element_sets.begin()->first, "domain00");
  EXPECT_EQ(mesh.element_sets.rbegin()->first, "domain11");
  const Decomposition decomposition =
      decompose(mesh, make_element_partition(mesh, "sets", std::filesystem::path(".")));
  const DomainGraph graph(12, decomposition.interfaces);
  EXPECT_TRUE(graph.is_tree());
  for (int d = 1; d < 11; ++d) EXPECT_EQ(graph.neighbors(d), (std::vector<int>{d - 1, d + 1}));
}

TEST(BarGenerator, RejectsParametersOutOfRange) {
  using Change = void (*)(BarParameters&);
  for (const auto& [what, change] : std::vector<std::pair<const char*, Change>>{
           {"more domains than cells along x", [](BarParameters& p) { p.domains = 25; }},
           {"no domains", [](BarParameters& p) { p.domains = 0; }},
           {"zero length", [](BarParameters& p) { p.length = 0; }},
           {"no cells across", [](BarParameters& p) { p.cells_z = 0; }},
           {"ν = 0.5", [](BarParameters& p) { p.material.poisson_ratio = 0.5; }}}) {
    BarParameters p;
    change(p);
    EXPECT_THROW(generate_bar(p), Error) << what;
  }
}

// share/scenes/bar.ini and its mesh are what `substruct generate bar --out share/scenes
// --mesh-dir share/meshes` writes; `full` runs it, the bar sagging under gravity.
TEST(BarGenerator, ShippedSceneIsTheDefaultBarAndFullRunsIt) {
  std::vector<Index> fixed;
  const TetMesh expected = generate_bar(BarParameters{}, &fixed);
  const TetMesh shipped = read_veg(testing::share_dir() / "meshes" / "bar.veg");
  EXPECT_TRUE(shipped.vertices == expected.vertices);
  EXPECT_TRUE(shipped.tets == expected.tets);
  EXPECT_EQ(shipped.element_sets, expected.element_sets);
  ASSERT_EQ(shipped.materials.size(), 1u);
  EXPECT_EQ(shipped.materials[0].youngs_modulus, expected.materials[0].youngs_modulus);
  EXPECT_EQ(read_bou(testing::share_dir() / "meshes" / "bar.bou"), fixed);

  const PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  Simulation sim(Config::load(testing::share_dir() / "scenes" / "bar.ini",
                              {"--run.exporters=", "--coupling.plugin=full"}, host),
                 host);
  EXPECT_EQ(sim.scene().num_domains(), 3);
  EXPECT_EQ(sim.scene().root, 0);
  ASSERT_EQ(sim.scene().tracked_vertices.size(), 4u);
  EXPECT_GT(sim.scene().rayleigh_mass, 0);
  sim.precompute();
  sim.reset();
  StepStats stats;
  for (int i = 0; i < 5; ++i) sim.step(stats);
  EXPECT_TRUE(sim.positions().allFinite());
  for (Index v : sim.scene().tracked_vertices) {
    const double drop = sim.scene().mesh.vertices(v, 1) - sim.positions()(v, 1);
    EXPECT_GT(drop, 0.001) << v;  // falling under gravity
    EXPECT_LT(drop, 0.1) << v;
  }
}

}  // namespace
}  // namespace substruct
