// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/forest_generator.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/domains/decomposition.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "substruct/domains/element_partition.hpp"
#include "substruct/reduction/instancing.hpp"

namespace substruct {
namespace {

Decomposition decompose_sets(const TetMesh& mesh) {
  return decompose(mesh, make_element_partition(mesh, "sets", std::filesystem::path(".")));
}

std::vector<std::string> set_names(const TetMesh& mesh) {
  std::vector<std::string> names;
  for (const auto& [name, elements] : mesh.element_sets) names.push_back(name);
  return names;
}

// The number of instance classes: the models the forest needs.
std::size_t classes_of(const TetMesh& mesh) {
  return find_instances(decompose_sets(mesh)).size();
}

TEST(ForestGenerator, PlantsStandOnTheGroundTheRootOfTheDomainTree) {
  ForestParameters p;
  p.plants = 5;
  ForestSummary summary;
  std::vector<Index> fixed;
  const TetMesh mesh = generate_forest(p, &fixed, &summary);
  const std::vector<std::string> names = set_names(mesh);
  ASSERT_EQ(names.front(), "ground");
  EXPECT_EQ(summary.domains, static_cast<int>(names.size()));
  EXPECT_EQ(summary.plants_per_species, (std::vector<int>{2, 2, 1}));
  const Decomposition decomposition = decompose_sets(mesh);
  const DomainGraph graph(decomposition.num_domains(), decomposition.interfaces);
  ASSERT_TRUE(graph.is_tree());
  EXPECT_EQ(graph.choose_root(fixed, decomposition), 0);
  const TreeView tree = graph.rooted_at(0);
  // Every trunk is a child of the ground, and nothing else touches it.
  std::set<std::string> ground_children;
  for (int d = 1; d < static_cast<int>(names.size()); ++d)
    if (tree.parent[static_cast<std::size_t>(d)] == 0)
      ground_children.insert(names[static_cast<std::size_t>(d)]);
  EXPECT_EQ(ground_children,
            (std::set<std::string>{"p0_trunk", "p1_trunk", "p2_trunk", "p3_trunk", "p4_trunk"}));
  // The fixed vertices: every vertex of the ground slab (2 cells thick, below the trunks' bases).
  ASSERT_FALSE(fixed.empty());
  for (Index v : fixed) EXPECT_LE(mesh.vertices(v, 1), 1e-12);
  std::set<Index> ground;
  for (Index e : mesh.element_sets.at("ground"))
    for (int a = 0; a < 4; ++a) ground.insert(mesh.tets(e, a));
  EXPECT_EQ(std::set<Index>(fixed.begin(), fixed.end()), ground);
}

TEST(ForestGenerator, PlantsOfASpeciesAreCopiesAndVariedOnesAreNot) {
  ForestParameters same;
  same.plants = 6;
  same.variation = 0;
  ForestSummary s0;
  const TetMesh uniform = generate_forest(same, nullptr, &s0);
  EXPECT_EQ(s0.varied, 0);
  EXPECT_EQ(s0.distinct_plants, 3);
  ForestParameters varied = same;
  varied.variation = 1;
  ForestSummary s1;
  const TetMesh mixed = generate_forest(varied, nullptr, &s1);
  EXPECT_GT(s1.varied, 3);
  EXPECT_GT(s1.distinct_plants, 3);
  // Instancing: six plants of three species need the models of one plant of each (and the
  // ground); every varied plant adds models of its own.
  const std::size_t uniform_classes = classes_of(uniform), mixed_classes = classes_of(mixed);
  ForestParameters three = same;
  three.plants = 3;
  EXPECT_EQ(uniform_classes, classes_of(generate_forest(three)));
  EXPECT_GE(uniform_classes, 1u + 3u);
  EXPECT_GT(mixed_classes, uniform_classes);
}

TEST(ForestGenerator, SameSeedGivesBitIdenticalMeshes) {
  ForestParameters p;
  p.plants = 4;
  const TetMesh a = generate_forest(p), b = generate_forest(p);
  EXPECT_EQ(a.vertices, b.vertices);
  EXPECT_EQ(a.tets, b.tets);
  EXPECT_EQ(set_names(a), set_names(b));
}

TEST(ForestGenerator, SpeciesByNameIncludeAFirOfTheThesissSize) {
  const std::vector<TreeParameters> three = forest_species();
  EXPECT_EQ(forest_species("broadleaf").branches, three[0].branches);
  EXPECT_EQ(forest_species("conifer").levels, three[1].levels);
  EXPECT_EQ(forest_species("bush").trunk_base, three[2].trunk_base);
  // Zhao 2014 Table 5.1's fir: 9,077 domains, 588 flexible; ours 1 + 587 + 587 · 14 = 8,806.
  const TreeParameters fir = forest_species("fir");
  EXPECT_EQ(fir.branches, 587);
  EXPECT_EQ(1 + fir.branches + fir.branches * fir.leaves_per_branch, 8806);
  EXPECT_THROW(forest_species("oak"), Error);
}

TEST(ForestGenerator, RejectsParametersOutOfRange) {
  const auto message = [](const ForestParameters& p) {
    try {
      generate_forest(p);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  ForestParameters p;
  p.plants = 0;
  EXPECT_NE(message(p).find("forest: plants must be in [1, 10000], found 0"), std::string::npos);
  p = ForestParameters{};
  p.variation = 1.5;
  EXPECT_NE(message(p).find("variation must be in [0, 1]"), std::string::npos);
  p = ForestParameters{};
  p.ground_thickness = 3;
  EXPECT_NE(message(p).find("ground_thickness must be even"), std::string::npos);
  p = ForestParameters{};
  p.species = {TreeParameters{}};
  p.species.front().leaf_width = 3;
  EXPECT_NE(message(p).find("leaf_width must be even"), std::string::npos);
}

}  // namespace
}  // namespace substruct
