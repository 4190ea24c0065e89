// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/flower_generator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/LU>

#include "substruct/core/error.hpp"
#include "substruct/domains/decomposition.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "substruct/domains/element_partition.hpp"

namespace substruct {
namespace {

double signed_volume(const TetMesh& mesh, Index e) {
  Mat3 dm;
  for (int k = 0; k < 3; ++k)
    dm.col(k) =
        (mesh.vertices.row(mesh.tets(e, k + 1)) - mesh.vertices.row(mesh.tets(e, 0))).transpose();
  return dm.determinant() / 6.0;
}

TEST(FlowerGenerator, DefaultFlowerHasTwelveNamedDomainsCoveringEveryElementOnce) {
  std::vector<Index> fixed;
  const TetMesh mesh = generate_flower(FlowerParameters{}, &fixed);

  // 2 stem segments of 2×2×8 cells, 5 leaves of 32 cells, a 6×6×2 bloom, 4 petals of 36 cells.
  EXPECT_EQ(mesh.num_elements(), 6 * (2 * 32 + 5 * 32 + 72 + 4 * 36));
  EXPECT_EQ(mesh.num_elements(), 2640);
  const std::vector<std::string> expected = {"bloom",  "leaf0",  "leaf1",  "leaf2",
                                             "leaf3",  "leaf4",  "petal0", "petal1",
                                             "petal2", "petal3", "stem0",  "stem1"};
  std::vector<std::string> names;
  for (const auto& [name, elements] : mesh.element_sets) names.push_back(name);
  EXPECT_EQ(names, expected);

  std::vector<int> count(static_cast<std::size_t>(mesh.num_elements()), 0);
  for (const auto& [name, elements] : mesh.element_sets) {
    EXPECT_FALSE(elements.empty()) << name;
    EXPECT_TRUE(std::is_sorted(elements.begin(), elements.end())) << name;
    for (Index e : elements) ++count.at(static_cast<std::size_t>(e));
  }
  EXPECT_TRUE(std::all_of(count.begin(), count.end(), [](int c) { return c == 1; }));
  EXPECT_EQ(mesh.element_sets.at("stem0").size(), 6u * 32);
  EXPECT_EQ(mesh.element_sets.at("bloom").size(), 6u * 72);
  EXPECT_EQ(mesh.element_sets.at("petal0").size(), 6u * 36);
  EXPECT_EQ(mesh.element_sets.at("leaf0").size(), 6u * 32);

  ASSERT_EQ(mesh.materials.size(), 1u);
  EXPECT_EQ(mesh.element_material.size(), static_cast<std::size_t>(mesh.num_elements()));
}

TEST(FlowerGenerator, EveryTetIsPositiveAndTheVolumeIsThatOfTheCells) {
  const FlowerParameters p;
  const TetMesh mesh = generate_flower(p);
  const double cell_volume = p.cell_size * p.cell_size * p.cell_size;
  // The curl is a vertical shear y += f(x, z); every Kuhn tet has two vertices on one vertical
  // line, so each keeps exactly the volume cell³/6 of its lattice tet.
  double smallest = 1e300;
  double largest = 0;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const double v = signed_volume(mesh, e) / (cell_volume / 6);
    smallest = std::min(smallest, v);
    largest = std::max(largest, v);
  }
  EXPECT_NEAR(smallest, 1.0, 1e-9);
  EXPECT_NEAR(largest, 1.0, 1e-9);
  // The curl does move the leaves: some vertex rose above its lattice height.
  bool lifted = false;
  for (Index v = 0; v < mesh.num_vertices(); ++v) {
    const double lattice = std::round(mesh.vertices(v, 1) / p.cell_size) * p.cell_size;
    lifted = lifted || std::abs(mesh.vertices(v, 1) - lattice) > 1e-3 * p.cell_size;
  }
  EXPECT_TRUE(lifted);

  // Every vertex is used, none twice.
  std::vector<bool> used(static_cast<std::size_t>(mesh.num_vertices()), false);
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int k = 0; k < 4; ++k) used[static_cast<std::size_t>(mesh.tets(e, k))] = true;
  EXPECT_TRUE(std::all_of(used.begin(), used.end(), [](bool u) { return u; }));
  std::set<std::vector<double>> distinct;
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    distinct.insert({mesh.vertices(v, 0), mesh.vertices(v, 1), mesh.vertices(v, 2)});
  EXPECT_EQ(distinct.size(), static_cast<std::size_t>(mesh.num_vertices()));
}

