// SPDX-License-Identifier: GPL-3.0-or-later
#include "excitation.hpp"

#include <algorithm>
#include <string>

#include "substruct/config/config.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/core/error.hpp"

namespace substruct::viewer {

Vec3 scene_up(const Simulation& sim) {
  if (sim.config().has("gravity.acceleration")) {
    try {
      const Vec3 g = sim.config().vec3("gravity.acceleration");
      if (g.norm() > 0) return -g.normalized();
    } catch (const Error&) {
    }
  }
  return Vec3::UnitY();
}

std::optional<Excitation> default_excitation(const Simulation& sim, const ViewerOptions& options,
                                             const Vec3& up) {
  if (options.pull || options.drag || options.still) return std::nullopt;
  for (const std::string& load : run_options().read(sim.config()).loads)
    if (load != "gravity") return std::nullopt;
  const Scene& scene = sim.scene();
  if (scene.tracked_vertices.empty() || scene.mesh.num_vertices() == 0) return std::nullopt;
  const Vec3 extent =
      (scene.mesh.vertices.colwise().maxCoeff() - scene.mesh.vertices.colwise().minCoeff())
          .transpose();
  // The axes as frame_box() sees them: up's, the view axis (the thinner of the other two) and the
  // side axis (the thicker), the last two in the view plane with up.
  Eigen::Index up_axis = 0;
  up.cwiseAbs().maxCoeff(&up_axis);
  const Eigen::Index a = (up_axis + 1) % 3, b = (up_axis + 2) % 3;
  const Eigen::Index side_axis = extent[a] <= extent[b] ? b : a;
  // Across the thinner of the two: a beam lying along the side axis bends up, a stem standing
  // along up bends sideways.
  const Vec3 direction =
      extent[up_axis] <= extent[side_axis] ? Vec3(up.normalized()) : Vec3(Vec3::Unit(side_axis));
  Excitation e;
  e.vertex = scene.tracked_vertices.front();
  e.from = scene.mesh.vertices.row(e.vertex).transpose();
  e.to = e.from + kExcitationReach * scene.size() * direction;
  e.ramp_time = kExcitationRamp;
  e.release_time = kExcitationSeconds;
  return e;
}

Vec3 Excitation::target(double t) const {
  const double s = ramp_time > 0 ? std::clamp(t / ramp_time, 0.0, 1.0) : 1.0;
  return from + s * (to - from);
}

}  // namespace substruct::viewer
