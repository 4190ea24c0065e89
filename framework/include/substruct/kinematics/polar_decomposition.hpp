// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Polar decomposition of a 3×3 matrix, A = R S.
#include "substruct/core/types.hpp"

namespace substruct {

/// R a rotation (det R = +1), S = RᵀA symmetric (positive definite when det A > 0).
struct PolarDecomposition {
  Mat3 R = Mat3::Identity();
  Mat3 S = Mat3::Identity();
};

/// A = R S. For det A > 0 (an interface that is not inverted), R is the closest rotation to A in
/// the Frobenius norm; otherwise R = U D Vᵀ from the SVD A = U Σ Vᵀ with D = diag(1, 1, det(UVᵀ))
/// (still a rotation; S is then symmetric but indefinite). Computed by scaled Newton iterations
/// R ← ½ (ζ R + ζ⁻¹ R⁻ᵀ) (three or four for an interface that deforms mostly rigidly), with the
/// SVD for det A ≤ 0, A nearly singular, or no convergence. Deterministic. Throws Error when A
/// is not finite.
PolarDecomposition polar_decomposition(const Mat3& A);

}  // namespace substruct
