// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The [contact] section: the obstacles the object's surface touches (a ground plane, spheres,
/// capsules, axis-aligned boxes; fixed or keyframed) and the penalty response's stiffness,
/// damping, friction and tolerance. The physics and its limits: framework/docs/contact.md.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "substruct/options/options.hpp"

namespace substruct {

struct ContactSettings {
  std::vector<double> ground;    // NX NY NZ D: the plane n·x = D, the object where n·x > D
  std::vector<double> spheres;   // CX CY CZ R per sphere
  std::vector<double> capsules;  // AX AY AZ BX BY BZ R per capsule (segment AB, radius R)
  std::vector<double> boxes;     // CX CY CZ HX HY HZ per box (centre, half extents, world axes)
  std::filesystem::path mesh;    // a closed triangle surface: its signed distance field
  std::vector<double> mesh_placement;  // SCALE TX TY TZ: world = SCALE × file + T
  double mesh_voxel = 0;    // [m] the field's sample spacing; 0: 1/64 of the longest side
  std::string keyframes;    // "NAME T X Y Z T X Y Z …; NAME …": translations over time
  double stiffness = 1e8;   // [Pa/m]: contact pressure per metre of penetration
  double damping = 0.5;     // ratio of a surface vertex's critical damping, normal only
  double friction = 0.5;    // Coulomb coefficient μ (static = sliding)
  double tolerance = 1e-3;  // [m] the penetration the run is expected to stay within
};

const OptionSet<ContactSettings>& contact_options();

/// Whether [contact] declares any obstacle.
bool has_obstacles(const ContactSettings& settings);

/// The warning for taking contact with Newmark γ below 0.55 (`section`'s newmark_gamma): the
/// trapezoidal rule (γ = ½) does not damp the contact springs' ω Δt ≫ 1, so they ring, and as
/// contacts open and close within a step the run gains energy (framework/docs/contact.md).
/// Empty when [contact] has no obstacle or γ ≥ 0.55.
std::string trapezoidal_contact_warning(const ContactSettings& settings, std::string_view section,
                                        double newmark_gamma);

}  // namespace substruct
