// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// K x = λ M x for symmetric K and SPD M with SLEPc: Krylov–Schur on the shift-and-invert operator
// (K − σM)⁻¹ M, whose largest eigenvalues θ = 1/(λ − σ) are the λ closest to σ.
#include <mpi.h>

#include "slepc_settings.hpp"
#include "substruct/solvers/eigen_solver.hpp"

namespace substruct::slepc_plugin {

/// The `count` eigenpairs with λ closest to `shift` (NaN: automatic_shift(),
/// solvers/automatic_shift.hpp), collectively on `comm`: every rank passes the same K and M (any
/// symmetric storage: both triangles, or one), owns a contiguous block of rows of the distributed
/// problem and receives every eigenpair in full. Values ascending; vectors M-normalised (xᵀ M x =
/// 1, M-orthogonal to the solver's accuracy) with their largest-magnitude entry positive. Throws
/// Error for sizes that do not match, count outside [1, n], a non-symmetric matrix, a failed
/// factorization, or when fewer than `count` pairs converge (saying how many did and what to
/// change).
EigenPairs solve_generalized(MPI_Comm comm, const SparseMatrix& K, const SparseMatrix& M, int count,
                             double shift, const SlepcSettings& settings);

}  // namespace substruct::slepc_plugin
