// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The time-step limit of contact springs applied explicitly. A method that holds the contact
/// forces over its step and leaves their stiffness K out of it (coupling-elements, ddm,
/// spectral-hybrid: framework/docs/contact.md) integrates each surface vertex's damped penalty
/// spring explicitly; that is stable only for Δt ≤ 2 (√(1 + ζ²) − ζ) / ω, ω = √(k / m_v),
/// k = stiffness × A_v, ζ = [contact] damping. These methods refuse a scene beyond it, saying
/// which vertex sets the limit and what to change.
#include <string>

#include "substruct/config/contact_settings.hpp"
#include "substruct/core/types.hpp"

namespace substruct {

struct Scene;

/// The stiffest surface vertex's explicit limit.
struct ExplicitContactLimit {
  Index vertex = -1;         // -1: no obstacle, or no free surface vertex
  double max_dt = 0;         // the largest stable Δt at `stiffness` [s]
  double max_stiffness = 0;  // the largest stable [contact] stiffness at the run's Δt [Pa/m]
};

ExplicitContactLimit explicit_contact_limit(const ContactSettings& settings, const Scene& scene,
                                            double dt);

/// "" when `settings` has no obstacle or `dt` is within the limit; otherwise why `method` cannot
/// take the scene's contact, for CouplingMethod::check_scene.
std::string explicit_contact_refusal(const ContactSettings& settings, const Scene& scene, double dt,
                                     const std::string& method);

}  // namespace substruct
