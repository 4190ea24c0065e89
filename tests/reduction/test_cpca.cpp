// SPDX-License-Identifier: GPL-3.0-or-later
// Clustered PCA (Huang et al. 2006, §5.1 Eq. 7): exactness, Eckart–Young for one cluster,
// monotonicity in the components, groups kept together, determinism, subspace recovery, fitting
// a given assignment and the storage budget.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/SVD>

#include "substruct/reduction/cpca.hpp"
#include "support/random_matrices.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using testing::error_message;
using testing::uniform_matrix;

// A rows × cols matrix of rank r.
Eigen::MatrixXd low_rank(Eigen::Index rows, Eigen::Index cols, Eigen::Index r, std::uint32_t seed) {
  return uniform_matrix(rows, r, seed) * uniform_matrix(r, cols, seed + 1);
}

double error(const Eigen::MatrixXd& X, const Cpca& c) {
  return (X - c.reconstruct(static_cast<Index>(X.rows()))).norm();
}

// Every group in exactly one cluster, lists increasing, sizes consistent, bases orthonormal.
void expect_consistent(const Cpca& c, const Eigen::MatrixXd& X, int group_size) {
  const Index groups = static_cast<Index>(X.rows() / group_size);
  ASSERT_EQ(c.cluster_of_group.size(), static_cast<std::size_t>(groups));
  std::vector<int> seen(static_cast<std::size_t>(groups), 0);
  for (std::size_t j = 0; j < c.clusters.size(); ++j) {
    const CpcaCluster& cluster = c.clusters[j];
    ASSERT_FALSE(cluster.groups.empty());
    EXPECT_TRUE(std::is_sorted(cluster.groups.begin(), cluster.groups.end()));
    for (Index g : cluster.groups) {
      ++seen[static_cast<std::size_t>(g)];
      EXPECT_EQ(c.cluster_of_group[static_cast<std::size_t>(g)], static_cast<int>(j));
    }
    EXPECT_EQ(cluster.coefficients.rows(),
              group_size * static_cast<Eigen::Index>(cluster.groups.size()));
    EXPECT_EQ(cluster.basis.rows(), X.cols());
    EXPECT_EQ(cluster.coefficients.cols(), cluster.basis.cols());
    const Eigen::Index m = cluster.basis.cols();
    EXPECT_LT((cluster.basis.transpose() * cluster.basis - Eigen::MatrixXd::Identity(m, m))
                  .cwiseAbs()
                  .maxCoeff(),
              1e-10);
  }
  for (int s : seen) EXPECT_EQ(s, 1);
}

TEST(Cpca, ReconstructsExactlyWhenComponentsReachTheRank) {
  const Eigen::MatrixXd X = low_rank(90, 40, 4, 7);
  for (int clusters : {1, 3, 5}) {
    const Cpca c = cpca(X, {.clusters = clusters, .components = 4});
    expect_consistent(c, X, 3);
    EXPECT_LT(error(X, c), 1e-10 * X.norm()) << clusters << " clusters";
  }
  // The wide case (fewer rows than columns) goes through XXᵀ.
  const Eigen::MatrixXd wide = low_rank(30, 80, 5, 9);
  const Cpca c = cpca(wide, {.clusters = 2, .components = 6});
  expect_consistent(c, wide, 3);
  EXPECT_LT(error(wide, c), 1e-10 * wide.norm());
  for (const CpcaCluster& cluster : c.clusters) EXPECT_LE(cluster.basis.cols(), 5);
}

TEST(Cpca, OneClusterIsTheTruncatedSvd) {
  // Eckart–Young: the best rank-m approximation leaves √(Σ_{i>m} σ_i²).
  for (const auto& [rows, cols] : {std::pair{60, 25}, std::pair{24, 70}}) {
    const Eigen::MatrixXd X = uniform_matrix(rows, cols, 3);
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(X);
    const Eigen::VectorXd sigma = svd.singularValues();
    for (int m : {1, 3, 8, 15}) {
      const Cpca c = cpca(X, {.clusters = 1, .components = m});
      ASSERT_EQ(c.clusters.size(), 1u);
      const double expected = sigma.tail(sigma.size() - m).norm();
      EXPECT_NEAR(error(X, c), expected, 1e-9 * sigma[0]) << rows << "×" << cols << ", m " << m;
      EXPECT_EQ(c.clusters[0].basis.cols(), m);
      EXPECT_EQ(c.stored_floats(), static_cast<std::size_t>((rows + cols) * m));
    }
  }
}

TEST(Cpca, ErrorDoesNotGrowWithMoreComponents) {
  const Eigen::MatrixXd X = uniform_matrix(120, 30, 11);
  const Cpca start = cpca(X, {.clusters = 4, .components = 3});
  double previous = X.norm();
  for (int m = 1; m <= 30; ++m) {
    const double e = error(X, fit_cpca(X, start.cluster_of_group, m, 3));
    EXPECT_LE(e, previous * (1 + 1e-12)) << m << " components";
    previous = e;
  }
  EXPECT_LT(previous, 1e-10 * X.norm());  // every cluster's rank reached
  previous = X.norm();
  for (int m = 1; m <= 30; ++m) {
    const double e = error(X, cpca(X, {.clusters = 1, .components = m}));
    EXPECT_LE(e, previous * (1 + 1e-12)) << m << " components, one cluster";
    previous = e;
  }
}

