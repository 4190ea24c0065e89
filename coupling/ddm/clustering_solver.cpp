// SPDX-License-Identifier: GPL-3.0-or-later
// §5.1, the clustering method as printed: G_i is computed once from a factorization of A_i (one
// solve per column, as the paper does), its rows grouped by clustered PCA (a free vertex's three
// rows kept together) and each cluster stored as U_j S_j and V_j (Eq. 7). A step then only
// multiplies:
//     x = G̃ b = [U_1 S_1 (V_1ᵀ b); …; U_k S_k (V_k ᵀ b)],
// and the boundary block G̃_bb that W needs is formed once. The compression itself is shared with
// the stable solver (galerkin_clustering_solver.cpp), which uses only the clusters' U_j.
#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "force_displacement.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/reduction/cpca.hpp"
#include "substruct/reduction/node_clustering.hpp"

namespace substruct::ddm {

CompressedInverse compress_inverse(const SparseMatrix& A, LinearSolver& solver,
                                   const DdmSettings& settings, const TetMesh& mesh,
                                   const std::vector<Index>& free_vertices) {
  const Index n = static_cast<Index>(A.rows());
  // G = A⁻¹, column by column (A g_j = e_j).
  Eigen::MatrixXd G(n, n);
  {
    Eigen::VectorXd e = Eigen::VectorXd::Zero(n), g(n);
    for (Index j = 0; j < n; ++j) {
      e[j] = 1;
      solver.solve(e, g);
      G.col(j) = g;
      e[j] = 0;
    }
  }
  G = 0.5 * (G + G.transpose()).eval();  // symmetric up to round-off
  CpcaSettings cpca_settings;
  cpca_settings.clusters = settings.clusters;
  cpca_settings.components =
      settings.components > 0
          ? settings.components
          : cpca_components_for_budget(settings.floats_per_node, settings.clusters, 3);
  cpca_settings.group_size = 3;
  cpca_settings.max_iterations = settings.cpca_iterations;
  Cpca result;
  if (settings.node_clusters > 0 && settings.node_clusters < n / 3) {
    // Dimension reduction (§5.1): sum the columns of each node cluster, cluster the reduced
    // rows, then fit each cluster's SVD on the original rows.
    const std::vector<int> of_vertex =
        cluster_mesh_nodes(mesh, settings.node_clusters, free_vertices);
    std::vector<int> of_free(free_vertices.size());
    for (std::size_t k = 0; k < free_vertices.size(); ++k)
      of_free[k] = of_vertex[static_cast<std::size_t>(free_vertices[k])];
    const int clusters = count_node_clusters(of_free);
    const Cpca assignment = cpca(sum_columns_by_node_cluster(G, of_free, clusters), cpca_settings);
    result = fit_cpca(G, assignment.cluster_of_group, cpca_settings.components, 3);
    result.iterations = assignment.iterations;
  } else {
    result = cpca(G, cpca_settings);
  }
  CompressedInverse compressed;
  compressed.size = n;
  compressed.cluster_of_group = result.cluster_of_group;
  compressed.iterations = result.iterations;
  for (CpcaCluster& c : result.clusters)
    compressed.clusters.push_back(
        {std::move(c.groups), std::move(c.coefficients), std::move(c.basis)});
  return compressed;
}

namespace {

template <class Scalar>
class Clustering final : public ForceDisplacement {
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;

