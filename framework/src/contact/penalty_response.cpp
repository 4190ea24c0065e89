// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/contact/penalty_response.hpp"

namespace substruct {

PenaltyResponse penalty_response(const SurfaceDistance& surface, const Vec3& x, const Vec3& v,
                                 const PenaltyParameters& p, FrictionAnchor& anchor) {
  PenaltyResponse r;
  const Vec3& n = surface.normal;
  const bool inside = surface.distance < 0;
  // Twice the step's motion at v: what the step's accelerations add on top (gravity's g Δt² at
  // rest's edge) is covered up to 2 |v|/Δt. A vertex on the surface and not leaving it (an
  // object placed on the ground at rest) is arriving: its spring is in the step from the start.
  const bool arriving = !inside && (surface.distance + 2 * p.dt * n.dot(v) < 0 ||
                                    (surface.distance == 0 && n.dot(v) <= 0));
  // A vertex out for one evaluation keeps its anchor: one that chatters on the surface (the
  // uphill edge of a sliding block, out every other step) would otherwise grip again at s = 0
  // each time it returns and hold the whole block. Out for a second evaluation: released.
  if (inside)
    anchor.away = 0;
  else if (anchor.set && ++anchor.away > 1)
    anchor = FrictionAnchor{};
  if (!inside && !arriving) return r;
  const double k = p.stiffness;
  const double d = -surface.distance;  // < 0 when arriving
  const Mat3 nn = n * n.transpose();
  r.active = true;
  // Normal: f_n = k d n, −∂f_n/∂x = k n nᵀ − k d ∂n/∂x (∂d/∂x = −nᵀ).
  r.force = k * d * n;
  r.stiffness = k * nn - (k * d) * surface.curvature;
  if (p.damping > 0 && p.dt > 0) r.stiffness += (p.damping / p.dt) * nn;
  if (!inside) return r;
  r.penetration = d;
  r.energy = 0.5 * k * d * d;
  if (p.friction <= 0) {
    anchor.set = false;
    return r;
  }
  const Mat3 P = Mat3::Identity() - nn;
  if (!anchor.set) {  // first contact: held where it touched
    anchor.point = x;
    anchor.set = true;
  }
  const Vec3 s = P * (x - anchor.point);  // the tangential stretch of the friction spring
  const double limit = p.friction * d;    // |s| at which k|s| = μ k d
  const double stretch = s.norm();
  if (stretch <= limit) {
    r.force -= k * s;
    r.stiffness += k * P;
    r.energy += 0.5 * k * s.squaredNorm();
    return r;
  }
  const Vec3 slip = s / stretch;
  const double limit_energy = 0.5 * k * limit * limit;
  if (slip.dot(P * v) < 0) {
    // Beyond the limit but moving back towards the anchor (it stopped or turned within the last
    // step, or returns from a lift-off): sliding friction −μ k d ŝ would push it along its motion
    // and gain energy. It sticks to the anchor dragged to μ d behind it: −k s, |s| = μ d.
    anchor.point = x - limit * slip;
    r.force -= k * limit * slip;
    r.stiffness += k * P;
    r.energy += limit_energy;
    return r;
  }
  // Sliding: the anchor is dragged so that the spring pulls with μ f_n, against the slip.
  anchor.point += (stretch - limit) * slip;
  r.force -= k * limit * slip;
  r.stiffness += k * (P - slip * slip.transpose());
  r.energy += limit_energy;
  r.sliding = true;
  return r;
}

}  // namespace substruct
