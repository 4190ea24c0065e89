// SPDX-License-Identifier: GPL-3.0-or-later
#include "shifted_eigensolve.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <Spectra/SymGEigsShiftSolver.h>
#include <Eigen/Eigenvalues>

#include "shift_invert_operator.hpp"
#include "substruct/core/error.hpp"
#include "substruct/solvers/automatic_shift.hpp"

namespace substruct::spectra_plugin {
namespace {

// The pairs in ascending order of λ, each vector with its largest-magnitude entry positive.
EigenPairs sorted(const Eigen::VectorXd& values, const Eigen::MatrixXd& vectors) {
  std::vector<Eigen::Index> order(std::size_t(values.size()));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](Eigen::Index a, Eigen::Index b) { return values[a] < values[b]; });
  EigenPairs pairs;
  pairs.values.resize(values.size());
  pairs.vectors.resize(vectors.rows(), values.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    pairs.values[Eigen::Index(k)] = values[order[k]];
    auto v = pairs.vectors.col(Eigen::Index(k));
    v = vectors.col(order[k]);
    // The sign slepc gives too: the largest-magnitude entry positive.
    Eigen::Index largest = 0;
    v.cwiseAbs().maxCoeff(&largest);
    if (v[largest] < 0) v = -v;
  }
  return pairs;
}

// Every eigenpair of the dense problem, then the `count` nearest σ.
EigenPairs dense_solve(const SparseMatrix& K, const SparseMatrix& M, int count, double sigma) {
  const Eigen::MatrixXd Kd(K), Md(M);
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> solver(Kd, Md);
  if (solver.info() != Eigen::Success)
    throw Error("spectra: the dense generalized eigensolve failed (is M positive definite?)");
  const Eigen::VectorXd& all = solver.eigenvalues();
  std::vector<Eigen::Index> order(std::size_t(all.size()));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    return std::abs(all[a] - sigma) < std::abs(all[b] - sigma);
  });
  Eigen::VectorXd values(count);
  Eigen::MatrixXd vectors(K.rows(), count);
  for (int k = 0; k < count; ++k) {
    values[k] = all[order[std::size_t(k)]];
    vectors.col(k) = solver.eigenvectors().col(order[std::size_t(k)]);
  }
  return sorted(values, vectors);
}

}  // namespace

EigenPairs shifted_eigensolve(const SparseMatrix& K, const SparseMatrix& M, int count, double shift,
                              const SpectraSettings& settings) {
  const Eigen::Index n = K.rows();
  if (K.cols() != n || M.rows() != n || M.cols() != n)
    throw Error(fmt::format("spectra: K ({}×{}) and M ({}×{}) must be square and of one size",
                            K.rows(), K.cols(), M.rows(), M.cols()));
  if (n == 0) throw Error("spectra: the problem is empty (0 DOFs; are all DOFs fixed?)");
  if (count < 1 || count > n)
    throw Error(
        fmt::format("spectra: {} eigenpairs requested of a problem with {} DOFs; ask for 1 to {}",
                    count, n, n));
  if (settings.ncv != 0 && (settings.ncv <= count || settings.ncv > n))
    throw Error(fmt::format(
        "spectra.ncv = {} must be 0 (automatic) or in ({}, {}] for {} eigenpairs of {} DOFs",
        settings.ncv, count, n, count, n));
  for (const auto& [name, A] : {std::pair{"K", &K}, std::pair{"M", &M}}) {
    const double asymmetry = (*A - SparseMatrix(A->transpose())).norm();
    if (!(asymmetry <= 1e-10 * A->norm()))
      throw Error(fmt::format("spectra: {} is not symmetric (‖{} − {}ᵀ‖ = {:.3g} of ‖{}‖ = {:.3g})",
                              name, name, name, asymmetry, name, A->norm()));
  }
  const double sigma = std::isnan(shift) ? automatic_shift(K, M, "spectra") : shift;
  if (!std::isfinite(sigma))
    throw Error(fmt::format("spectra: the shift must be finite, got {}", sigma));
  if (n <= kDenseLimit) return dense_solve(K, M, count, sigma);
  if (count >= n - 1) {  // Lanczos needs count < n − 1; all pairs of a large problem: dense
    if (n > kDenseAllLimit)
      throw Error(fmt::format(
          "spectra: {} of the {} eigenpairs: Lanczos finds at most {}, and a dense solve of {} "
          "DOFs is too large; ask for fewer or use [solvers] eigen = slepc",
          count, n, n - 2, n));
    return dense_solve(K, M, count, sigma);
  }

  const Eigen::Index ncv =
      settings.ncv != 0
          ? settings.ncv
          : std::min<Eigen::Index>(n, std::max<Eigen::Index>(2 * count + 1, count + 20));
  ShiftInvertOperator op(K, M);
  MassProduct mass(M);
  using Solver = Spectra::SymGEigsShiftSolver<ShiftInvertOperator, MassProduct,
                                              Spectra::GEigsMode::ShiftInvert>;
  Solver solver(op, mass, count, ncv, sigma);  // factors K − σM
  solver.init();  // Spectra's fixed start vector: the same pairs every run
  const Eigen::Index converged =
      solver.compute(Spectra::SortRule::LargestMagn, settings.max_iterations, settings.tolerance);
  if (solver.info() != Spectra::CompInfo::Successful || converged < count)
    throw Error(fmt::format(
        "spectra: only {} of the {} eigenpairs nearest σ = {:.6g} converged in {} Lanczos "
        "restarts (tolerance {:g}, {} DOFs, basis of {} vectors); raise spectra.max_iterations "
        "or spectra.ncv",
        converged, count, sigma, solver.num_iterations(), settings.tolerance, n, ncv));
  return sorted(solver.eigenvalues(), solver.eigenvectors());
}

}  // namespace substruct::spectra_plugin
