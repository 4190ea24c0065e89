// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// y = A x and y' = A x' in one pass over a row-major A, for the per-step products whose matrix
/// does not fit in the cache: a warped domain's U and Ψ against q and q̇ (reading A once instead
/// of twice halves the memory traffic of the geometry update), w = Ψ q, and Φᵀ f with a
/// column-major Φ (which is a row-major Φᵀ). Compiled for AVX2/FMA and the baseline, the
/// processor choosing at load time.
#include <cstddef>

namespace substruct {

/// y1 = A x1 and, when x2 and y2 are not null, y2 = A x2, for a dense row-major A (rows × cols,
/// leading dimension cols, any alignment). Every element of A is read once; bit-identical from
/// call to call on one machine.
void dense_rows_product(std::size_t rows, std::size_t cols, const double* A, const double* x1,
                        const double* x2, double* y1, double* y2);

}  // namespace substruct
