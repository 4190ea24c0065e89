// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The tests of the polar decomposition's Newton iteration and of its derivative's singular G,
// shared by the one-interface functions and the four-lane batch, so that every lane stops
// where polar_decomposition and polar_rotation_rates do.

namespace substruct::detail {

// Newton's iteration for the orthogonal polar factor (Higham, "Computing the polar
// decomposition — with applications", 1986): X ← ½ (ζ X + ζ⁻¹ X⁻ᵀ), with the Frobenius-norm
// scaling ζ = (‖X⁻¹‖_F / ‖X‖_F)^½ while far from convergence. Quadratic convergence: once an
// update is below kPolarUpdateTolerance, the next iterate is orthogonal to rounding (its error
// is about half the update squared), so that one is returned.
constexpr int kPolarMaxIterations = 24;
constexpr double kPolarUpdateTolerance = 1e-8;  // ‖X_{k+1} − X_k‖_F
constexpr double kPolarScalingOff = 1e-2;       // no scaling once an update is this small
// det A ≤ this × ‖A‖_F³: too close to singular for Newton; the SVD decides.
constexpr double kNewtonMinDeterminant = 1e-14;
// |det K| ≤ this × ‖K‖_F³: K = tr(S) I − S (G = K Rᵀ) is singular to working precision.
constexpr double kSingularDeterminant = 1e-12;

}  // namespace substruct::detail
