// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The matrix the implicit integrators factor, A = c_M M + c_K K restricted to the free DOFs, on a
// pattern fixed once (the union of M's and K's free patterns), so that the linear solver's
// symbolic analysis is done once and each Newton iteration only rewrites values.
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/integrators/dof_map.hpp"

namespace substruct::detail {

class EffectiveMatrix {
 public:
  EffectiveMatrix() = default;
  /// `M` and `K` are full (n×n); their patterns are the ones every later assemble() receives.
  EffectiveMatrix(const SparseMatrix& M, const SparseMatrix& K, const DofMap& dofs);

  /// A = c_M M + c_K K on the free DOFs. Throws Error when M or K has another pattern than at
  /// construction.
  void assemble(double c_M, const SparseMatrix& M, double c_K, const SparseMatrix& K);
  const SparseMatrix& matrix() const { return A_; }

 private:
  SparseMatrix A_;
  std::vector<int> m_target_;  // per stored entry of M (column order): position in A, −1: fixed
  std::vector<int> k_target_;  // same for K
};

}  // namespace substruct::detail
