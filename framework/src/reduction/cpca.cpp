// SPDX-License-Identifier: GPL-3.0-or-later
// Clustered PCA of row groups (Sloan et al. 2003; Huang et al. 2006, §5.1 Eq. 7 and §7).
//
// Symbols (paper): the matrix G (here X, rows × d) is split into k clusters of row groups; cluster
// j holds the rows X_j and is approximated by U_j S_j V_jᵀ, the truncated SVD of X_j with m_j
// components, so that G̃ stacks U_j S_j V_jᵀ (Eq. 7). A group g (rows X_g) in cluster j is
// reconstructed as X_g V_j V_jᵀ; its error is ‖X_g − X_g V_j V_jᵀ‖² = ‖X_g‖² − ‖X_g V_j‖²
// (V_j orthonormal), which the assignment step minimises over j.
#include "substruct/reduction/cpca.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include <fmt/format.h>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include "substruct/core/error.hpp"

namespace substruct {

namespace {

// Relative rounding below which two reconstruction errors of a group count as equal.
constexpr double kTie = 1e-12;

// Makes the largest-magnitude entry of each column positive (the first one on a tie), so that the
// basis does not depend on the eigensolver's sign choice.
void fix_signs(Eigen::MatrixXd& V) {
  for (Eigen::Index j = 0; j < V.cols(); ++j) {
    Eigen::Index best = 0;
    double largest = -1;
    for (Eigen::Index i = 0; i < V.rows(); ++i)
      if (std::abs(V(i, j)) > largest) {
        largest = std::abs(V(i, j));
        best = i;
      }
    if (V.rows() > 0 && V(best, j) < 0) V.col(j) *= -1.0;
  }
}

// ‖X_g‖² of every group.
Eigen::VectorXd group_norms(const Eigen::MatrixXd& X, int gs) {
  const Eigen::Index groups = X.rows() / gs;
  Eigen::VectorXd n(groups);
  for (Eigen::Index g = 0; g < groups; ++g) n[g] = X.middleRows(gs * g, gs).squaredNorm();
  return n;
}

// ‖X_g V‖² of every group: the part of X_g that the span of V (orthonormal) reconstructs.
Eigen::VectorXd captured(const Eigen::MatrixXd& X, const Eigen::MatrixXd& V, int gs) {
  const Eigen::Index groups = X.rows() / gs;
  Eigen::VectorXd c = Eigen::VectorXd::Zero(groups);
  if (V.cols() == 0) return c;
  const Eigen::MatrixXd P = X * V;
  for (Eigen::Index g = 0; g < groups; ++g) c[g] = P.middleRows(gs * g, gs).squaredNorm();
  return c;
}

// The rows of the given groups, stacked in the order given.
Eigen::MatrixXd gather(const Eigen::MatrixXd& X, const std::vector<Index>& groups, int gs) {
  Eigen::MatrixXd rows(gs * static_cast<Eigen::Index>(groups.size()), X.cols());
  for (std::size_t i = 0; i < groups.size(); ++i)
    rows.middleRows(gs * static_cast<Eigen::Index>(i), gs) = X.middleRows(gs * groups[i], gs);
  return rows;
}

// Uniform in [0, 1) from the top 53 bits of the generator: the same on every platform
// (std::uniform_real_distribution is not specified bit for bit).
double uniform01(std::mt19937_64& generator) {
  return static_cast<double>(generator() >> 11) * 0x1.0p-53;
}

void check_settings(const Eigen::MatrixXd& X, int components, int group_size, const char* what) {
  if (group_size < 1)
    throw Error(fmt::format("{}: group_size must be at least 1, found {}", what, group_size));
  if (components < 1)
    throw Error(fmt::format("{}: components must be at least 1, found {}", what, components));
  if (X.rows() % group_size != 0)
    throw Error(fmt::format("{}: {} rows do not split into groups of {} consecutive rows", what,
                            X.rows(), group_size));
  if (!X.allFinite()) throw Error(fmt::format("{}: the matrix has NaN or infinite entries", what));
}

}  // namespace

namespace {

// The exact path: a symmetric eigen-decomposition of the smaller Gram matrix.
Eigen::MatrixXd dense_right_singular_vectors(const Eigen::MatrixXd& X, int m,
                                             Eigen::VectorXd* singular_values) {
  const Eigen::Index n = X.rows(), d = X.cols();
  const Eigen::Index p = std::min(n, d);
  const auto none = [&] {
    if (singular_values) singular_values->resize(0);
    return Eigen::MatrixXd(d, 0);
  };
  if (p == 0 || m <= 0) return none();
  // X = U Σ Vᵀ. The Gram matrix of the smaller side has eigenvalues λ_i = σ_i²:
  //   d ≤ n: XᵀX = V Σ² Vᵀ, V directly;  n < d: XXᵀ = U Σ² Uᵀ, then V = Xᵀ U Σ⁻¹.
  const bool columns_side = d <= n;
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(p, p);
  if (columns_side)
    C.selfadjointView<Eigen::Lower>().rankUpdate(X.transpose());
  else
    C.selfadjointView<Eigen::Lower>().rankUpdate(X);
  C.triangularView<Eigen::StrictlyUpper>() = C.transpose();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(C);
  if (eigen.info() != Eigen::Success)
    throw Error("clustered PCA: the eigen-decomposition of a cluster's Gram matrix failed");
  const Eigen::VectorXd& lambda = eigen.eigenvalues();  // ascending
  const double largest = lambda[p - 1];
  if (!(largest > 0)) return none();
  // Numerical rank: λ above the Gram matrix's rounding (≈ ε·p·λ₁) with a margin.
  const double floor = 1e-14 * static_cast<double>(p) * largest;
  Eigen::Index r = 0;
  while (r < std::min<Eigen::Index>(m, p) && lambda[p - 1 - r] > floor) ++r;
  Eigen::MatrixXd V(d, r);
  Eigen::VectorXd sigma(r);
  for (Eigen::Index j = 0; j < r; ++j) {
    sigma[j] = std::sqrt(lambda[p - 1 - j]);
    if (columns_side)
      V.col(j) = eigen.eigenvectors().col(p - 1 - j);
    else
      V.col(j) = X.transpose() * eigen.eigenvectors().col(p - 1 - j) / sigma[j];
  }
  if (!columns_side) {
    // Xᵀ U Σ⁻¹ is orthonormal only up to the rounding of small σ: modified Gram–Schmidt, twice.
    for (Eigen::Index j = 0; j < r; ++j)
      for (int pass = 0; pass < 2; ++pass) {
        for (Eigen::Index i = 0; i < j; ++i) V.col(j) -= V.col(i).dot(V.col(j)) * V.col(i);
        V.col(j).normalize();
      }
  }
  fix_signs(V);
  if (singular_values) *singular_values = sigma;
  return V;
}

// Thin Q of a QR decomposition (orthonormal columns spanning those of A, completed arbitrarily
// but deterministically when A is rank deficient).
Eigen::MatrixXd orthonormal_columns(const Eigen::MatrixXd& A) {
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(A);
  return qr.householderQ() * Eigen::MatrixXd::Identity(A.rows(), A.cols());
}

// The iterative path for large clusters with few components: block subspace iteration on XᵀX
// with Rayleigh–Ritz (never forming XᵀX), b = min(p, 2m + 8) vectors, started from `start`'s
// columns (the cluster's previous basis, when given) completed by seeded pseudo-random ones.
// Converged when the m leading Ritz pairs (θ_i = σ_i², v_i) have residuals ‖XᵀX v_i − θ_i v_i‖
// below 1e-11·θ₁; returns false (and nothing) when that takes more than `max_sweeps` sweeps.
bool iterative_right_singular_vectors(const Eigen::MatrixXd& X, int m, int max_sweeps,
                                      const Eigen::MatrixXd* start, Eigen::MatrixXd& V,
                                      Eigen::VectorXd* singular_values) {
  const Eigen::Index d = X.cols(), p = std::min(X.rows(), X.cols());
  const Eigen::Index b = std::min<Eigen::Index>(p, 2 * m + 8);
  Eigen::MatrixXd Q(d, b);
  std::mt19937_64 generator(0x5eedcafeULL);
  for (Eigen::Index j = 0; j < b; ++j)
    for (Eigen::Index i = 0; i < d; ++i) Q(i, j) = 2 * uniform01(generator) - 1;
  if (start != nullptr && start->rows() == d)
    Q.leftCols(std::min(b, start->cols())) = start->leftCols(std::min(b, start->cols()));
  Q = orthonormal_columns(Q);
  Eigen::VectorXd theta;
  Eigen::MatrixXd W;
  bool converged = false;
  for (int sweep = 0; sweep < max_sweeps && !converged; ++sweep) {
    const Eigen::MatrixXd Y = X * Q;              // n × b
    const Eigen::MatrixXd Z = X.transpose() * Y;  // XᵀX Q
    Eigen::MatrixXd H = Y.transpose() * Y;        // Qᵀ XᵀX Q
    H = 0.5 * (H + H.transpose()).eval();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(H);
    // Ritz pairs, largest first.
    theta = eigen.eigenvalues().reverse();
    W = eigen.eigenvectors().rowwise().reverse();
    const Eigen::MatrixXd ZW = Z * W;
    const Eigen::MatrixXd residual = ZW - Q * W * theta.asDiagonal();
    const double top = std::max(theta[0], 0.0);
    converged = true;
    for (Eigen::Index i = 0; i < std::min<Eigen::Index>(m, b) && converged; ++i)
      if (theta[i] > 1e-14 * static_cast<double>(p) * top)
        converged = residual.col(i).norm() <= 1e-11 * top;
    Q = converged ? (Q * W).eval() : orthonormal_columns(ZW);
  }
  if (!converged) return false;
  const double top = std::max(theta[0], 0.0);
  Eigen::Index r = 0;
  while (r < std::min<Eigen::Index>(m, b) && theta[r] > 1e-14 * static_cast<double>(p) * top) ++r;
  V = Q.leftCols(r);
  fix_signs(V);
  if (singular_values) *singular_values = theta.head(r).cwiseMax(0.0).cwiseSqrt();
  return true;
}

// Subspace iteration while it costs less than the dense path (estimated at max(n, d)·p² flops for
// the Gram matrix plus 4p³ for its eigen-decomposition, against 4·n·d·b per sweep; at most 60
// sweeps), which takes over when the iteration does not converge in that budget (flat spectra).
Eigen::MatrixXd right_singular_vectors(const Eigen::MatrixXd& X, int m,
                                       Eigen::VectorXd* singular_values,
                                       const Eigen::MatrixXd* start) {
  const double n = static_cast<double>(X.rows()), d = static_cast<double>(X.cols());
  const double p = std::min(n, d), b = std::min(p, 2.0 * m + 8);
  const double dense_cost = std::max(n, d) * p * p + 4 * p * p * p;
  const double sweeps = std::min(60.0, dense_cost / std::max(4 * n * d * b, 1.0));
  Eigen::MatrixXd V;
  if (p > 64 && sweeps >= 4 &&
      iterative_right_singular_vectors(X, m, static_cast<int>(sweeps), start, V, singular_values))
    return V;
  return dense_right_singular_vectors(X, m, singular_values);
}

}  // namespace

Eigen::MatrixXd truncated_right_singular_vectors(const Eigen::MatrixXd& X, int m,
                                                 Eigen::VectorXd* singular_values) {
  return right_singular_vectors(X, m, singular_values, nullptr);
}

Eigen::MatrixXd Cpca::reconstruct(Index rows) const {
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(rows, columns);
  for (const CpcaCluster& c : clusters) {
    if (c.basis.cols() == 0) continue;
    const Eigen::MatrixXd block = c.coefficients * c.basis.transpose();  // U_j S_j V_jᵀ
    for (std::size_t i = 0; i < c.groups.size(); ++i) {
      const Eigen::Index row = static_cast<Eigen::Index>(group_size) * c.groups[i];
      if (row + group_size > rows)
        throw Error(
            fmt::format("clustered PCA: group {} lies past the {} rows asked of the reconstruction",
                        c.groups[i], rows));
      G.middleRows(row, group_size) =
          block.middleRows(static_cast<Eigen::Index>(group_size * i), group_size);
    }
  }
  return G;
}

std::size_t Cpca::stored_floats() const {
  std::size_t floats = 0;
  for (const CpcaCluster& c : clusters)
    floats += static_cast<std::size_t>(c.coefficients.size() + c.basis.size());
  return floats;
}

Cpca fit_cpca(const Eigen::MatrixXd& X, const std::vector<int>& cluster_of_group, int components,
              int group_size) {
  check_settings(X, components, group_size, "clustered PCA fit");
  const Index groups = static_cast<Index>(X.rows() / group_size);
  if (static_cast<Index>(cluster_of_group.size()) != groups)
    throw Error(fmt::format("clustered PCA fit: {} cluster ids for {} groups of {} rows",
                            cluster_of_group.size(), groups, group_size));
  int highest = -1;
  for (Index g = 0; g < groups; ++g) {
    const int c = cluster_of_group[static_cast<std::size_t>(g)];
    if (c < 0)
      throw Error(fmt::format("clustered PCA fit: group {} has cluster id {}; ids are ≥ 0", g, c));
    highest = std::max(highest, c);
  }
  // Used ids renumbered 0… in increasing order.
  std::vector<std::vector<Index>> members(static_cast<std::size_t>(highest + 1));
  for (Index g = 0; g < groups; ++g)
    members[static_cast<std::size_t>(cluster_of_group[static_cast<std::size_t>(g)])].push_back(g);
  Cpca result;
  result.group_size = group_size;
  result.columns = static_cast<Index>(X.cols());
  result.cluster_of_group.assign(static_cast<std::size_t>(groups), -1);
  for (std::vector<Index>& list : members) {
    if (list.empty()) continue;
    const int id = static_cast<int>(result.clusters.size());
    for (Index g : list) result.cluster_of_group[static_cast<std::size_t>(g)] = id;
    CpcaCluster cluster;
    const Eigen::MatrixXd rows = gather(X, list, group_size);            // X_j
    cluster.basis = truncated_right_singular_vectors(rows, components);  // V_j
    cluster.coefficients = rows * cluster.basis;                         // U_j S_j = X_j V_j
    cluster.groups = std::move(list);
    result.clusters.push_back(std::move(cluster));
  }
  return result;
}

Cpca cpca(const Eigen::MatrixXd& X, const CpcaSettings& settings) {
  const int gs = settings.group_size;
  check_settings(X, settings.components, gs, "clustered PCA");
  if (settings.clusters < 1)
    throw Error(
        fmt::format("clustered PCA: clusters must be at least 1, found {}", settings.clusters));
  if (settings.max_iterations < 1)
    throw Error(fmt::format("clustered PCA: max_iterations must be at least 1, found {}",
                            settings.max_iterations));
  const Index groups = static_cast<Index>(X.rows() / gs);
  const int k = static_cast<int>(std::min<Index>(settings.clusters, std::max<Index>(groups, 1)));
  const int m = settings.components;
  const Eigen::VectorXd norm2 = group_norms(X, gs);  // ‖X_g‖²
  const double total = norm2.sum();
  std::vector<int> assignment(static_cast<std::size_t>(groups), 0);
  if (groups == 0 || k == 1 || !(total > 0)) {
    Cpca single = fit_cpca(X, assignment, m, gs);
    single.iterations = groups == 0 ? 0 : 1;
    return single;
  }

  // --- Start (k-means++ on subspaces): seeds drawn with probability ∝ D²(g), the squared
  // distance of X_g to the row spans of the seeds drawn so far.
  std::mt19937_64 generator(settings.seed);
  Eigen::MatrixXd cap(groups, k);  // cap(g, j) = ‖X_g V_j‖²
  cap.setZero();
  Eigen::VectorXd best_captured = Eigen::VectorXd::Zero(groups);
  int seeds = 0;
  for (; seeds < k; ++seeds) {
    Eigen::VectorXd d2 = (norm2 - best_captured).cwiseMax(0.0);
    for (Index g = 0; g < groups; ++g)
      if (d2[g] <= kTie * norm2[g]) d2[g] = 0;  // represented exactly already
    const double sum = d2.sum();
    if (!(sum > 0)) break;  // fewer distinct subspaces than clusters
    const double target = uniform01(generator) * sum;
    Index chosen = -1;
    double running = 0;
    for (Index g = 0; g < groups; ++g) {
      if (d2[g] <= 0) continue;
      chosen = g;
      running += d2[g];
      if (running > target) break;
    }
    const Eigen::MatrixXd V = truncated_right_singular_vectors(X.middleRows(gs * chosen, gs), gs);
    cap.col(seeds) = captured(X, V, gs);
    best_captured = best_captured.cwiseMax(cap.col(seeds));
  }

  // Each group to the cluster that captures most of it; a cluster wins over a lower-numbered one
  // only by more than rounding.
  const auto best_cluster = [&](Index g, int active, int current) {
    int best = current;
    double best_value = current >= 0 ? cap(g, current) : -1.0;
    const double tie = kTie * norm2[g];
    double top = best_value;
    for (int j = 0; j < active; ++j) top = std::max(top, cap(g, j));
    if (current >= 0 && top <= best_value + tie) return current;  // no clear improvement
    for (int j = 0; j < active; ++j)
      if (cap(g, j) >= top - tie) return j;  // lowest index among the best
    return best;
  };
  for (Index g = 0; g < groups; ++g)
    assignment[static_cast<std::size_t>(g)] = best_cluster(g, std::max(seeds, 1), -1);

  // --- Iterate: PCA per cluster (V_j), reassignment by least ‖X_g − X_g V_j V_jᵀ‖².
  int iterations = 0;
  std::vector<std::vector<Index>> members(static_cast<std::size_t>(k));
  std::vector<Eigen::MatrixXd> bases(static_cast<std::size_t>(k));  // V_j, warm starts
  for (int pass = 1; pass <= settings.max_iterations; ++pass) {
    iterations = pass;
    for (auto& list : members) list.clear();
    for (Index g = 0; g < groups; ++g)
      members[static_cast<std::size_t>(assignment[static_cast<std::size_t>(g)])].push_back(g);
    for (int j = 0; j < k; ++j) {
      const auto& list = members[static_cast<std::size_t>(j)];
      if (list.empty()) {
        cap.col(j).setZero();
        continue;
      }
      Eigen::MatrixXd& V = bases[static_cast<std::size_t>(j)];
      V = right_singular_vectors(gather(X, list, gs), m, nullptr, &V);
      cap.col(j) = captured(X, V, gs);
    }
    bool moved = false;
    std::vector<Index> size(static_cast<std::size_t>(k), 0);
    for (Index g = 0; g < groups; ++g) {
      int& a = assignment[static_cast<std::size_t>(g)];
      const int b = best_cluster(g, k, a);
      moved = moved || b != a;
      a = b;
      ++size[static_cast<std::size_t>(a)];
    }
    // Empty clusters take the worst-reconstructed group of a cluster that has more than one.
    for (int j = 0; j < k; ++j) {
      if (size[static_cast<std::size_t>(j)] > 0) continue;
      Index worst = -1;
      double worst_error = kTie * total;
      for (Index g = 0; g < groups; ++g) {
        const int a = assignment[static_cast<std::size_t>(g)];
        if (size[static_cast<std::size_t>(a)] < 2) continue;
        const double error = norm2[g] - cap(g, a);
        if (error > worst_error) {
          worst_error = error;
          worst = g;
        }
      }
      if (worst < 0) continue;  // everything is reconstructed exactly: leave it empty
      --size[static_cast<std::size_t>(assignment[static_cast<std::size_t>(worst)])];
      assignment[static_cast<std::size_t>(worst)] = j;
      size[static_cast<std::size_t>(j)] = 1;
      cap(worst, j) = norm2[worst];  // its own cluster reconstructs it exactly
      moved = true;
    }
    if (!moved) break;
  }

  Cpca result = fit_cpca(X, assignment, m, gs);
  result.iterations = iterations;
  return result;
}

int cpca_components_for_budget(double floats_per_node, int clusters, int group_size) {
  if (clusters < 1 || group_size < 1)
    throw Error(fmt::format(
        "clustered PCA budget: clusters and group_size must be at least 1, found {} and {}",
        clusters, group_size));
  if (!std::isfinite(floats_per_node))
    throw Error("clustered PCA budget: the floats per node must be a finite number");
  // floats per node = (1 + k)·m·group_size  ⇒  m = floats / ((1 + k)·group_size).
  const double m = std::round(floats_per_node / ((1.0 + clusters) * group_size));
  return static_cast<int>(std::clamp(m, 1.0, 1e9));
}

}  // namespace substruct
