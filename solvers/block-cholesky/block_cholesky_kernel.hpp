// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Numeric block Cholesky A = L Lᵀ on the blocks of a BlockStorage, and its solve.
#include "block_storage.hpp"

namespace substruct::block_cholesky {

/// Overwrites the loaded lower blocks of A with L: dense Cholesky of each diagonal block,
/// triangular solves for the blocks below it, Schur-complement updates (dense products) of the
/// non-zero block pairs only. Throws Error naming the block where A is not positive definite.
void cholesky_factorize(BlockStorage& factor);

/// x ← A⁻¹ x with the factor: forward then back substitution by blocks.
void cholesky_solve(const BlockStorage& factor, Eigen::VectorXd& x);

}  // namespace substruct::block_cholesky