 public:
  Clustering(const CompressedInverse& g, std::vector<Index> boundary) : n_(g.size) {
    const Index nb = static_cast<Index>(boundary.size());
    // Where each boundary unknown sits: its cluster and its row in that cluster's coefficients.
    std::vector<std::pair<int, Index>> row_of(static_cast<std::size_t>(n_), {-1, -1});
    for (std::size_t j = 0; j < g.clusters.size(); ++j) {
      const auto& c = g.clusters[j];
      Cluster cluster;
      cluster.rows.reserve(3 * c.groups.size());
      for (std::size_t k = 0; k < c.groups.size(); ++k)
        for (Index r = 0; r < 3; ++r) {
          row_of[static_cast<std::size_t>(3 * c.groups[k] + r)] = {static_cast<int>(j),
                                                                   static_cast<Index>(3 * k + r)};
          cluster.rows.push_back(3 * c.groups[k] + r);
        }
      cluster.coefficients = c.coefficients.template cast<Scalar>();
      cluster.basis_t = c.basis.transpose().template cast<Scalar>();
      // G̃_bb and the boundary response from the stored (rounded) matrices: with float32 the
      // W that the multipliers solve must be that of the G̃ the steps apply. Built from the
      // unrounded ones, the two differ by ~1e-7, and W, singular at these budgets (rank ≤ the
      // clusters' components), turns that into multipliers 10⁹ too large: the bar "diverged at
      // step 1" for every Δt.
      cluster.boundary_basis.resize(nb, c.basis.cols());
      for (Index b = 0; b < nb; ++b)
        cluster.boundary_basis.row(b) = c.basis.row(boundary[static_cast<std::size_t>(b)])
                                            .template cast<Scalar>()
                                            .template cast<double>();
      cluster.coefficients_d = cluster.coefficients.template cast<double>();
      clusters_.push_back(std::move(cluster));
    }
    // G̃_bb(i, :) = (U S)_row(i) V_bᵀ, from the cluster of boundary unknown i.
    block_.resize(nb, nb);
    for (Index i = 0; i < nb; ++i) {
      const auto [j, row] = row_of[static_cast<std::size_t>(boundary[static_cast<std::size_t>(i)])];
      if (j < 0) throw Error("ddm: a boundary unknown belongs to no CPCA cluster");
      const Cluster& c = clusters_[static_cast<std::size_t>(j)];
      block_.row(i) = c.coefficients_d.row(row) * c.boundary_basis.transpose();
    }
    for (Cluster& c : clusters_) {
      c.t.resize(c.basis_t.rows());
      c.out.resize(c.coefficients.rows());
      c.coefficients_d.resize(0, 0);
    }
    for (const Cluster& c : clusters_)
      stored_ +=
          static_cast<std::size_t>(c.coefficients.size() + c.basis_t.size()) * sizeof(Scalar);
    stored_ += static_cast<std::size_t>(block_.size()) * sizeof(double);
    for (const auto& c : g.clusters) components_ = std::max<Index>(components_, c.basis.cols());
  }

  void apply(const Eigen::VectorXd& r, Eigen::VectorXd& y) override {
    y.resize(n_);
    // Stored in Scalar, multiplied in double: float rounding in the products would put noise
    // outside W's range as well (see the constructor).
    for (Cluster& c : clusters_) {
      c.t.noalias() = c.basis_t.template cast<double>() * r;           // V_jᵀ b
      c.out.noalias() = c.coefficients.template cast<double>() * c.t;  // U_j S_j (V_jᵀ b)
      for (std::size_t k = 0; k < c.rows.size(); ++k) y[c.rows[k]] = c.out[static_cast<Index>(k)];
    }
  }
  const Eigen::MatrixXd& boundary_block() const override { return block_; }
  void subtract_boundary_response(const Eigen::VectorXd& z, Eigen::VectorXd& y) override {
    for (Cluster& c : clusters_) {
      const Eigen::VectorXd t = c.boundary_basis.transpose() * z;  // V_j[b]ᵀ z
      c.out.noalias() = c.coefficients.template cast<double>() * t;
      for (std::size_t k = 0; k < c.rows.size(); ++k) y[c.rows[k]] -= c.out[static_cast<Index>(k)];
    }
  }
  std::size_t stored_bytes() const override { return stored_; }
  std::string description() const override {
    return fmt::format(
        "clustering-rows: {} CPCA clusters, up to {} components each, {} precision, "
        "{:.1f} floats per node",
        clusters_.size(), components_, sizeof(Scalar) == 4 ? "single" : "double",
        static_cast<double>(stored_) / sizeof(Scalar) / (static_cast<double>(n_) / 3));
  }

 private:
  struct Cluster {
    std::vector<Index> rows;         // free unknowns of the cluster's rows
    Matrix coefficients;             // U_j S_j
    Matrix basis_t;                  // V_jᵀ
    Eigen::MatrixXd boundary_basis;  // V_j restricted to the boundary unknowns
    Eigen::MatrixXd coefficients_d;  // during construction only
    Eigen::VectorXd t, out;
  };
  Index n_ = 0;
  Index components_ = 0;
  std::vector<Cluster> clusters_;
  Eigen::MatrixXd block_;
  std::size_t stored_ = 0;
};

}  // namespace

std::unique_ptr<ForceDisplacement> make_row_clustering(const CompressedInverse& compressed,
                                                       const std::vector<Index>& boundary,
                                                       bool float32) {
  if (float32) return std::make_unique<Clustering<float>>(compressed, boundary);
  return std::make_unique<Clustering<double>>(compressed, boundary);
}

}  // namespace substruct::ddm
