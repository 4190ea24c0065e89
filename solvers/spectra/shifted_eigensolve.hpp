// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The spectra plugin's solve: the `count` eigenpairs of K x = λ M x nearest a shift σ, by
// Spectra's implicitly restarted Lanczos on (K − σM)⁻¹ M (shift_invert_operator.hpp); problems of
// at most kDenseLimit DOFs, or asking for every eigenpair, by a dense solve instead.
#include "substruct/core/types.hpp"
#include "substruct/solvers/eigen_solver.hpp"

namespace substruct::spectra_plugin {

struct SpectraSettings {
  double tolerance = 1e-10;   // relative accuracy of the converged Ritz values
  int max_iterations = 1000;  // restarts
  int ncv = 0;                // Lanczos basis size; 0: min(n, max(2·count + 1, count + 20))
};

/// Up to this many DOFs the problem is solved densely (exact, and faster than iterating).
inline constexpr Eigen::Index kDenseLimit = 200;
/// Asking for all (or all but one) of the eigenpairs, which Lanczos cannot, is solved densely up
/// to this many DOFs and refused above.
inline constexpr Eigen::Index kDenseAllLimit = 3000;

/// Eigenvalues ascending, eigenvectors M-orthonormal with their largest-magnitude entry positive
/// (as slepc's). `shift` NaN: automatic_shift() (solvers/automatic_shift.hpp), as slepc. Throws
/// Error on bad sizes or counts, a K or M that is not symmetric, and when fewer than `count` pairs
/// converge, saying how many.
EigenPairs shifted_eigensolve(const SparseMatrix& K, const SparseMatrix& M, int count, double shift,
                              const SpectraSettings& settings);

}  // namespace substruct::spectra_plugin
