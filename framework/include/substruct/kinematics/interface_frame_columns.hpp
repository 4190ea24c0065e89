// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The two per-child products of a tree step over an interface frame model stored as r columns of
/// 12 contiguous values c_ℓ = [â_ℓ; A^ℓ column by column] (Barbič–Zhao 2011, Eq. 1–3): a branch
/// carries hundreds of leaves, and each needs both every step. Compiled for AVX2/FMA and the
/// baseline, the processor choosing at load time; bit-identical from call to call on one machine.
#include <cstddef>

namespace substruct {

/// Eq. 1, 2 and 6 in one pass: y_n = Σ_ℓ x_n[ℓ] c_ℓ for x_0 = q, x_1 = q̇, x_2 = q̈ (r entries
/// each); y_n is the 12 values at y + 12 n.
void interface_frame_sums(int r, const double* columns, const double* q, const double* qdot,
                          const double* qddot, double* y);

/// The Jacobian J = ∂c/∂q (3×r) of the point c = x + R d that the interface frame carries at
/// the offset d (Barbič–Zhao 2011, §5, "L2": J_c = â − (R d)~ Ω A, Ω the polar angular velocity
/// map at the current A, Rd = R d), for columns turned by T (â = T â′, A^ℓ = T A′^ℓ Tᵀ; T null
/// for none; column-major like Ω, 3×9). With Ω null, c = x: J = â. Column ℓ of s J (s = `scale`,
/// e.g. √m̄ for the rows of a rank update) is the three values at sJ + ldj ℓ; J x (unscaled) for
/// an r-vector x goes to Jx[0 … 2] (four values, written at once so that a caller's wider loads
/// of it are not stalled; Jx[3] = 0).
void interface_point_jacobian(int r, const double* columns, const double* T, const double* Rd,
                              const double* omega_map, const double* x, double scale, double* sJ,
                              std::ptrdiff_t ldj, double* Jx);

}  // namespace substruct
