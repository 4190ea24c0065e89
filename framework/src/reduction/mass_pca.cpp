// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/mass_pca.hpp"

#include <cmath>

#include <fmt/format.h>
#include <Eigen/Eigenvalues>

#include "substruct/core/error.hpp"

namespace substruct {

namespace {

void check_mass(const Eigen::MatrixXd& U, const SparseMatrix& M, const char* what) {
  if (M.rows() != U.rows() || M.cols() != U.rows())
    throw Error(fmt::format("{}: the mass matrix is {}×{}, the vectors have {} entries", what,
                            M.rows(), M.cols(), U.rows()));
}

// The sign that makes the largest-magnitude entry of u positive (the first one on a tie).
double sign_of_largest(const Eigen::Ref<const Eigen::VectorXd>& u) {
  Eigen::Index best = 0;
  double largest = -1;
  for (Eigen::Index i = 0; i < u.size(); ++i)
    if (std::abs(u[i]) > largest) {
      largest = std::abs(u[i]);
      best = i;
    }
  return u.size() > 0 && u[best] < 0 ? -1.0 : 1.0;
}

}  // namespace

void mass_orthonormalize(Eigen::MatrixXd& U, const SparseMatrix& M) {
  check_mass(U, M, "mass orthonormalisation");
  const Eigen::Index n = U.rows(), m = U.cols();
  Eigen::MatrixXd MU(n, m);  // M u_i of the columns done so far
  for (Eigen::Index j = 0; j < m; ++j) {
    Eigen::VectorXd v = U.col(j);
    Eigen::VectorXd Mv = M * v;
    const double original = std::sqrt(std::max(v.dot(Mv), 0.0));
    // "Twice is enough": v ← v − Σ_i (u_iᵀ M v) u_i, two passes.
    for (int pass = 0; pass < 2; ++pass)
      for (Eigen::Index i = 0; i < j; ++i) v -= MU.col(i).dot(v) * U.col(i);
    Mv = M * v;
    const double norm = std::sqrt(std::max(v.dot(Mv), 0.0));
    if (!(norm > 1e-10 * original) || !std::isfinite(norm))
      throw Error(fmt::format(
          "mass orthonormalisation: vector {} of {} is a combination of the previous ones (its "
          "M-norm {:.3g} drops to {:.3g})",
          j + 1, m, original, norm));
    U.col(j) = v / norm;
    MU.col(j) = Mv / norm;
  }
  for (Eigen::Index j = 0; j < m; ++j) U.col(j) *= sign_of_largest(U.col(j));
}

Eigen::MatrixXd mass_pca(const Eigen::MatrixXd& vectors, const SparseMatrix& M, int r) {
  check_mass(vectors, M, "mass PCA");
  if (r < 0 || r > vectors.cols())
    throw Error(
        fmt::format("mass PCA: cannot keep {} components of {} vectors", r, vectors.cols()));
  if (r == 0) return Eigen::MatrixXd(vectors.rows(), 0);
  // G = VᵀMV, symmetric positive semi-definite; its eigenvalues are the captured M-variances.
  const Eigen::MatrixXd MV = M * vectors;
  Eigen::MatrixXd G = vectors.transpose() * MV;
  G = 0.5 * (G + G.transpose()).eval();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(G);
  if (eigen.info() != Eigen::Success) throw Error("mass PCA: the Gram matrix has no eigenbasis");
  const Eigen::Index m = G.rows();
  const double largest = eigen.eigenvalues()[m - 1];
  const double rth = eigen.eigenvalues()[m - r];
  if (!(largest > 0) || !(rth > 1e-13 * largest))
    throw Error(fmt::format(
        "mass PCA: the {} vectors span fewer than {} directions (M-variance {:.3g} of the "
        "{}th component against {:.3g} of the first)",
        m, r, rth, r, largest));
  // U = V W_r Λ_r^(−1/2), leading component first.
  Eigen::MatrixXd W(m, r);
  for (int c = 0; c < r; ++c)
    W.col(c) = eigen.eigenvectors().col(m - 1 - c) / std::sqrt(eigen.eigenvalues()[m - 1 - c]);
  Eigen::MatrixXd U = vectors * W;
  mass_orthonormalize(U, M);
  return U;
}

}  // namespace substruct
