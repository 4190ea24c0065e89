// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The 3×3 kernels of modal warping (Choi & Ko 2005; Yang et al. 2010, §"Modal warping",
/// Eq. 5–7). A node's rotation vector w (axis w/|w|, angle θ = |w|) comes from the reduced
/// coordinates through the modal rotation matrix, w = Ψ q (Eq. 5, fem/modal_rotation_operator.hpp),
/// and its linear displacement (Φ q)_a is turned by the integrated rotation R̃(w) (Eq. 7):
///   u_a = R̃(w_a) (Φ q)_a.
/// For a rotation mode Φ = a × (X − c) with Ψ = a this is the rigid rotation exactly:
/// X + R̃(θa) θ â (X − c) = exp(θ â)(X − c) + c, since R̃(w) ŵ = exp(ŵ) − I.
///
/// All three are exact closed forms with alternating Taylor series for θ < 1 (no division by a
/// vanishing angle; both branches agree to round-off at the switch).
#include "substruct/core/types.hpp"

namespace substruct {

/// R(w) = exp(ŵ) = I + (sin θ/θ) ŵ + ((1 − cos θ)/θ²) ŵ² (Rodrigues), θ = |w|.
Mat3 rotation_from_vector(const Vec3& w);

/// R̃(w) = ∫₀¹ exp(s ŵ) ds = I + ((1 − cos θ)/θ²) ŵ + ((θ − sin θ)/θ³) ŵ², θ = |w|
/// (Choi & Ko's R̃; R̃(0) = I). It commutes with ŵ and R̃(w) ŵ = exp(ŵ) − I.
Mat3 integrated_rotation(const Vec3& w);

/// The rate of R̃ along a path w(t): d/dt R̃(w(t)) = DR̃(w)[ẇ], with β = (1 − cos θ)/θ²,
/// γ = (θ − sin θ)/θ³ and θ̇ = w·ẇ/θ:
///   DR̃(w)[ẇ] = β ŵ̇ + γ (ŵ̇ ŵ + ŵ ŵ̇) + (w·ẇ) ((β′/θ) ŵ + (γ′/θ) ŵ²),
///   β′/θ = (sin θ/θ − 2β)/θ²,  γ′/θ = (β − 3γ)/θ².
Mat3 integrated_rotation_derivative(const Vec3& w, const Vec3& wdot);

/// R̃(w) and DR̃(w)[ẇ] together (one evaluation of the coefficients), as the two above.
void integrated_rotation_and_rate(const Vec3& w, const Vec3& wdot, Mat3& R, Mat3& dR);

// The same maps applied to a vector without forming a matrix (the per-vertex work of every
// step: cross products instead of 3×3 products), equal to the matrix forms to round-off:

/// R(w)ᵀ f = f − α (w × f) + β (w × (w × f)): a force turned into the node's rest frame (Eq. 6).
Vec3 rotate_back(const Vec3& w, const Vec3& f);

/// R̃(w) y = y + β (w × y) + γ (w × (w × y)): the warped displacement of Eq. 7.
Vec3 warp(const Vec3& w, const Vec3& y);

/// u = R̃(w) y (bit for bit warp(w, y)) and its rate u̇ = R̃(w) ẏ + DR̃(w)[ẇ] y, where
/// DR̃(w)[ẇ] y = β (ẇ × y) + γ (ẇ × (w × y) + w × (ẇ × y)) + (w·ẇ) (β′/θ (w × y) + γ′/θ (w × (w ×
/// y))).
void warp_with_rate(const Vec3& w, const Vec3& wdot, const Vec3& y, const Vec3& ydot, Vec3& u,
                    Vec3& udot);

}  // namespace substruct
