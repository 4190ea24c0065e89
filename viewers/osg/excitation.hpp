// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The viewer's default excitation: a scene whose loads hold nothing but gravity would sit almost
// still (gravity sags the flower by a millimetre), and the methods compared side by side would
// look the same. Unless --pull, --drag or --still is given, the viewer pulls the first tracked
// vertex with the mouse spring, its anchor drawn in 0.3 s to a point a tenth of the object's size
// away across the object's thinner side in view, and lets go at 0.5 s: every method then swings
// freely from the same pulled state, at its own frequency and damping. (An anchor placed there at
// once would jerk the one vertex it pulls far within a step.)
#include <optional>

#include "substruct/core/types.hpp"
#include "substruct/sim/simulation.hpp"
#include "viewer_options.hpp"

namespace substruct::viewer {

struct Excitation {
  Index vertex = 0;
  Vec3 from = Vec3::Zero(), to = Vec3::Zero();  // the spring's anchor moves from → to [m]
  double ramp_time = 0;                         // [s] it takes to get there (a hand's drag)
  double release_time = 0;                      // [s] the spring lets go
  /// The anchor at time t: from `from` to `to` over the ramp, then held.
  Vec3 target(double t) const;
};

inline constexpr double kExcitationReach = 0.1;    // × the object's size
inline constexpr double kExcitationRamp = 0.3;     // [s]
inline constexpr double kExcitationSeconds = 0.5;  // [s] until it lets go

/// The scene's "up": against its gravity, +y without gravity.
Vec3 scene_up(const Simulation& sim);

/// The default excitation of `sim`'s scene: none when `options` pull (--pull), drag (--drag) or
/// keep it still (--still), or when the scene's [run] loads name a load other than gravity.
/// `up` is the scene's up (against gravity); the pull lies in the camera's view plane
/// (camera_framing.hpp): along up or along the side axis, whichever the object is thinner along.
std::optional<Excitation> default_excitation(const Simulation& sim, const ViewerOptions& options,
                                             const Vec3& up);

}  // namespace substruct::viewer
