// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The residual and matrix of one Newton iteration of the reduced implicit Newmark step
// (reduced_integrator.cpp), formed in one pass over M and K: at small r, the size of a tree's
// leaves, separate products and sums cost more than the arithmetic. On x86-64 with GCC it is
// compiled for the baseline instruction set and for x86-64-v3 (AVX2, FMA); the loader picks one.

namespace substruct::detail {

/// The scalars of one Newton iteration: the step's scaled model is M' = m M and f' = k f,
/// K' = k K (m = 1/α, k = α s), its Rayleigh damping D = c_M M' + c_K K'.
struct NewtonCoefficients {
  double m = 1, k = 1;
  double mass_damping = 0, stiffness_damping = 0;  // c_M, c_K
  double matrix_mass = 0, matrix_stiffness = 0;    // A = a_M M' + a_K K'
};

/// R = f' + c_K K' v + M' (a + c_M v) − f_ext and A = a_M M' + a_K K' (the whole r×r matrix),
/// with M (r×r; null for the identity), K (r×r) and A column-major with leading dimension r;
/// f, f_ext, a, v and R have r entries. R and A must not overlap the inputs.
void newton_system(int r, const double* M, const double* K, const double* f, const double* f_ext,
                   const double* a, const double* v, const NewtonCoefficients& c, double* R,
                   double* A);

/// With f and Kx = K (c_K k v) from ReducedForceModel::implicit_step_terms, and A's lower
/// triangle holding a_K K' (K' = k K): R = k f + Kx + M' (a + c_M v) − f_ext, and a_M M' added to
/// A's lower triangle (M null for the identity; A column-major with leading dimension r).
void newton_mass_terms(int r, const double* M, const double* f, const double* Kx,
                       const double* f_ext, const double* a, const double* v,
                       const NewtonCoefficients& c, double* R, double* A);

}  // namespace substruct::detail
