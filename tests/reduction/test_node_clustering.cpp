// SPDX-License-Identifier: GPL-3.0-or-later
// Node clustering and column summation (Huang et al. 2006, §5.1): clusters cover the selected
// vertices, are connected and compact, are deterministic; X S sums columns per node cluster.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/mesh/box_mesh.hpp"
#include "substruct/reduction/node_clustering.hpp"
#include "support/random_matrices.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using testing::error_message;
using testing::uniform_matrix;

// Number of connected pieces of each cluster on the vertex graph of `mesh`.
std::vector<int> pieces_per_cluster(const TetMesh& mesh, const std::vector<int>& cluster) {
  const int c = count_node_clusters(cluster);
  std::vector<int> parent(cluster.size());
  for (std::size_t v = 0; v < parent.size(); ++v) parent[v] = static_cast<int>(v);
  const auto find = [&](int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) {
        const int u = mesh.tets(e, a), v = mesh.tets(e, b);
        if (cluster[u] >= 0 && cluster[u] == cluster[v]) parent[find(u)] = find(v);
      }
  std::vector<std::set<int>> roots(c);
  for (std::size_t v = 0; v < cluster.size(); ++v)
    if (cluster[v] >= 0) roots[cluster[v]].insert(find(static_cast<int>(v)));
  std::vector<int> count;
  for (const auto& r : roots) count.push_back(static_cast<int>(r.size()));
  return count;
}

TEST(NodeClustering, CoversTheMeshWithConnectedCompactClusters) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 16, 4, 4);
  const std::vector<int> cluster = cluster_mesh_nodes(mesh, 12);
  ASSERT_EQ(cluster.size(), static_cast<std::size_t>(mesh.num_vertices()));
  EXPECT_EQ(count_node_clusters(cluster), 12);
  std::vector<int> size(12, 0);
  for (int c : cluster) {
    ASSERT_GE(c, 0);
    ++size[c];
  }
  EXPECT_GT(*std::min_element(size.begin(), size.end()), mesh.num_vertices() / 12 / 4);
  for (int pieces : pieces_per_cluster(mesh, cluster)) EXPECT_EQ(pieces, 1);
  EXPECT_EQ(cluster_mesh_nodes(mesh, 12), cluster);  // deterministic
}

TEST(NodeClustering, MakesClustersConnectedAcrossANotch) {
  // A U in the xy-plane: the cells 2 ≤ i ≤ 7, j ≥ 1 removed, so the arms are close in space but
  // joined only through the base; k-means alone would put vertices of both arms together.
  const TetMesh box = make_box_mesh(Vec3(0, 0, 0), Vec3(10, 10, 1), 10, 10, 1);
  TetMesh u = box;
  std::vector<Index> keep;
  for (Index e = 0; e < box.num_elements(); ++e) {
    const Index cell = e / 6, i = cell % 10, j = cell / 10;
    if (!(i >= 2 && i <= 7 && j >= 1)) keep.push_back(e);
  }
  u.tets.resize(static_cast<Eigen::Index>(keep.size()), 4);
  for (std::size_t k = 0; k < keep.size(); ++k) u.tets.row(k) = box.tets.row(keep[k]);
  u.element_material.assign(keep.size(), 0);
  std::set<Index> used;
  for (Index e = 0; e < u.num_elements(); ++e)
    for (int a = 0; a < 4; ++a) used.insert(u.tets(e, a));
  const std::vector<Index> vertices(used.begin(), used.end());
  for (int clusters : {2, 3, 5, 9}) {
    const std::vector<int> cluster = cluster_mesh_nodes(u, clusters, vertices);
    for (Index v = 0; v < u.num_vertices(); ++v)
      EXPECT_EQ(cluster[v] >= 0, used.count(v) == 1) << "vertex " << v;
    for (int pieces : pieces_per_cluster(u, cluster)) EXPECT_EQ(pieces, 1) << clusters;
    EXPECT_LE(count_node_clusters(cluster), clusters);
  }
}

TEST(NodeClustering, ClustersASubsetAndClampsTheCount) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 4, 2, 2);
  const std::vector<Index> subset = mesh.vertex_sets.at("xmin");
  const std::vector<int> cluster = cluster_mesh_nodes(mesh, 100, subset);
  EXPECT_EQ(count_node_clusters(cluster), static_cast<int>(subset.size()));
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    EXPECT_EQ(cluster[v] >= 0, std::binary_search(subset.begin(), subset.end(), v));
  EXPECT_EQ(count_node_clusters(cluster_mesh_nodes(mesh, 1)), 1);
  EXPECT_NE(error_message([&] { cluster_mesh_nodes(mesh, 0); }).find("at least 1"),
            std::string::npos);
  EXPECT_NE(error_message([&] { cluster_mesh_nodes(mesh, 2, {999}); }).find("vertex 999"),
            std::string::npos);
}

TEST(NodeClustering, SumsColumnsPerNodeCluster) {
  const std::vector<int> cluster = {1, 0, -1, 1, 2};
  const Eigen::MatrixXd X = uniform_matrix(7, 15, 3);
  const Eigen::MatrixXd reduced = sum_columns_by_node_cluster(X, cluster, 3);
  ASSERT_EQ(reduced.rows(), 7);
  ASSERT_EQ(reduced.cols(), 9);
  for (int j = 0; j < 3; ++j) {
    EXPECT_LT((reduced.col(j) - X.col(3 + j)).norm(), 1e-14);
    EXPECT_LT((reduced.col(3 + j) - X.col(j) - X.col(9 + j)).norm(), 1e-14);
    EXPECT_LT((reduced.col(6 + j) - X.col(12 + j)).norm(), 1e-14);
  }
  const SparseMatrix S = node_cluster_summation(cluster, 3);
  ASSERT_EQ(S.rows(), 15);
  ASSERT_EQ(S.cols(), 9);
  EXPECT_LT((X * S - reduced).norm(), 1e-14);
  EXPECT_NE(error_message([&] {
              sum_columns_by_node_cluster(X, {0, 1}, 2);
            }).find("15 columns"),
            std::string::npos);
  EXPECT_NE(error_message([&] { node_cluster_summation(cluster, 2); }).find("cluster 2"),
            std::string::npos);
}

}  // namespace
}  // namespace substruct