TEST(FlowerGenerator, FixedVerticesAreTheBaseOfTheStem) {
  const FlowerParameters p;
  std::vector<Index> fixed;
  const TetMesh mesh = generate_flower(p, &fixed);
  // (2 · stem_half_width + 1)² lattice points at y = 0.
  ASSERT_EQ(fixed.size(), 9u);
  EXPECT_TRUE(std::is_sorted(fixed.begin(), fixed.end()));
  std::set<Index> stem0;
  for (Index e : mesh.element_sets.at("stem0"))
    for (int k = 0; k < 4; ++k) stem0.insert(mesh.tets(e, k));
  for (Index v : fixed) {
    EXPECT_EQ(mesh.vertices(v, 1), 0.0);
    EXPECT_TRUE(stem0.count(v)) << v;
  }
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    if (std::find(fixed.begin(), fixed.end(), v) == fixed.end()) {
      EXPECT_GT(mesh.vertices(v, 1), 0.0) << v;
    }
  // The bloom is flat: its top is at 2 segments × 8 cells + 2 cells. The curl lifts the petal
  // tips above it: ρ₀ = √2 · 3 cells, a tip corner at (9, 2) cells rises 6 · (ρ − ρ₀)².
  double bloom_top = 0;
  for (Index e : mesh.element_sets.at("bloom"))
    for (int k = 0; k < 4; ++k) bloom_top = std::max(bloom_top, mesh.vertices(mesh.tets(e, k), 1));
  EXPECT_DOUBLE_EQ(bloom_top, 18 * p.cell_size);
  const double rho = std::hypot(0.09, 0.02);
  const double rho0 = std::sqrt(2.0) * 0.03;
  EXPECT_NEAR(mesh.vertices.col(1).maxCoeff(), 0.18 + 6 * (rho - rho0) * (rho - rho0), 1e-12);
}

TEST(FlowerGenerator, SameParametersGiveBitIdenticalMeshes) {
  FlowerParameters p;
  p.segments = 4;
  p.leaves = 5;
  p.petals = 3;
  std::vector<Index> fixed_a, fixed_b;
  const TetMesh a = generate_flower(p, &fixed_a);
  const TetMesh b = generate_flower(p, &fixed_b);
  EXPECT_TRUE(a.vertices == b.vertices);
  EXPECT_TRUE(a.tets == b.tets);
  EXPECT_EQ(a.element_sets, b.element_sets);
  EXPECT_EQ(fixed_a, fixed_b);
  EXPECT_EQ(a.element_sets.size(), 4u + 5u + 1u + 3u);
}

TEST(FlowerGenerator, DomainGraphIsATreeOfDepthThreeRootedAtTheBase) {
  std::vector<Index> fixed;
  const TetMesh mesh = generate_flower(FlowerParameters{}, &fixed);
  const Decomposition decomposition =
      decompose(mesh, make_element_partition(mesh, "sets", std::filesystem::path(".")));
  ASSERT_EQ(decomposition.num_domains(), 12);
  // Domains in set-name order: bloom 0, leaf0…4 1…5, petal0…3 6…9, stem0 10, stem1 11.
  const DomainGraph graph(decomposition.num_domains(), decomposition.interfaces);
  EXPECT_TRUE(graph.is_tree());
  for (const Interface& i : decomposition.interfaces) {
    EXPECT_EQ(i.rank, 2) << i.a << "–" << i.b;
    EXPECT_GE(i.vertices.size(), 4u) << i.a << "–" << i.b;
  }
  const int root = graph.choose_root(fixed, decomposition);
  EXPECT_EQ(root, 10);  // stem0
  const TreeView tree = graph.rooted_at(root);
  // As the paper's flower: root → stem1 → bloom → petals.
  EXPECT_EQ(*std::max_element(tree.depth.begin(), tree.depth.end()), 3);
  EXPECT_EQ(tree.parent[11], 10);  // stem1 on stem0
  EXPECT_EQ(tree.parent[0], 11);   // bloom on the top segment
  for (int petal = 6; petal <= 9; ++petal)
    EXPECT_EQ(tree.parent[static_cast<std::size_t>(petal)], 0);
  // Leaf i on segment i mod 2: leaves 0, 2, 4 on stem0, leaves 1 and 3 on stem1.
  EXPECT_EQ(tree.parent[1], 10);
  EXPECT_EQ(tree.parent[3], 10);
  EXPECT_EQ(tree.parent[5], 10);
  EXPECT_EQ(tree.parent[2], 11);
  EXPECT_EQ(tree.parent[4], 11);
}

