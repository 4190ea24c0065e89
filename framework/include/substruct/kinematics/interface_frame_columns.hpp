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

/// J = P C: column ℓ of J (3 values at J + ldj ℓ) is P c_ℓ, for a 3×12 column-major P; returns
/// J x (3 values at Jx) for an r-vector x as well.
void interface_frame_map(int r, const double* columns, const double* P, double* J,
                         std::ptrdiff_t ldj, const double* x, double* Jx);

}  // namespace substruct
