// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The shift eigen-solver plugins choose when the caller leaves it open (NaN).
#include "substruct/core/types.hpp"

namespace substruct {

/// Σ Aᵢᵢ.
double trace(const SparseMatrix& A);

/// −10⁻⁶ |tr K| / tr M: below every eigenvalue of a positive semi-definite K (so K − σM is
/// positive definite even for a free-floating body), and small against the mean eigenvalue
/// tr(K)/tr(M), so the lowest eigenvalues stay well separated after the shift. Throws Error,
/// naming `solver`, when tr M is not positive or tr K not finite.
double automatic_shift(const SparseMatrix& K, const SparseMatrix& M, const char* solver);

}  // namespace substruct
