// SPDX-License-Identifier: GPL-3.0-or-later
#include "nnls.hpp"

#include <limits>
#include <vector>

#include <fmt/format.h>
#include <Eigen/Cholesky>

#include "substruct/core/error.hpp"

namespace substruct::detail {

// Lawson–Hanson. P is the passive set (x_j free), Z the rest (x_j = 0). Outer loop: with
// w = h − Gx (the negative gradient), move the j ∈ Z of largest w_j > threshold into P.
// Inner loop: s = the least-squares solution on P (G_PP s_P = h_P, s_Z = 0); if s_P > 0 take
// x = s, else step from x toward s as far as x stays ≥ 0 (α = min x_j / (x_j − s_j) over
// s_j ≤ 0), move the entries that reach 0 back to Z, and solve again.
NnlsReport nnls_normal(const Eigen::MatrixXd& G, const Eigen::VectorXd& h, Eigen::VectorXd& x,
                       double tolerance, int max_iterations) {
  const Eigen::Index n = G.rows();
  if (G.cols() != n || h.size() != n || (x.size() != 0 && x.size() != n))
    throw Error(fmt::format(
        "non-negative least squares: G is {}×{}, h has {} entries and x {}; expected n×n, n, n",
        G.rows(), G.cols(), h.size(), x.size()));
  if (x.size() == 0) x = Eigen::VectorXd::Zero(n);
  if ((x.array() < 0).any())
    throw Error("non-negative least squares: the starting point has negative entries");
  if (max_iterations < 0) max_iterations = static_cast<int>(3 * n + 10);
  const double threshold = n > 0 ? tolerance * h.cwiseAbs().maxCoeff() : 0;

  NnlsReport report;
  std::vector<char> passive(static_cast<std::size_t>(n));
  for (Eigen::Index j = 0; j < n; ++j) passive[static_cast<std::size_t>(j)] = x[j] > 0;
  Eigen::VectorXd s(n);
  std::vector<Eigen::Index> P;

  // s ← the least-squares solution on P; false when G_PP is not positive definite.
  auto solve_passive = [&]() {
    P.clear();
    for (Eigen::Index j = 0; j < n; ++j)
      if (passive[static_cast<std::size_t>(j)]) P.push_back(j);
    const auto k = static_cast<Eigen::Index>(P.size());
    Eigen::MatrixXd Gp(k, k);
    Eigen::VectorXd hp(k);
    for (Eigen::Index a = 0; a < k; ++a) {
      hp[a] = h[P[a]];
      for (Eigen::Index b = 0; b < k; ++b) Gp(a, b) = G(P[a], P[b]);
    }
    const Eigen::LLT<Eigen::MatrixXd> llt(Gp);
    if (llt.info() != Eigen::Success) return false;
    const Eigen::VectorXd sp = llt.solve(hp);
    if (!sp.allFinite()) return false;
    s.setZero();
    for (Eigen::Index a = 0; a < k; ++a) s[P[a]] = sp[a];
    return true;
  };

  // The inner loop, from x ≥ 0 with x_P > 0 except for `entering` (−1: none). Returns false, with
  // x unchanged and `entering` back in Z, when the entering column is rejected.
  auto inner = [&](Eigen::Index entering) {
    while (report.iterations < max_iterations) {
      ++report.iterations;
      if (!solve_passive()) {
        if (entering >= 0) {
          passive[static_cast<std::size_t>(entering)] = 0;
          return false;
        }
        // A singular warm start: drop its smallest entry and try again.
        Eigen::Index smallest = -1;
        for (Eigen::Index j : P)
          if (smallest < 0 || x[j] < x[smallest]) smallest = j;
        if (smallest < 0) return true;
        x[smallest] = 0;
        passive[static_cast<std::size_t>(smallest)] = 0;
        continue;
      }
      if (entering >= 0 && !(s[entering] > 0)) {
        passive[static_cast<std::size_t>(entering)] = 0;
        return false;
      }
      entering = -1;
      double alpha = std::numeric_limits<double>::infinity();
      Eigen::Index blocking = -1;
      for (Eigen::Index j : P)
        if (s[j] <= 0) {
          const double a = x[j] / (x[j] - s[j]);
          if (a < alpha) {
            alpha = a;
            blocking = j;
          }
        }
      if (blocking < 0) {  // s_P > 0
        x = s;
        return true;
      }
      for (Eigen::Index j : P) {
        x[j] += alpha * (s[j] - x[j]);
        if (j == blocking || x[j] <= 0) {
          x[j] = 0;
          passive[static_cast<std::size_t>(j)] = 0;
        }
      }
    }
    return true;
  };

  bool warm = false;
  for (char p : passive) warm = warm || p;
  if (warm) inner(-1);
  std::vector<char> rejected(static_cast<std::size_t>(n), 0);
  while (report.iterations < max_iterations) {
    const Eigen::VectorXd w = h - G * x;
    Eigen::Index t = -1;
    for (Eigen::Index j = 0; j < n; ++j) {
      const auto sj = static_cast<std::size_t>(j);
      if (!passive[sj] && !rejected[sj] && (t < 0 || w[j] > w[t])) t = j;
    }
    if (t < 0 || !(w[t] > threshold)) {
      report.converged = true;
      break;
    }
    passive[static_cast<std::size_t>(t)] = 1;
    if (inner(t))
      std::fill(rejected.begin(), rejected.end(), 0);
    else
      rejected[static_cast<std::size_t>(t)] = 1;
  }
  return report;
}

Eigen::VectorXd nnls(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, NnlsReport* report) {
  if (A.rows() != b.size())
    throw Error(fmt::format("non-negative least squares: A has {} rows but b has {} entries",
                            A.rows(), b.size()));
  const Eigen::MatrixXd G = A.transpose() * A;
  const Eigen::VectorXd h = A.transpose() * b;
  Eigen::VectorXd x;
  const NnlsReport r = nnls_normal(G, h, x);
  if (report) *report = r;
  return x;
}

}  // namespace substruct::detail
