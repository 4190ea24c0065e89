// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/contact_settings.hpp"

#include <fmt/format.h>

namespace substruct {

const OptionSet<ContactSettings>& contact_options() {
  using S = ContactSettings;
  static const auto options =
      OptionSet<S>("contact", "obstacles and the penalty contact response")
          .numbers("ground", &S::ground, "",
                   "ground plane NX NY NZ D: the plane n·x = D [m], the object on the side "
                   "n·x > D (n need not be of unit length; empty: no ground)")
          .numbers("spheres", &S::spheres, "m",
                   "spheres, four numbers each: CX CY CZ R (centre, radius > 0)")
          .numbers("capsules", &S::capsules, "m",
                   "capsules, seven numbers each: AX AY AZ BX BY BZ R (the segment AB swept by "
                   "a ball of radius R > 0)")
          .numbers("boxes", &S::boxes, "m",
                   "axis-aligned boxes, six numbers each: CX CY CZ HX HY HZ (centre, half "
                   "extents > 0)")
          .path("mesh", &S::mesh,
                "a triangle-mesh obstacle: a closed surface in any format the import reads (OBJ, "
                "STL, PLY, OFF, glTF, …), as its signed distance field (OpenVDB); named mesh1")
          .numbers("mesh_placement", &S::mesh_placement, "",
                   "SCALE TX TY TZ: the mesh's coordinates × SCALE (> 0) + (TX TY TZ) [m] "
                   "(empty: as in the file)")
          .number("mesh_voxel", &S::mesh_voxel, "m",
                  "the mesh's distance field sample spacing (0: 1/64 of its longest side); "
                  "a surface feature smaller than about two samples is rounded off",
                  in_range(0, 1e6))
          .text("keyframes", &S::keyframes,
                "obstacle motion: NAME T X Y Z T X Y Z … with NAME ground, sphere1, capsule2, "
                "box1, mesh1 …; each obstacle moved by the translation (X Y Z) [m], linear between "
                "times T [s] strictly increasing, held before the first and after the last; "
                "tracks separated by ';'")
          .number("stiffness", &S::stiffness, "Pa/m",
                  "penalty stiffness: contact pressure per metre of penetration (a surface "
                  "vertex's spring is this times its share of the surface area)",
                  in_range(1, 1e15))
          .number("damping", &S::damping, "",
                  "normal damping as a ratio of a surface vertex's critical damping "
                  "2√(k m); only dissipates",
                  in_range(0, 10))
          .number("friction", &S::friction, "",
                  "Coulomb friction coefficient μ, static and sliding (0: frictionless)",
                  in_range(0, 10))
          .number("tolerance", &S::tolerance, "m",
                  "penetration allowed: an obstacle deeper than this in the object at the start "
                  "is an error, a run that exceeds it is warned about",
                  positive);
  return options;
}

bool has_obstacles(const ContactSettings& s) {
  return !s.ground.empty() || !s.spheres.empty() || !s.capsules.empty() || !s.boxes.empty() ||
         !s.mesh.empty();
}

// 0.55: the smallest γ measured without an energy gain on the block's drop (0.55 and 0.6; at
// ½ the drop gains 12 J under inertia, and full's trapezoidal rule chatters likewise).
std::string trapezoidal_contact_warning(const ContactSettings& s, std::string_view section,
                                        double newmark_gamma) {
  if (!has_obstacles(s) || newmark_gamma >= 0.55) return {};
  return fmt::format(
      "[{0}] newmark_gamma = {1:g} with [contact] obstacles: the trapezoidal rule (γ = ½) does "
      "not damp the contact springs, which ring and gain energy as contacts open and close; "
      "set --{0}.newmark_gamma=0.55 or more",
      section, newmark_gamma);
}

}  // namespace substruct
