// SPDX-License-Identifier: GPL-3.0-or-later
#include "block_cholesky_kernel.hpp"

#include <fmt/format.h>
#include <Eigen/Cholesky>

#include "substruct/core/error.hpp"

namespace substruct::block_cholesky {

void cholesky_factorize(BlockStorage& factor) {
  const int d = factor.num_positions();
  for (int p = 0; p < d; ++p) {
    Eigen::Ref<Eigen::MatrixXd> diagonal = factor.at(p, p);
    const Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(diagonal);  // in place, lower triangle
    if (llt.info() != Eigen::Success || !diagonal.diagonal().allFinite())
      throw Error(fmt::format(
          "block-cholesky: the matrix is not positive definite: the Cholesky factorization "
          "failed in block {} (unknowns {} to {}, eliminated {} of {}); an unsymmetric or "
          "indefinite matrix needs positive_definite = false (block LU)",
          factor.block(p), factor.offset(p), factor.offset(p) + factor.size(p) - 1, p + 1, d));
    const auto& below = factor.pattern().below[p];
    for (std::size_t k = 0; k < below.size(); ++k) {
      BlockStorage::Block block = factor.lower(p, int(k));
      // L(q, p) = A(q, p) L(p, p)⁻ᵀ
      diagonal.triangularView<Eigen::Lower>().transpose().solveInPlace<Eigen::OnTheRight>(block);
    }
    // Schur complement: A(qi, qj) −= L(qi, p) L(qj, p)ᵀ for qi ≥ qj in the pattern of p.
    for (std::size_t i = 0; i < below.size(); ++i) {
      const BlockStorage::Block Li = factor.lower(p, int(i));
      factor.at(below[i], below[i]).selfadjointView<Eigen::Lower>().rankUpdate(Li, -1.0);
      for (std::size_t j = 0; j < i; ++j)
        factor.at(below[i], below[j]).noalias() -= Li * factor.lower(p, int(j)).transpose();
    }
  }
}

void cholesky_solve(const BlockStorage& factor, Eigen::VectorXd& x) {
  const int d = factor.num_positions();
  const auto segment = [&](int p) { return x.segment(factor.offset(p), factor.size(p)); };
  for (int p = 0; p < d; ++p) {  // L y = b
    auto xp = segment(p);
    factor.at(p, p).triangularView<Eigen::Lower>().solveInPlace(xp);
    const auto& below = factor.pattern().below[p];
    for (std::size_t k = 0; k < below.size(); ++k)
      segment(below[k]).noalias() -= factor.lower(p, int(k)) * xp;
  }
  for (int p = d - 1; p >= 0; --p) {  // Lᵀ x = y
    auto xp = segment(p);
    const auto& below = factor.pattern().below[p];
    for (std::size_t k = 0; k < below.size(); ++k)
      xp.noalias() -= factor.lower(p, int(k)).transpose() * segment(below[k]);
    factor.at(p, p).transpose().triangularView<Eigen::Upper>().solveInPlace(xp);
  }
}

}  // namespace substruct::block_cholesky
