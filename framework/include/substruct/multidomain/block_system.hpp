// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The linear system A y = b of a velocity-level step of floating domains: one block row and
/// column per domain (its unknowns, e.g. q̇, v, ω), dense blocks on the diagonal and for every
/// pair of coupled domains. The pattern is fixed — every entry of those blocks is kept, zero or
/// not — so a solver's symbolic analysis stays valid from step to step.
#include <map>
#include <utility>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct {

class BlockSystem {
 public:
  BlockSystem() = default;
  /// sizes[i]: the unknowns of domain i (0 allowed); couplings: pairs (i, j), i ≠ j, any order.
  BlockSystem(const std::vector<int>& sizes, const std::vector<std::pair<int, int>>& couplings);

  Index size() const { return offsets_.empty() ? 0 : offsets_.back(); }
  Index offset(int domain) const { return offsets_[static_cast<std::size_t>(domain)]; }
  int block_size(int domain) const;
  /// Zeroes A and b.
  void clear();
  /// The dense block (i, j) of A; (i, i) always exists, (i, j) when i and j are coupled (Error
  /// otherwise).
  Eigen::MatrixXd& block(int i, int j);
  Eigen::VectorXd& b() { return b_; }
  const Eigen::VectorXd& b() const { return b_; }

  /// A as a sparse matrix with the fixed pattern (both triangles).
  SparseMatrix matrix() const;
  /// The domain blocks and their couplings for MatrixProperties::blocks (domains without
  /// unknowns left out).
  BlockStructure structure() const;

 private:
  std::vector<Index> offsets_;
  std::map<std::pair<int, int>, Eigen::MatrixXd> blocks_;
  Eigen::VectorXd b_;
};

}  // namespace substruct
