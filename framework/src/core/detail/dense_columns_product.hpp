// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// y = A x for the small dense products of the per-step kernels (the expanded Hessian of a small
// reduced StVK polynomial, the system-force integrals).
#include <cstddef>

namespace substruct::detail {

/// y = A x for a dense column-major A (rows × cols, leading dimension lda ≥ rows; rows and lda
/// multiples of 4, A 32-byte aligned); y (rows entries, 32-byte aligned) is overwritten. Every
/// element of A is read once; bit-identical from call to call on one machine.
void dense_columns_product(std::size_t rows, std::size_t cols, const double* A, std::size_t lda,
                           const double* x, double* y);

}  // namespace substruct::detail
