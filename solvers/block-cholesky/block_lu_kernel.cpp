// SPDX-License-Identifier: GPL-3.0-or-later
#include "block_lu_kernel.hpp"

#include <limits>

#include <fmt/format.h>
#include <Eigen/LU>

#include "substruct/core/error.hpp"

namespace substruct::block_cholesky {
namespace {

// X ← S⁻¹ X for S = P⁻¹ L U stored in place (unit L below the diagonal, U on and above).
template <class Rhs>
void solve_diagonal(const BlockStorage::ConstBlock& S,
                    const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int>& P,
                    Rhs&& X) {
  X = P * X;
  S.triangularView<Eigen::UnitLower>().solveInPlace(X);
  S.triangularView<Eigen::Upper>().solveInPlace(X);
}

}  // namespace

void BlockLu::factorize(BlockStorage& factor) {
  const int d = factor.num_positions();
  rows_.resize(static_cast<std::size_t>(d));
  for (int p = 0; p < d; ++p) {
    Eigen::Ref<Eigen::MatrixXd> diagonal = factor.at(p, p);
    const Eigen::PartialPivLU<Eigen::Ref<Eigen::MatrixXd>> lu(diagonal);  // in place
    const double rcond = lu.rcond();
    if (!(rcond > std::numeric_limits<double>::epsilon()))
      throw Error(fmt::format(
          "block-cholesky: block LU: the pivot block of block {} (unknowns {} to {}, "
          "eliminated {} of {}) is singular or nearly so (reciprocal condition number {:.1e}); "
          "the block LU pivots only inside blocks, so every diagonal block of the Schur "
          "complements must be non-singular (true when A is block diagonally dominant or "
          "A + Aᵀ is positive definite); the cholmod solver (UMFPACK LU) pivots across blocks",
          factor.block(p), factor.offset(p), factor.offset(p) + factor.size(p) - 1, p + 1, d,
          rcond));
    rows_[p] = lu.permutationP();
    const BlockStorage::ConstBlock S = std::as_const(factor).at(p, p);
    const auto& below = factor.pattern().below[p];
    for (std::size_t k = 0; k < below.size(); ++k)
      solve_diagonal(S, rows_[p], factor.upper(p, int(k)));  // Û(p, q) = S(p, p)⁻¹ A(p, q)
    // Schur complement: A(qi, qj) −= L̂(qi, p) Û(p, qj) for every pair in the pattern of p.
    for (std::size_t i = 0; i < below.size(); ++i) {
      const BlockStorage::Block Li = factor.lower(p, int(i));
      for (std::size_t j = 0; j < below.size(); ++j)
        factor.at(below[i], below[j]).noalias() -= Li * factor.upper(p, int(j));
    }
  }
}

void BlockLu::solve(const BlockStorage& factor, Eigen::VectorXd& x) const {
  const int d = factor.num_positions();
  const auto segment = [&](int p) { return x.segment(factor.offset(p), factor.size(p)); };
  for (int p = 0; p < d; ++p) {  // L̂ y = b
    auto xp = segment(p);
    solve_diagonal(factor.at(p, p), rows_[p], xp);
    const auto& below = factor.pattern().below[p];
    for (std::size_t k = 0; k < below.size(); ++k)
      segment(below[k]).noalias() -= factor.lower(p, int(k)) * xp;
  }
  for (int p = d - 1; p >= 0; --p) {  // Û x = y
    auto xp = segment(p);
    const auto& below = factor.pattern().below[p];
    for (std::size_t k = 0; k < below.size(); ++k)
      xp.noalias() -= factor.upper(p, int(k)) * segment(below[k]);
  }
}

}  // namespace substruct::block_cholesky
