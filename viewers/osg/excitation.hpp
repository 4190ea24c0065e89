// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The viewer's default excitation: a scene whose loads hold nothing but gravity would sit almost
// still (gravity sags the flower by a millimetre), and the methods compared side by side would
// look the same. Unless --pull, --drag or --still is given, the viewer pulls the first tracked
// vertex with the pull load, by half the object's weight, across the object's thinner side in
// view, and lets go at 0.5 s: every method then swings freely from the same pulled state, at its
// own frequency and damping (r starts it again, the pull acting from t = 0).
#include <optional>
#include <string>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/sim/simulation.hpp"
#include "viewer_options.hpp"

namespace substruct::viewer {

struct Excitation {
  Index vertex = 0;
  Vec3 force = Vec3::Zero();  // [N], from t = 0 until release_time
  double release_time = 0;    // [s]
};

inline constexpr double kExcitationWeight = 0.5;   // the force over the object's weight
inline constexpr double kExcitationSeconds = 0.5;  // [s] until it lets go

/// The scene's "up": against its gravity, +y without gravity.
Vec3 scene_up(const Simulation& sim);

/// The mass of the scene's object [kg]: its tets' volumes times their densities.
double object_mass(const Scene& scene);

/// The default excitation of `sim`'s scene: none when `options` pull (--pull), drag (--drag) or
/// keep it still (--still), or when the scene's [run] loads name a load other than gravity.
/// The force is half the object's weight (under the scene's gravity, else 9.81 m/s²); it lies in
/// the camera's view plane (camera_framing.hpp): along up or along the side axis, whichever the
/// object is thinner along (a beam lying along the side axis is lifted, a stem bent sideways).
std::optional<Excitation> default_excitation(const Simulation& sim, const ViewerOptions& options);

/// The [pull] settings of `e`, as overrides: "--pull.vertices=…", "--pull.force=…", "--pull.end=…".
std::vector<std::string> pull_overrides(const Excitation& e);

}  // namespace substruct::viewer