TEST(Cpca, GroupsStayTogether) {
  // Group g's three rows come from different subspaces, so splitting them would pay off; they
  // must still share a cluster, and other group sizes are honoured.
  for (int group_size : {1, 2, 3, 4}) {
    const Eigen::MatrixXd X = uniform_matrix(group_size * 30, 12, 5 + group_size);
    const Cpca c = cpca(X, {.clusters = 3, .components = 2, .group_size = group_size});
    expect_consistent(c, X, group_size);
    EXPECT_EQ(c.group_size, group_size);
    // Reconstructing group by group from its cluster gives the same as reconstruct().
    const Eigen::MatrixXd G = c.reconstruct(static_cast<Index>(X.rows()));
    for (Index g = 0; g < 30; ++g) {
      const CpcaCluster& cluster = c.clusters[static_cast<std::size_t>(c.cluster_of_group[g])];
      const Eigen::Index at =
          std::find(cluster.groups.begin(), cluster.groups.end(), g) - cluster.groups.begin();
      const Eigen::MatrixXd rows =
          cluster.coefficients.middleRows(group_size * at, group_size) * cluster.basis.transpose();
      EXPECT_LT((rows - G.middleRows(group_size * g, group_size)).norm(), 1e-12);
    }
  }
  EXPECT_NE(error_message([] { cpca(Eigen::MatrixXd::Ones(10, 4), {}); }).find("groups of 3"),
            std::string::npos);
}

TEST(Cpca, IsDeterministic) {
  const Eigen::MatrixXd X = uniform_matrix(150, 40, 21);
  const CpcaSettings settings{.clusters = 5, .components = 4, .seed = 17};
  const Cpca a = cpca(X, settings);
  const Cpca b = cpca(X, settings);
  EXPECT_EQ(a.cluster_of_group, b.cluster_of_group);
  EXPECT_EQ(a.iterations, b.iterations);
  ASSERT_EQ(a.clusters.size(), b.clusters.size());
  for (std::size_t j = 0; j < a.clusters.size(); ++j) {
    EXPECT_EQ(a.clusters[j].groups, b.clusters[j].groups);
    ASSERT_EQ(a.clusters[j].basis.size(), b.clusters[j].basis.size());
    ASSERT_EQ(a.clusters[j].coefficients.size(), b.clusters[j].coefficients.size());
    EXPECT_EQ(std::memcmp(a.clusters[j].basis.data(), b.clusters[j].basis.data(),
                          sizeof(double) * a.clusters[j].basis.size()),
              0);
    EXPECT_EQ(std::memcmp(a.clusters[j].coefficients.data(), b.clusters[j].coefficients.data(),
                          sizeof(double) * a.clusters[j].coefficients.size()),
              0);
  }
}

TEST(Cpca, RecoversTwoSeparatedSubspaces) {
  // Groups alternate between two 3-dimensional subspaces of R³⁰ with scales over two decades.
  const Eigen::MatrixXd A = uniform_matrix(3, 30, 31), B = uniform_matrix(3, 30, 32);
  const int groups = 40;
  Eigen::MatrixXd X(3 * groups, 30);
  std::mt19937 generator(5);
  for (int g = 0; g < groups; ++g) {
    const double scale = std::pow(10.0, 2.0 * double(generator()) / 4294967296.0);
    X.middleRows(3 * g, 3) = scale * uniform_matrix(3, 3, 100 + g) * (g % 2 == 0 ? A : B);
  }
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const Cpca c = cpca(X, {.clusters = 2, .components = 3, .seed = seed});
    ASSERT_EQ(c.clusters.size(), 2u);
    for (int g = 0; g < groups; ++g)
      EXPECT_EQ(c.cluster_of_group[g] == c.cluster_of_group[0], g % 2 == 0) << "group " << g;
    EXPECT_LT(error(X, c), 1e-10 * X.norm());
    EXPECT_LE(c.iterations, 30);
  }
  // One cluster with the same 3 components cannot do it.
  EXPECT_GT(error(X, cpca(X, {.clusters = 1, .components = 3})), 1e-3 * X.norm());
}

