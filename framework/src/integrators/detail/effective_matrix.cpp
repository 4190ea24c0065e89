// SPDX-License-Identifier: GPL-3.0-or-later
#include "effective_matrix.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::detail {
namespace {

using Triplet = Eigen::Triplet<double, int>;

void add_free_pattern(const SparseMatrix& B, const DofMap& dofs, std::vector<Triplet>& entries) {
  for (int col = 0; col < B.outerSize(); ++col) {
    const Index c = dofs.free_index(col);
    if (c < 0) continue;
    for (SparseMatrix::InnerIterator it(B, col); it; ++it) {
      const Index r = dofs.free_index(static_cast<Index>(it.row()));
      if (r >= 0) entries.emplace_back(r, c, 0.0);
    }
  }
}

// Position in A (compressed) of each stored entry of B, visited column by column.
std::vector<int> targets(const SparseMatrix& A, const SparseMatrix& B, const DofMap& dofs) {
  std::vector<int> target;
  target.reserve(static_cast<std::size_t>(B.nonZeros()));
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  for (int col = 0; col < B.outerSize(); ++col) {
    const Index c = dofs.free_index(col);
    for (SparseMatrix::InnerIterator it(B, col); it; ++it) {
      const Index r = dofs.free_index(static_cast<Index>(it.row()));
      if (c < 0 || r < 0) {
        target.push_back(-1);
        continue;
      }
      const int* begin = inner + outer[c];
      const int* end = inner + outer[c + 1];
      const int* found = std::lower_bound(begin, end, r);
      target.push_back(static_cast<int>(found - inner));
    }
  }
  return target;
}

void scatter(double c, const SparseMatrix& B, const std::vector<int>& target, double* values,
             const char* name) {
  std::size_t k = 0;
  for (int col = 0; col < B.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(B, col); it; ++it, ++k) {
      if (k >= target.size()) break;
      if (target[k] >= 0) values[target[k]] += c * it.value();
    }
  if (k != target.size() || static_cast<std::size_t>(B.nonZeros()) != target.size())
    throw Error(
        fmt::format("the {} matrix changed its sparsity pattern ({} stored entries, {} "
                    "when the integrator was set up)",
                    name, B.nonZeros(), target.size()));
}

}  // namespace

EffectiveMatrix::EffectiveMatrix(const SparseMatrix& M, const SparseMatrix& K, const DofMap& dofs) {
  for (const SparseMatrix* B : {&M, &K})
    if (B->rows() != dofs.num_dofs() || B->cols() != dofs.num_dofs())
      throw Error(fmt::format("a {}×{} matrix does not fit a system of {} DOFs", B->rows(),
                              B->cols(), dofs.num_dofs()));
  std::vector<Triplet> entries;
  entries.reserve(static_cast<std::size_t>(M.nonZeros() + K.nonZeros()));
  add_free_pattern(M, dofs, entries);
  add_free_pattern(K, dofs, entries);
  A_.resize(dofs.num_free(), dofs.num_free());
  A_.setFromTriplets(entries.begin(), entries.end());
  A_.makeCompressed();
  m_target_ = targets(A_, M, dofs);
  k_target_ = targets(A_, K, dofs);
}

void EffectiveMatrix::assemble(double c_M, const SparseMatrix& M, double c_K,
                               const SparseMatrix& K) {
  double* values = A_.valuePtr();
  std::fill(values, values + A_.nonZeros(), 0.0);
  scatter(c_M, M, m_target_, values, "mass");
  scatter(c_K, K, k_target_, values, "stiffness");
}

}  // namespace substruct::detail
