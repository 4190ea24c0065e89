// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The penalty response of one surface vertex touching one obstacle: a normal spring, normal
/// damping and Coulomb friction as a tangential spring to an anchor that slides once the spring
/// force reaches μ times the normal force (framework/docs/contact.md). The force comes with its
/// derivative K = −∂f/∂x, for the implicit step of the method that receives it.
#include "substruct/contact/obstacle.hpp"
#include "substruct/core/types.hpp"

namespace substruct {

struct PenaltyParameters {
  double stiffness = 0;  // k: the vertex's normal and tangential spring [N/m]
  double damping = 0;    // c: the vertex's normal damping [N s/m]
  double friction = 0;   // μ
  double dt = 0;         // the step the derivative is for [s] (damping enters K as c/Δt)
};

/// Where a sticking vertex is held: a point in the obstacle's own frame (its translation
/// removed), set at first contact and dragged along while the vertex slides.
struct FrictionAnchor {
  bool set = false;
  Vec3 point = Vec3::Zero();
};

struct PenaltyResponse {
  Vec3 force = Vec3::Zero();           // on the vertex [N]
  Mat3 stiffness = Mat3::Zero();       // K = −∂f/∂x (+ c/Δt n nᵀ), symmetric [N/m]
  double penetration = 0;              // d = −distance ≥ 0 [m]
  double energy = 0;                   // ½ k d² + ½ k |s|², s the tangential stretch [J]
  bool sliding = false;
};

/// The response of a vertex at x (in the obstacle's frame) with `surface` its surface distance
/// there. Not in contact (distance ≥ 0): nothing, and the anchor is released. In contact, with
/// d = −distance and P = I − n nᵀ:
///   normal    f_n = k d n,                      K_n = k n nᵀ − k d ∂n/∂x + (c/Δt) n nᵀ
///   stick     f_t = −k s,  s = P (x − a),       K_t = k P            when k|s| ≤ μ k d
///   slide     f_t = −μ k d ŝ (a dragged to x − μ d ŝ),  K_t = k (P − ŝ ŝᵀ)  otherwise
/// The damping force is −c n·(x₊ − x)/Δt over the step: zero at x, it enters through K alone. The
/// sliding force's dependence on d (μ k ŝ nᵀ) is left out of K so that K stays symmetric.
PenaltyResponse penalty_response(const SurfaceDistance& surface, const Vec3& x,
                                 const PenaltyParameters& parameters, FrictionAnchor& anchor);

}  // namespace substruct