TEST(Cpca, FitsAGivenAssignment) {
  const Eigen::MatrixXd X = uniform_matrix(36, 20, 41);
  // Ids 7 and 2 in use (3 unused): renumbered 2 → 0, 7 → 1.
  const std::vector<int> ids = {7, 2, 7, 7, 2, 2, 7, 2, 2, 7, 7, 2};
  const Cpca c = fit_cpca(X, ids, 4, 3);
  ASSERT_EQ(c.clusters.size(), 2u);
  expect_consistent(c, X, 3);
  for (std::size_t g = 0; g < ids.size(); ++g)
    EXPECT_EQ(c.cluster_of_group[g], ids[g] == 2 ? 0 : 1);
  EXPECT_EQ(c.iterations, 0);
  for (const CpcaCluster& cluster : c.clusters) {
    Eigen::MatrixXd rows(3 * cluster.groups.size(), 20);
    for (std::size_t i = 0; i < cluster.groups.size(); ++i)
      rows.middleRows(3 * i, 3) = X.middleRows(3 * cluster.groups[i], 3);
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(rows);
    const Eigen::VectorXd s = svd.singularValues();
    const double e = (rows - cluster.coefficients * cluster.basis.transpose()).norm();
    EXPECT_NEAR(e, s.tail(s.size() - 4).norm(), 1e-9 * s[0]);
    EXPECT_EQ(cluster.coefficients.rows(), 18);
    EXPECT_EQ(cluster.basis.cols(), 4);
  }
  EXPECT_EQ(c.stored_floats(), static_cast<std::size_t>(2 * (18 * 4 + 20 * 4)));
  EXPECT_NE(error_message([&] {
              fit_cpca(X, {0, 1}, 4, 3);
            }).find("2 cluster ids for 12 groups"),
            std::string::npos);
  EXPECT_NE(error_message([&] { fit_cpca(X, std::vector<int>(12, -1), 4, 3); }).find("ids are ≥ 0"),
            std::string::npos);
}

TEST(Cpca, HandlesDegenerateInput) {
  // All groups in one 2-dimensional subspace: more clusters than needed stay empty and are
  // dropped, or split it; either way the reconstruction is exact.
  const Eigen::MatrixXd X = uniform_matrix(30, 2, 3) * uniform_matrix(2, 15, 4);
  const Cpca c = cpca(X, {.clusters = 4, .components = 2});
  expect_consistent(c, X, 3);
  EXPECT_LT(error(X, c), 1e-10 * X.norm());
  // Identical groups: one non-empty cluster.
  const Eigen::MatrixXd same = uniform_matrix(3, 10, 5).replicate(8, 1);
  const Cpca one = cpca(same, {.clusters = 3, .components = 3});
  expect_consistent(one, same, 3);
  EXPECT_LT(error(same, one), 1e-10 * same.norm());
  // More clusters than groups; zero groups (fixed nodes) somewhere.
  Eigen::MatrixXd Z = uniform_matrix(12, 9, 6);
  Z.middleRows(3, 3).setZero();
  const Cpca few = cpca(Z, {.clusters = 10, .components = 9});
  expect_consistent(few, Z, 3);
  EXPECT_LT(error(Z, few), 1e-10 * Z.norm());
  // Nothing at all, and all zero.
  const Cpca empty = cpca(Eigen::MatrixXd(0, 5), {.clusters = 2});
  EXPECT_TRUE(empty.clusters.empty());
  EXPECT_EQ(empty.reconstruct(0).cols(), 5);
  const Cpca zero = cpca(Eigen::MatrixXd::Zero(9, 4), {.clusters = 2});
  ASSERT_EQ(zero.clusters.size(), 1u);
  EXPECT_EQ(zero.clusters[0].basis.cols(), 0);
  EXPECT_EQ(zero.reconstruct(9), Eigen::MatrixXd::Zero(9, 4));
  // Cluster smaller than m: m capped by its size.
  const Cpca small = fit_cpca(uniform_matrix(6, 20, 8), {0, 1}, 8, 3);
  for (const CpcaCluster& cluster : small.clusters) EXPECT_EQ(cluster.basis.cols(), 3);
  EXPECT_NE(error_message([] {
              cpca(Eigen::MatrixXd::Ones(6, 2), {.clusters = 0});
            }).find("clusters must be at least 1"),
            std::string::npos);
}

TEST(Cpca, ComponentsForAStorageBudget) {
  // (1 + k)·m·3 floats per node.
  EXPECT_EQ(cpca_components_for_budget(60, 1), 10);
  EXPECT_EQ(cpca_components_for_budget(60, 3), 5);
  EXPECT_EQ(cpca_components_for_budget(140, 6), 7);
  EXPECT_EQ(cpca_components_for_budget(20, 6), 1);
  EXPECT_EQ(cpca_components_for_budget(0.1, 1), 1);
  EXPECT_EQ(cpca_components_for_budget(40, 1, 1), 20);
  // The budget is met: a square matrix of 30 nodes, 2 clusters, m from the budget.
  const Eigen::MatrixXd X = uniform_matrix(90, 90, 9);
  const int m = cpca_components_for_budget(36, 2);
  EXPECT_EQ(m, 4);
  const Cpca c = cpca(X, {.clusters = 2, .components = m});
  EXPECT_EQ(c.stored_floats(), static_cast<std::size_t>(36 * 30));
  EXPECT_NE(error_message([] { cpca_components_for_budget(10, 0); }).find("at least 1"),
            std::string::npos);
}

}  // namespace
}  // namespace substruct
