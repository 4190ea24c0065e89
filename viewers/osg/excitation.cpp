// SPDX-License-Identifier: GPL-3.0-or-later
#include "excitation.hpp"

#include <string>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/mass.hpp"

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

double object_mass(const Scene& scene) {
  return lumped_vertex_mass(scene.mesh).sum();  // Σ_e ρ_e V_e
}

std::optional<Excitation> default_excitation(const Simulation& sim, const ViewerOptions& options) {
  if (options.pull || options.drag || options.still) return std::nullopt;
  bool gravity = false;
  for (const std::string& load : run_options().read(sim.config()).loads) {
    if (load != "gravity") return std::nullopt;
    gravity = true;
  }
  const Scene& scene = sim.scene();
  if (scene.tracked_vertices.empty() || scene.mesh.num_vertices() == 0) return std::nullopt;
  const Vec3 extent =
      (scene.mesh.vertices.colwise().maxCoeff() - scene.mesh.vertices.colwise().minCoeff())
          .transpose();
  // The axes as frame_box() sees them: up's, the view axis (the thinner of the other two) and the
  // side axis (the thicker), the last two in the view plane with up.
  const Vec3 up = scene_up(sim);
  Eigen::Index up_axis = 0;
  up.cwiseAbs().maxCoeff(&up_axis);
  const Eigen::Index a = (up_axis + 1) % 3, b = (up_axis + 2) % 3;
  const Eigen::Index side_axis = extent[a] <= extent[b] ? b : a;
  const Vec3 direction = extent[up_axis] <= extent[side_axis] ? up : Vec3(Vec3::Unit(side_axis));
  double g = 9.81;
  if (gravity && sim.config().has("gravity.acceleration")) {
    try {
      if (const double n = sim.config().vec3("gravity.acceleration").norm(); n > 0) g = n;
    } catch (const Error&) {
    }
  }
  Excitation e;
  e.vertex = scene.tracked_vertices.front();
  e.force = kExcitationWeight * object_mass(scene) * g * direction;
  e.release_time = kExcitationSeconds;
  return e;
}

std::vector<std::string> pull_overrides(const Excitation& e) {
  return {fmt::format("--pull.vertices={}", e.vertex),
          fmt::format("--pull.force={:.9g} {:.9g} {:.9g}", e.force.x(), e.force.y(), e.force.z()),
          fmt::format("--pull.start=0"), fmt::format("--pull.end={:.9g}", e.release_time)};
}

}  // namespace substruct::viewer