TEST(FlowerGenerator, FourLeavesPerSegmentSitInTwoLayersOnFourSides) {
  FlowerParameters p;
  p.leaves = 8;
  const TetMesh mesh = generate_flower(p);
  const Decomposition decomposition =
      decompose(mesh, make_element_partition(mesh, "sets", std::filesystem::path(".")));
  ASSERT_EQ(decomposition.num_domains(), 2 + 8 + 1 + 4);
  EXPECT_TRUE(DomainGraph(decomposition.num_domains(), decomposition.interfaces).is_tree());
  // Leaves 0, 2, 4, 6 on stem0 point +x, −x (3 cells up), +z, −z (5 cells up).
  const auto lowest = [&](const std::string& leaf) {
    double y = 1e300, x = 0, z = 0;
    for (Index e : mesh.element_sets.at(leaf))
      for (int k = 0; k < 4; ++k) {
        const Index v = mesh.tets(e, k);
        y = std::min(y, mesh.vertices(v, 1));
        x += mesh.vertices(v, 0);
        z += mesh.vertices(v, 2);
      }
    return std::array<double, 3>{x > 0 ? 1.0 : -1.0, y / p.cell_size,
                                 std::abs(z) > std::abs(x) ? (z > 0 ? 1.0 : -1.0) : 0.0};
  };
  EXPECT_DOUBLE_EQ(lowest("leaf0")[1], 3.0);
  EXPECT_DOUBLE_EQ(lowest("leaf2")[1], 3.0);
  EXPECT_DOUBLE_EQ(lowest("leaf4")[1], 5.0);
  EXPECT_DOUBLE_EQ(lowest("leaf6")[1], 5.0);
  EXPECT_EQ(lowest("leaf0")[0], 1.0);
  EXPECT_EQ(lowest("leaf2")[0], -1.0);
  EXPECT_EQ(lowest("leaf4")[2], 1.0);
  EXPECT_EQ(lowest("leaf6")[2], -1.0);
}

TEST(FlowerGenerator, LargerFlowersStayTrees) {
  FlowerParameters p;
  p.segments = 5;
  p.leaves = 8;
  p.stem_half_width = 2;
  p.bloom_half_width = 4;
  p.petal_half_width = 6;
  const TetMesh mesh = generate_flower(p);
  const Decomposition decomposition =
      decompose(mesh, make_element_partition(mesh, "sets", std::filesystem::path(".")));
  EXPECT_EQ(decomposition.num_domains(), 5 + 8 + 1 + 4);
  EXPECT_TRUE(DomainGraph(decomposition.num_domains(), decomposition.interfaces).is_tree());
}

TEST(FlowerGenerator, RejectsParametersOutOfRange) {
  using Change = void (*)(FlowerParameters&);
  const std::vector<std::pair<const char*, Change>> out_of_range = {
      {"9 leaves (2 segments hold at most 8)", [](FlowerParameters& p) { p.leaves = 9; }},
      {"segment height 4 with 3 leaves on a segment",
       [](FlowerParameters& p) { p.segment_height = 4; }},
      {"5 petals", [](FlowerParameters& p) { p.petals = 5; }},
      {"segment height 2", [](FlowerParameters& p) { p.segment_height = 2; }},
      {"bloom half width 1", [](FlowerParameters& p) { p.bloom_half_width = 1; }},
      {"cell size 0", [](FlowerParameters& p) { p.cell_size = 0; }},
      {"curl 40 (slope 2 · 40 · (0.092 − 0.042) ≈ 4 at the petal tips)",
       [](FlowerParameters& p) { p.curl = 40; }},
  };
  for (const auto& [what, change] : out_of_range) {
    FlowerParameters p;
    change(p);
    EXPECT_THROW(generate_flower(p), Error) << what;
  }
  FlowerParameters p;
  p.segments = 1;
  p.leaves = 0;
  p.petals = 0;
  EXPECT_EQ(generate_flower(p).element_sets.size(), 2u);  // stem0 and bloom
}

}  // namespace
}  // namespace substruct
