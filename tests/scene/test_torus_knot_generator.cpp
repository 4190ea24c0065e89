// SPDX-License-Identifier: GPL-3.0-or-later
// generate_torus_knot: the paper's torus knot (Huang et al. 2006, Table 2) — a conforming tube
// whose boundary is a torus, domains of equal arc length in a cycle, and the shipped scene
// share/scenes/torus_knot.ini.
#include "substruct/scene/torus_knot_generator.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
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

TEST(TorusKnotGenerator, DefaultKnotHasThePapersSizeInSixEqualDomains) {
  std::vector<Index> fixed;
  TorusKnotSummary summary;
  const TetMesh mesh = generate_torus_knot(TorusKnotParameters{}, &fixed, &summary);
  EXPECT_EQ(mesh.num_elements(), 3 * 8 * 54);  // 1,296 (the paper: 1,354)
  EXPECT_EQ(mesh.num_vertices(), 9 * 54);      // 486 (the paper: 517)
  ASSERT_EQ(mesh.materials.size(), 1u);
  EXPECT_EQ(mesh.element_material, std::vector<Index>(1296, 0));

  std::vector<std::string> names;
  for (const auto& [name, elements] : mesh.element_sets) {
    names.push_back(name);
    EXPECT_EQ(elements.size(), 9u * 24) << name;  // 9 segments each
    EXPECT_TRUE(std::is_sorted(elements.begin(), elements.end())) << name;
    EXPECT_TRUE(testing::is_face_connected(mesh, elements)) << name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"domain0", "domain1", "domain2", "domain3", "domain4",
                                             "domain5"}));
  const std::vector<int> membership = testing::set_membership(mesh);
  EXPECT_TRUE(std::all_of(membership.begin(), membership.end(), [](int c) { return c == 1; }));

  // The clamped cross-section: section 4 (in the middle of domain 0), at the top of the knot.
  EXPECT_EQ(summary.fixed_section, 4);
  EXPECT_EQ(summary.opposite_section, 31);
  EXPECT_EQ(fixed, (std::vector<Index>{36, 37, 38, 39, 40, 41, 42, 43, 44}));
  EXPECT_NEAR(mesh.vertices(36, 0), 0.0, 1e-12);
  EXPECT_NEAR(mesh.vertices(36, 1), 0.145, 1e-12);
  EXPECT_NEAR(mesh.vertices(36, 2), 0.0, 1e-12);
  EXPECT_NEAR(mesh.vertices.col(1).maxCoeff(), 0.145 + 0.025, 1e-3);
  std::set<Index> domain0;
  for (Index e : mesh.element_sets.at("domain0"))
    for (int k = 0; k < 4; ++k) domain0.insert(mesh.tets(e, k));
  for (Index v : fixed) EXPECT_TRUE(domain0.count(v)) << v;
  // The tube keeps clear of itself; the centre line is about 1.53 m long.
  EXPECT_NEAR(summary.length, 1.534, 0.001);
  EXPECT_GT(summary.clearance, 2 * 0.025);
  EXPECT_GT(summary.min_curvature_radius, 0.025);
}

TEST(TorusKnotGenerator, TubeIsAConformingSolidTorusOfPositiveTets) {
  for (const auto& [p, q] : std::vector<std::pair<int, int>>{{2, 3}, {3, 2}, {1, 0}, {2, 5}}) {
    TorusKnotParameters prm;
    prm.p = p;
    prm.q = q;
    prm.knot_minor_radius = q == 5 ? 0.03 : 0.045;
    prm.tube_radius = q == 5 ? 0.01 : 0.025;
    prm.segments = q == 5 ? 120 : 54;
    const TetMesh mesh = generate_torus_knot(prm);
    EXPECT_NO_THROW(check_tet_mesh(mesh, "knot"));
    double smallest = 1e300, total = 0;
    for (Index e = 0; e < mesh.num_elements(); ++e) {
      const double v = signed_volume(mesh, e);
      smallest = std::min(smallest, v);
      total += v;
    }
    // Positive and not thin: the volume of a tet of an ideal prism is about a third of a prism's
    // (an octagon's slice of area 2√2 r² / 8 times a segment's length).
    EXPECT_GT(smallest, 0) << p << "," << q;
    const double segment = total / prm.segments;
    EXPECT_GT(smallest, 0.1 * segment / (3 * prm.sides)) << p << "," << q;
    // The volume is about that of the octagonal tube, length × 2√2 r² (less what the straight
    // segments cut off the curved line).
    TorusKnotSummary summary;
    generate_torus_knot(prm, nullptr, &summary);
    EXPECT_NEAR(
        total / (summary.length * 2 * std::numbers::sqrt2 * prm.tube_radius * prm.tube_radius), 1.0,
        0.04)
        << p << "," << q;

    // Conforming: every interior face in exactly two tets, boundary faces in one; the boundary
    // is one closed surface with Euler characteristic 0, a torus: 2 triangles per side and
    // segment.
    const testing::FaceCounts faces = count_faces(mesh);
    EXPECT_EQ(faces.other, 0) << p << "," << q;
    EXPECT_EQ(faces.boundary, 2 * prm.sides * prm.segments) << p << "," << q;
    EXPECT_EQ(4 * mesh.num_elements(), faces.boundary + 2 * faces.interior);
    EXPECT_TRUE(faces.boundary_is_closed_manifold) << p << "," << q;
    EXPECT_EQ(faces.euler_characteristic, 0) << p << "," << q;
    EXPECT_TRUE(testing::is_face_connected(mesh, mesh.element_sets.begin()->second));
  }
}

