// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Clustered principal component analysis (CPCA, Sloan et al. 2003) of the rows of a dense
/// matrix, as Huang et al. 2006 use it to compress a force-displacement matrix G = A⁻¹ (§5.1,
/// Eq. 7) and to partition an object into domains (§7):
///
///            ⎛ U₁ S₁ V₁ᵀ ⎞
///   G ≈ G̃ =  ⎜    ⋮      ⎟      (rows regrouped by cluster; no mean term)
///            ⎝ U_k S_k V_kᵀ⎠
///
/// The rows are taken in groups of `group_size` consecutive rows (the three rows of a node, or of
/// a tetrahedron, stay together): a group belongs to exactly one cluster j, and its rows are
/// approximated by their projection onto the span of the cluster's right singular vectors V_j,
/// X_g ≈ (X_g V_j) V_jᵀ. Cluster j stores U_j S_j (= X_j V_j, its rows' coefficients) and V_j.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

struct CpcaSettings {
  int clusters = 1;    // k
  int components = 8;  // principal components per cluster (capped by the cluster's rank / size)
  int group_size = 3;  // consecutive rows kept together
  int max_iterations = 30;  // assignment ↔ PCA iterations at most
  std::uint64_t seed = 1;   // k-means start, deterministic
};

struct CpcaCluster {
  std::vector<Index> groups;  // the cluster's groups, increasing
  Eigen::MatrixXd
      coefficients;       // (group_size·groups.size()) × m: U S, rows in the order of `groups`
  Eigen::MatrixXd basis;  // d × m, orthonormal columns: V
};

struct Cpca {
  std::vector<int> cluster_of_group;  // one per group
  std::vector<CpcaCluster> clusters;  // non-empty clusters only, renumbered 0…
  int iterations = 0;
  int group_size = 3;  // rows per group (as in the settings)
  Index columns = 0;   // d, the columns of the approximated matrix

  /// The approximation G̃ (rows × d): group g's rows are coefficients_g · Vᵀ of its cluster.
  /// Rows past the last group (rows > group_size·groups) are zero.
  Eigen::MatrixXd reconstruct(Index rows) const;
  /// Σ over clusters of (coefficients + basis entries): the floats G̃ is stored in.
  std::size_t stored_floats() const;
};

/// Clusters the groups (k-means++ style deterministic start on the group vectors, then iterate:
/// PCA (truncated SVD) per cluster, reassign each group to the cluster whose basis reconstructs it
/// best (least ‖X_g − X_g V Vᵀ‖²), until no group moves or max_iterations), and fits each cluster.
///
/// Details:
/// - the start: seeds drawn one by one with probability ∝ D²(g), the squared distance of group
///   g's rows to the span of the rows of the seeds drawn so far (‖X_g‖² for the first; the
///   subspace analogue of k-means++), from a std::mt19937_64 seeded with `seed`; groups already
///   represented exactly (D² = 0, e.g. zero rows) are never drawn; every group then goes to the
///   seed whose row span reconstructs it best;
/// - a group moves only when another cluster reconstructs it better by more than rounding
///   (1e-12 ‖X_g‖²); among equally good clusters the lowest index wins;
/// - a cluster left empty takes the worst-reconstructed group of a cluster with more than one
///   group (lowest group id on a tie); it stays empty when every group is reconstructed exactly,
///   and empty clusters are dropped from the result;
/// - each cluster keeps m_j = min(components, rank X_j) components, the rank counting singular
///   values σ with σ² > 1e-14·p·σ₁² (p = min(rows, d) of the cluster): an all-zero cluster keeps
///   none.
/// Bit-identical from run to run. Throws Error when X's rows are not a multiple of group_size,
/// or clusters, components, group_size or max_iterations is below 1.
Cpca cpca(const Eigen::MatrixXd& X, const CpcaSettings& settings);

/// Fits the clusters of a given assignment (one truncated SVD per cluster) on X: used when the
/// assignment was computed on dimension-reduced rows (paper §5.1, "dimension size of G").
/// Cluster ids must be ≥ 0; ids no group uses are dropped and the others renumbered in
/// increasing order (cluster_of_group in the result uses the new numbers).
Cpca fit_cpca(const Eigen::MatrixXd& X, const std::vector<int>& cluster_of_group, int components,
              int group_size);

/// The components per cluster that give `floats_per_node` stored floats per node of a square
/// n×n matrix with k clusters (paper: storage ≈ (1+k)·m·|G|), at least 1.
///
/// With N = n/group_size nodes, the k clusters' coefficients take n·m floats and their bases k·n·m,
/// so (1+k)·m·group_size floats per node: m = round(floats_per_node / ((1+k)·group_size)).
int cpca_components_for_budget(double floats_per_node, int clusters, int group_size = 3);

/// The leading right singular vectors of X (rows × d): d × m' with orthonormal columns,
/// m' = min(m, numerical rank of X) (the rank rule of cpca()), and optionally the singular values
/// σ₁ ≥ … ≥ σ_m'. Exact (a symmetric eigen-decomposition of XᵀX or XXᵀ, whichever is smaller).
Eigen::MatrixXd truncated_right_singular_vectors(const Eigen::MatrixXd& X, int m,
                                                 Eigen::VectorXd* singular_values = nullptr);

}  // namespace substruct
