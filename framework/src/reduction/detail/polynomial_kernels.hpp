#pragma once
// The evaluation core of the reduced StVK polynomial: one pass over its coefficients in padded
// packed triangles (packed_triangle.hpp). On x86-64 with GCC or Clang it is compiled twice, for
// the baseline instruction set and for x86-64-v3 (AVX2, FMA), and the loader picks the one the
// processor runs; results are bit-identical from call to call on one machine.
#include "packed_triangle.hpp"

namespace substruct::detail {

/// The parts of the Hessian of the cubic and quartic energy terms, as padded packed upper
/// triangles over [0, r)²: K₂(q) = P₃ + P₃ᵀ and K₃(q) = P₄ + P₄ᵀ (see reduced_stvk.cpp).
///   cubic:   for each i, the padded triangle over [i, r)² of c_ijk (j ≤ k);
///   quartic: for each j, for each i ≤ j, the padded triangle over [j, r)² of d_ijkl (k ≤ l);
///   q:       r entries followed by zeros up to L.padded_r().
/// Workspace: zz (L.size(0)), U (L.nested(r)), y (2 L.padded_r() + 2r). All arrays 16-byte
/// aligned and distinct; P₃ and P₄ (L.size(0) each) are overwritten.
void stvk_hessian_parts(const PaddedTriangles& L, const double* cubic, const double* quartic,
                        const double* q, double* zz, double* U, double* y, double* P3,
                        double* P4);

}  // namespace substruct::detail