TEST(TorusKnotGenerator, DomainsFormOneCycleOfCrossSectionInterfaces) {
  std::vector<Index> fixed;
  const TetMesh mesh = generate_torus_knot(TorusKnotParameters{}, &fixed);
  const Decomposition decomposition =
      decompose(mesh, make_element_partition(mesh, "sets", std::filesystem::path(".")));
  ASSERT_EQ(decomposition.num_domains(), 6);
  const DomainGraph graph(decomposition.num_domains(), decomposition.interfaces);
  EXPECT_FALSE(graph.is_tree());
  EXPECT_EQ(graph.edges().size(), 6u);
  EXPECT_EQ(graph.find_cycle(), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  for (int d = 0; d < 6; ++d)
    EXPECT_EQ(graph.neighbors(d), (std::vector<int>{std::min((d + 1) % 6, (d + 5) % 6),
                                                    std::max((d + 1) % 6, (d + 5) % 6)}));
  for (const Interface& i : decomposition.interfaces) {
    EXPECT_EQ(i.rank, 2);
    EXPECT_EQ(i.vertices.size(), 9u);  // one cross-section (the paper: 52 in all, here 54)
  }
  EXPECT_EQ(graph.choose_root(fixed, decomposition), 0);
  // Cut at the loop, it is a tree.
  EXPECT_TRUE(graph.spanning_tree(0).tree.parent.size() == 6u);
  EXPECT_EQ(graph.spanning_tree(0).removed_edges.size(), 1u);
}

TEST(TorusKnotGenerator, DomainsAreEqualArcsForOtherCounts) {
  TorusKnotParameters p;
  p.domains = 4;
  p.segments = 40;
  p.sides = 6;
  std::vector<Index> fixed;
  TorusKnotSummary summary;
  const TetMesh mesh = generate_torus_knot(p, &fixed, &summary);
  EXPECT_EQ(summary.fixed_section, 5);
  for (const auto& [name, elements] : mesh.element_sets) EXPECT_EQ(elements.size(), 10u * 18);
  // Consecutive cross-sections are equally far apart along the centre line (their centres: chords
  // of equal arcs, nearly equal).
  std::vector<double> gaps;
  for (int s = 0; s < 40; ++s)
    gaps.push_back((mesh.vertices.row(7 * ((s + 1) % 40)) - mesh.vertices.row(7 * s)).norm());
  const auto [lo, hi] = std::minmax_element(gaps.begin(), gaps.end());
  EXPECT_LT(*hi / *lo, 1.02);
}

TEST(TorusKnotGenerator, RejectsParametersOutOfRange) {
  using Change = void (*)(TorusKnotParameters&);
  for (const auto& [what, change] : std::vector<std::pair<const char*, Change>>{
           {"p, q not coprime (a link)",
            [](TorusKnotParameters& p) {
              p.p = 2;
              p.q = 4;
            }},
           {"a tube thicker than the gap between strands",
            [](TorusKnotParameters& p) { p.tube_radius = 0.05; }},
           {"minor radius ≥ radius", [](TorusKnotParameters& p) { p.knot_minor_radius = 0.1; }},
           {"2 sides", [](TorusKnotParameters& p) { p.sides = 2; }},
           {"fewer than 2 segments per domain", [](TorusKnotParameters& p) { p.segments = 11; }},
           {"no domains", [](TorusKnotParameters& p) { p.domains = 0; }}}) {
    TorusKnotParameters p;
    change(p);
    EXPECT_THROW(generate_torus_knot(p), Error) << what;
  }
}

// share/scenes/torus_knot.ini and its mesh are what `substruct generate torus-knot --out
// share/scenes --mesh-dir share/meshes` writes; `full` runs it, cycle and all.
TEST(TorusKnotGenerator, ShippedSceneIsTheDefaultKnotAndFullRunsIt) {
  std::vector<Index> fixed;
  const TetMesh expected = generate_torus_knot(TorusKnotParameters{}, &fixed);
  const TetMesh shipped = read_veg(testing::share_dir() / "meshes" / "torus_knot.veg");
  EXPECT_TRUE(shipped.vertices == expected.vertices);
  EXPECT_TRUE(shipped.tets == expected.tets);
  EXPECT_EQ(shipped.element_sets, expected.element_sets);
  EXPECT_EQ(read_bou(testing::share_dir() / "meshes" / "torus_knot.bou"), fixed);

  const PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  Simulation sim(Config::load(testing::share_dir() / "scenes" / "torus_knot.ini",
                              {"--run.exporters=", "--coupling.plugin=full"}, host),
                 host);
  EXPECT_EQ(sim.scene().num_domains(), 6);
  EXPECT_FALSE(sim.scene().graph.is_tree());  // resolve_loops = error keeps the cycle
  EXPECT_EQ(sim.scene().root, 0);
  EXPECT_EQ(sim.scene().fixed_vertices, fixed);
  sim.precompute();
  sim.reset();
  StepStats stats;
  for (int i = 0; i < 5; ++i) sim.step(stats);
  EXPECT_TRUE(sim.positions().allFinite());
  for (Index v : fixed) EXPECT_EQ(sim.positions().row(v), sim.scene().mesh.vertices.row(v));
  for (Index v : sim.scene().tracked_vertices)
    EXPECT_GT(sim.scene().mesh.vertices(v, 1) - sim.positions()(v, 1), 1e-4) << v;
}

}  // namespace
}  // namespace substruct
