// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/tree_generator.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
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
#include "substruct/reduction/instancing.hpp"

namespace substruct {
namespace {

Decomposition decompose_sets(const TetMesh& mesh) {
  return decompose(mesh, make_element_partition(mesh, "sets", std::filesystem::path(".")));
}

/// The index of the domain made of element set `name` (domains are in set-name order).
int domain_of(const TetMesh& mesh, const std::string& name) {
  int d = 0;
  for (const auto& [set, elements] : mesh.element_sets) {
    if (set == name) return d;
    ++d;
  }
  return -1;
}

TEST(TreeGenerator, DefaultTreeIsATreeOfDepthThreeRootedAtTheTrunk) {
  std::vector<Index> fixed;
  TreeSummary summary;
  const TetMesh mesh = generate_tree(TreeParameters{}, &fixed, &summary);
  // 24 branches: ⌈24 / (1 + 3)⌉ = 6 on the trunk with 3 sub-branches each; 12 leaves on each.
  EXPECT_EQ(summary.domains, 1 + 24 + 24 * 12);
  EXPECT_EQ(summary.branches_per_level, (std::vector<int>{6, 18}));
  EXPECT_EQ(summary.leaves, 288);
  EXPECT_EQ(summary.depth, 3);
  EXPECT_EQ(mesh.element_sets.size(), 313u);

  const Decomposition decomposition = decompose_sets(mesh);
  ASSERT_EQ(decomposition.num_domains(), 313);
  const DomainGraph graph(decomposition.num_domains(), decomposition.interfaces);
  EXPECT_TRUE(graph.is_tree());
  const int trunk = domain_of(mesh, "trunk");
  EXPECT_EQ(graph.choose_root(fixed, decomposition), trunk);
  const TreeView tree = graph.rooted_at(trunk);
  EXPECT_EQ(*std::max_element(tree.depth.begin(), tree.depth.end()), 3);
  EXPECT_EQ(tree.children[static_cast<std::size_t>(trunk)].size(), 6u);
  // Every leaf hangs from a branch and has no children; every branch carries its 12 leaves.
  int leaves = 0;
  for (const auto& [name, elements] : mesh.element_sets) {
    const auto d = static_cast<std::size_t>(domain_of(mesh, name));
    if (name.starts_with("leaf")) {
      ++leaves;
      EXPECT_TRUE(tree.children[d].empty()) << name;
      EXPECT_EQ(elements.size(), 6u * 3 * 2) << name;  // 3 × 2 × 1 cells
    } else if (name.starts_with("branch")) {
      const auto& children = tree.children[d];
      EXPECT_EQ(
          std::count_if(
              children.begin(), children.end(),
              [&](int c) {
                return tree.children[static_cast<std::size_t>(c)].empty() &&
                       decomposition.domains[static_cast<std::size_t>(c)].mesh.num_elements() == 36;
              }),
          12)
          << name;
    }
  }
  EXPECT_EQ(leaves, 288);
}

TEST(TreeGenerator, InterfacesArePlanarFacesOfAtLeastSixVertices) {
  const TetMesh mesh = generate_tree(TreeParameters{});
  const Decomposition decomposition = decompose_sets(mesh);
  ASSERT_EQ(decomposition.interfaces.size(), 312u);  // a tree: one fewer than the domains
  std::size_t smallest = 1000;
  for (const Interface& i : decomposition.interfaces) {
    EXPECT_EQ(i.rank, 2) << i.a << "–" << i.b;  // planar, not on one line
    smallest = std::min(smallest, i.vertices.size());
  }
  EXPECT_EQ(smallest, 6u);  // a leaf's stalk: 3 × 2 vertices
  // The scene's graph (min_rank 0) and the one ignoring edge/corner contacts (min_rank 2) agree.
  const DomainGraph all(decomposition.num_domains(), decomposition.interfaces, 0);
  const DomainGraph faces(decomposition.num_domains(), decomposition.interfaces, 2);
  EXPECT_EQ(all.edges(), faces.edges());
}

TEST(TreeGenerator, AllLeavesAreOneInstanceClassAndBranchesFewClasses) {
  TreeSummary summary;
  const TetMesh mesh = generate_tree(TreeParameters{}, nullptr, &summary);
  const Decomposition decomposition = decompose_sets(mesh);
  const std::vector<InstanceClass> classes = find_instances(decomposition);
  int leaf_classes = 0, branch_classes = 0, trunk_classes = 0;
  std::size_t leaf_members = 0;
  std::set<std::vector<long>> leaf_rotations;
  for (const InstanceClass& c : classes) {
    std::string name;
    int d = 0;
    for (const auto& [set, elements] : mesh.element_sets)
      if (d++ == c.representative()) name = set;
    if (name.starts_with("leaf")) {
      ++leaf_classes;
      leaf_members = c.members.size();
      for (const Instance& m : c.members) {
        EXPECT_EQ(m.transform.scale, 1.0);
        std::vector<long> r;
        for (int k = 0; k < 9; ++k) r.push_back(std::lround(m.transform.rotation(k / 3, k % 3)));
        leaf_rotations.insert(r);
        // A turn about y only: the y axis stays.
        EXPECT_NEAR(m.transform.rotation(1, 1), 1.0, 1e-12);
      }
    } else if (name.starts_with("branch")) {
      ++branch_classes;
    } else {
      ++trunk_classes;
    }
  }
  EXPECT_EQ(leaf_classes, 1);
  EXPECT_EQ(leaf_members, 288u);
  EXPECT_EQ(leaf_rotations.size(), 4u);  // leaves point along ±x and ±z
  EXPECT_EQ(trunk_classes, 1);
  EXPECT_EQ(branch_classes, summary.branch_shapes);
  EXPECT_EQ(branch_classes, 2);  // the 6 level-1 branches and the 18 sub-branches
  EXPECT_EQ(classes.size(), 4u);
}

TEST(TreeGenerator, UnevenSharesGiveAFewMoreBranchClasses) {
  TreeParameters p;
  p.branches = 45;  // ⌈45 / 15⌉ = 3 level-1 branches with 14 descendants each, as the oak's depth
  p.levels = 4;
  p.sub_branches = 2;
  p.leaves_per_branch = 4;
  TreeSummary summary;
  const TetMesh mesh = generate_tree(p, nullptr, &summary);
  EXPECT_EQ(summary.branches_per_level, (std::vector<int>{3, 6, 12, 24}));
  EXPECT_EQ(summary.depth, 5);
  const Decomposition decomposition = decompose_sets(mesh);
  EXPECT_TRUE(DomainGraph(decomposition.num_domains(), decomposition.interfaces).is_tree());
  const auto classes = find_instances(decomposition);
  // One class per level of branches, the trunk, the leaf.
  EXPECT_EQ(summary.branch_shapes, 4);
  EXPECT_EQ(classes.size(), 4u + 2u);

  p.branches = 10;  // 3 level-1 branches with 3, 2 and 2 descendants
  p.levels = 2;
  p.sub_branches = 3;
  const TetMesh uneven = generate_tree(p, nullptr, &summary);
  EXPECT_EQ(summary.branches_per_level, (std::vector<int>{3, 7}));
  EXPECT_EQ(summary.branch_shapes, 3);
  EXPECT_EQ(find_instances(decompose_sets(uneven)).size(), 3u + 2u);
}

TEST(TreeGenerator, EveryTetIsPositiveWithTheCellVolume) {
  const TreeParameters p;
  const TetMesh mesh = generate_tree(p);
  const double v6 = p.cell_size * p.cell_size * p.cell_size / 6;
  double lo = 1e300, hi = 0;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    Mat3 dm;
    for (int k = 0; k < 3; ++k)
      dm.col(k) =
          (mesh.vertices.row(mesh.tets(e, k + 1)) - mesh.vertices.row(mesh.tets(e, 0))).transpose();
    lo = std::min(lo, dm.determinant() / 6 / v6);
    hi = std::max(hi, dm.determinant() / 6 / v6);
  }
  EXPECT_NEAR(lo, 1.0, 1e-9);
  EXPECT_NEAR(hi, 1.0, 1e-9);
  // Conforming: every interior triangle is shared by exactly two tets, and the boundary is closed
  // (every boundary edge in an even number of boundary triangles).
  std::vector<std::array<Index, 3>> faces;
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<Index, 3> f{};
      int n = 0;
      for (int k = 0; k < 4; ++k)
        if (k != skip) f[static_cast<std::size_t>(n++)] = mesh.tets(e, k);
      std::sort(f.begin(), f.end());
      faces.push_back(f);
    }
  std::sort(faces.begin(), faces.end());
  std::size_t max_use = 0;
  for (std::size_t i = 0; i < faces.size();) {
    std::size_t j = i;
    while (j < faces.size() && faces[j] == faces[i]) ++j;
    max_use = std::max(max_use, j - i);
    i = j;
  }
  EXPECT_EQ(max_use, 2u);
  // One material, so that the element sets are exactly the domains.
  ASSERT_EQ(mesh.materials.size(), 1u);
  EXPECT_EQ(mesh.element_material.size(), static_cast<std::size_t>(mesh.num_elements()));
}

