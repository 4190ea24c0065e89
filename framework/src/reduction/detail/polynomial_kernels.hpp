// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The evaluation core of the reduced StVK polynomial: one pass over its coefficients in padded
// packed triangles (packed_triangle.hpp). On x86-64 with GCC or Clang it is compiled twice, for
// the baseline instruction set and for x86-64-v3 (AVX2, FMA), and the loader picks the one the
// processor runs; results are bit-identical from call to call on one machine.
#include "packed_triangle.hpp"

namespace substruct::detail {

/// The parts of the Hessian of the cubic and quartic energy terms, as padded packed upper
/// triangles over [0, r)²: K₂(q) = P₃ + P₃ᵀ and K₃(q) = P₄ + P₄ᵀ (see reduced_stvk.cpp).
///   H:       P₃ = Σ_m q_m H_m, H_m (a padded triangle over [0, r)²) at H + m·column;
///   quartic: for each j, for each i ≤ j, the padded triangle over [j, r)² of d_ijkl (k ≤ l);
///   q:       r entries followed by zeros up to L.padded_r().
/// Workspace: zz (L.size(0)), U (L.nested(r)), y (L.padded_r()). All arrays 32-byte
/// aligned and distinct; P₃ and P₄ (L.size(0) each) are overwritten.
void stvk_hessian_parts(const PaddedTriangles& L, const double* H, std::size_t column,
                        const double* quartic, const double* q, double* zz, double* U, double* y,
                        double* P3, double* P4);

/// From P₃, P₄ of stvk_hessian_parts, q (padded as there) and K₀ (r×r, column-major):
/// K = K₀ + P + Pᵀ with P = P₃ + P₄ (r×r, column-major, both triangles; K may be null),
/// f = K₀q + (P_f + P_fᵀ) q with P_f = ½P₃ + ⅓P₄ (f: L.padded_r() entries, overwritten), and
/// returns the energy ½qᵀK₀q + qᵀ(P₃/3 + P₄/6)q.
double stvk_assemble(const PaddedTriangles& L, const double* P3, const double* P4, const double* q,
                     const double* K0, double* K, double* f);

/// The terms of an implicit step (ReducedForceModel::implicit_step_terms) from P₃, P₄ of
/// stvk_hessian_parts, q and x (each padded as q there) and K₀ (r×r, column-major): with
/// P = P₃ + P₄ and P_f = ½P₃ + ⅓P₄, f = K₀q + (P_f + P_fᵀ) q and Kx = K₀x + (P + Pᵀ) x
/// (L.padded_r() entries each, overwritten), and the lower triangle of s (K₀ + P + Pᵀ) in A (r×r,
/// column-major; the entries above the diagonal overwritten as scratch). Scratch: 3 L.padded_r()
/// entries.
void stvk_step_terms(const PaddedTriangles& L, const double* P3, const double* P4, const double* q,
                     const double* x, const double* K0, double s, double* f, double* Kx, double* A,
                     double* scratch);

/// The monomials of the expanded evaluation (small r): z = (q_m q_n)_{m ≤ n}, r(r+1)/2 entries
/// in the order (0,0), (0,1), … (0,r−1), (1,1), …
void expanded_monomials(int r, const double* q, double* z);

/// The expanded evaluation's last pass (small r): from K₀, K₂(q) and K₃(q) as packed lower
/// triangles (column b holds the rows a = b … r−1, columns one after the other),
/// K = K₀ + K₂ + K₃ (r×r column-major, both triangles) and f = (K₀ + ½K₂ + ⅓K₃) q (r entries);
/// both overwritten, whichever the caller needs (one code path: f's bits do not depend on it).
void expanded_assemble(int r, const double* K0, const double* K2, const double* K3, const double* q,
                       double* K, double* f);

/// The terms of an implicit step from the expanded evaluation's K₀, K₂(q), K₃(q) (packed as for
/// expanded_assemble), q and x (r entries): with K = K₀ + K₂ + K₃, f = (K₀ + ½K₂ + ⅓K₃) q and
/// Kx = K x (r entries each, overwritten), and the lower triangle of s K in A (r×r, column-major;
/// above the diagonal untouched).
void expanded_step_terms(int r, const double* K0, const double* K2, const double* K3,
                         const double* q, const double* x, double s, double* A, double* f,
                         double* Kx);

}  // namespace substruct::detail
