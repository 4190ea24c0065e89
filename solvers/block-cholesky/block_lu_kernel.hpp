// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Numeric block LU A = L̂ Û on the blocks of a BlockStorage (with upper blocks), and its solve.
// L̂ is block lower triangular with the Schur-complement diagonal blocks S(p, p), each factored
// by a dense partial-pivoted LU; Û is unit block upper triangular, Û(p, q) = S(p, p)⁻¹ S(p, q).
// Pivoting stays inside the diagonal blocks, never across blocks, so every S(p, p) must be
// non-singular. That holds, and the factorization is stable, when A is block diagonally dominant
// or when A + Aᵀ is positive definite (then so is the symmetric part of every Schur complement),
// as for the coupling-elements system with non-uniform cubature weights, a small unsymmetric
// change of a symmetric positive definite matrix.
#include <vector>

#include "block_storage.hpp"

namespace substruct::block_cholesky {

class BlockLu {
 public:
  /// Overwrites the loaded blocks of A with the factors. Throws Error naming the block whose
  /// Schur-complement diagonal block is singular or nearly so.
  void factorize(BlockStorage& factor);
  /// x ← A⁻¹ x with the factors.
  void solve(const BlockStorage& factor, Eigen::VectorXd& x) const;

 private:
  std::vector<Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int>> rows_;  // per p
};

}  // namespace substruct::block_cholesky