TEST(TreeGenerator, FixedVerticesAreTheTrunkBase) {
  TreeParameters p;
  std::vector<Index> fixed;
  const TetMesh mesh = generate_tree(p, &fixed);
  ASSERT_EQ(fixed.size(), 25u);  // (2 · 2 + 1)² lattice points
  for (std::size_t i = 0; i < fixed.size(); ++i) {
    EXPECT_EQ(fixed[i], static_cast<Index>(i));  // the trunk numbers its base first
    EXPECT_EQ(mesh.vertices(fixed[i], 1), 0.0);
  }
  EXPECT_GT(mesh.vertices.col(1).minCoeff(), -1e-15);
  for (Index v = 25; v < mesh.num_vertices(); ++v) EXPECT_GT(mesh.vertices(v, 1), 0.0) << v;
}

TEST(TreeGenerator, SameParametersGiveBitIdenticalMeshes) {
  TreeParameters p;
  p.branches = 7;
  p.leaves_per_branch = 5;
  std::vector<Index> fa, fb;
  const TetMesh a = generate_tree(p, &fa);
  const TetMesh b = generate_tree(p, &fb);
  EXPECT_TRUE(a.vertices == b.vertices);
  EXPECT_TRUE(a.tets == b.tets);
  EXPECT_EQ(a.element_sets, b.element_sets);
  EXPECT_EQ(a.element_material, b.element_material);
  EXPECT_EQ(fa, fb);
}

