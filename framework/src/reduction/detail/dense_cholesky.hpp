// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Cholesky factorisation and solves of small dense SPD matrices (the reduced Newton matrices,
// r ≲ 100), unblocked, with vectorised column updates. On x86-64 with GCC or Clang it is
// compiled for the baseline instruction set and for x86-64-v3 (AVX2, FMA); the loader picks one.

namespace substruct::detail {

/// A = LLᵀ in place: A is n×n column-major with leading dimension lda; its lower triangle
/// (diagonal included) is read and replaced by L, the strict upper triangle is overwritten
/// (scratch); inverse_diagonal (n entries) receives 1/L_jj. Returns false (A partly
/// overwritten) when a pivot is not positive and finite.
bool cholesky_factor(double* A, int n, int lda, double* inverse_diagonal);

/// b ← (LLᵀ)⁻¹ b with L and inverse_diagonal from cholesky_factor.
void cholesky_solve(const double* L, const double* inverse_diagonal, int n, int lda, double* b);

}  // namespace substruct::detail
