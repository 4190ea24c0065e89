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
/// removed), set at first contact and dragged along while the vertex slides; kept while the
/// vertex is out of contact for one evaluation, released at the second.
struct FrictionAnchor {
  bool set = false;
  Vec3 point = Vec3::Zero();
  int away = 0;  // consecutive evaluations the vertex was outside with the anchor set
};

struct PenaltyResponse {
  bool active = false;            // a force and stiffness to apply (touching or arriving)
  Vec3 force = Vec3::Zero();      // on the vertex [N]
  Mat3 stiffness = Mat3::Zero();  // K = −∂f/∂x (+ c/Δt n nᵀ), symmetric [N/m]
  double penetration = 0;         // max(d, 0), d = −distance [m]
  double energy = 0;  // ½ k d² + ½ k |s|² when touching, s the tangential stretch [J]
  bool sliding = false;
};

/// The response of a vertex at x with velocity v (both in the obstacle's frame, v relative to
/// it), `surface` its surface distance there. With d = −distance and P = I − n nᵀ:
///   normal    f_n = k d n,                      K_n = k n nᵀ − k d ∂n/∂x + (c/Δt) n nᵀ
///   stick     f_t = −k s,  s = P (x − a),       K_t = k P            when k|s| ≤ μ k d
///   slide     f_t = −μ k d ŝ (a dragged to x − μ d ŝ),  K_t = k (P − ŝ ŝᵀ)  otherwise,
///   held      f_t = −μ k d ŝ (a dragged likewise),      K_t = k P   if ŝ·P v < 0
/// for a vertex inside (d > 0). A vertex outside that its velocity brings inside within the step
/// (distance + Δt n·v < 0: arriving) gets the normal terms alone, with d < 0: over the step its
/// force f_n − K_n (x₊ − x) is then the spring's at x₊, so that it does not cross a whole step
/// unopposed (framework/docs/contact.md). Otherwise nothing (the anchor is released when the
/// vertex is out at a second evaluation in a row). A vertex beyond the limit that moves back
/// towards its anchor (ŝ·P v < 0) is held, not slid: friction never pushes along the motion. The
/// damping force is −c n·(x₊ − x)/Δt over the step: zero at x, it enters through K alone. The
/// sliding force's dependence on d (μ k ŝ nᵀ) is left out of K so that K stays symmetric.
PenaltyResponse penalty_response(const SurfaceDistance& surface, const Vec3& x, const Vec3& v,
                                 const PenaltyParameters& parameters, FrictionAnchor& anchor);

}  // namespace substruct