TEST(TreeGenerator, OakScaleHasAboutFourteenHundredDomains) {
  TreeParameters p;
  p.branches = 40;
  p.leaves_per_branch = 35;
  TreeSummary summary;
  const TetMesh mesh = generate_tree(p, nullptr, &summary);
  EXPECT_EQ(summary.domains, 1 + 40 + 1400);
  EXPECT_EQ(summary.branches_per_level, (std::vector<int>{10, 30}));
  EXPECT_EQ(mesh.element_sets.size(), 1441u);
  EXPECT_LT(mesh.num_elements(), 150000);
}

TEST(TreeGenerator, RejectsParametersOutOfRange) {
  using Change = void (*)(TreeParameters&);
  const std::vector<std::pair<const char*, Change>> out_of_range = {
      {"no branch", [](TreeParameters& p) { p.branches = 0; }},
      {"0 levels", [](TreeParameters& p) { p.levels = 0; }},
      {"0 sub-branches", [](TreeParameters& p) { p.sub_branches = 0; }},
      {"negative leaves", [](TreeParameters& p) { p.leaves_per_branch = -1; }},
      {"odd trunk half width", [](TreeParameters& p) { p.trunk_half_width = 3; }},
      {"odd trunk base", [](TreeParameters& p) { p.trunk_base = 5; }},
      {"odd leaf width", [](TreeParameters& p) { p.leaf_width = 3; }},
      {"leaf length 0", [](TreeParameters& p) { p.leaf_length = 0; }},
      {"cell size 0", [](TreeParameters& p) { p.cell_size = 0; }},
      {"ν = 0.5", [](TreeParameters& p) { p.material.poisson_ratio = 0.5; }},
      {"too many tets",
       [](TreeParameters& p) {
         p.branches = 100000;
         p.leaves_per_branch = 100;
       }},
  };
  for (const auto& [what, change] : out_of_range) {
    TreeParameters p;
    change(p);
    EXPECT_THROW(generate_tree(p), Error) << what;
  }
  TreeParameters p;
  p.branches = 1;
  p.leaves_per_branch = 0;
  TreeSummary summary;
  EXPECT_EQ(generate_tree(p, nullptr, &summary).element_sets.size(), 2u);  // trunk, branch0
  EXPECT_EQ(summary.depth, 1);
}

}  // namespace
}  // namespace substruct
