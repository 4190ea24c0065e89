// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Mass-weighted principal component analysis and M-orthonormalisation of vector sets: the
/// last stage of building a reduced basis (Barbič–James 2005, §4).
#include "substruct/core/types.hpp"

namespace substruct {

/// The r-dimensional subspace that best captures the columns v_c of `vectors` (3N×m) in the
/// mass norm: with the Gram matrix G = VᵀMV = W Λ Wᵀ (λ₁ ≥ λ₂ ≥ …), U = V W_r Λ_r^(−1/2),
/// i.e. the r leading left singular vectors of M^(1/2) V mapped back by M^(−1/2). The result is
/// then passed through mass_orthonormalize, so UᵀMU = I to rounding (≤ 1e-12) and the signs
/// are deterministic. r = 0 gives a 3N×0 matrix. Throws Error when r < 0, r > m, M does not
/// match, or the vectors span fewer than r directions (λ_r ≤ 1e-13 λ₁).
Eigen::MatrixXd mass_pca(const Eigen::MatrixXd& vectors, const SparseMatrix& M, int r);

/// Makes the columns of U M-orthonormal in place (UᵀMU = I), keeping the span of every leading
/// set of columns: modified Gram–Schmidt in the M inner product, each column orthogonalised
/// twice. Then each column's sign is chosen so that its largest-magnitude entry (the first one
/// on a tie) is positive. Throws Error when M does not match U or a column is (numerically) a
/// combination of the previous ones (its norm drops below 1e-10 of its original M-norm).
void mass_orthonormalize(Eigen::MatrixXd& U, const SparseMatrix& M);

}  // namespace substruct
