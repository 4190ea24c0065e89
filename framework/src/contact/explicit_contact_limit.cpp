// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/contact/explicit_contact_limit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "substruct/fem/mass.hpp"
#include "substruct/scene/scene.hpp"

#include "detail/surface_area_shares.hpp"

namespace substruct {

ExplicitContactLimit explicit_contact_limit(const ContactSettings& settings, const Scene& scene,
                                            double dt) {
  ExplicitContactLimit limit;
  if (!has_obstacles(settings)) return limit;
  const std::vector<double> area = detail::surface_area_shares(scene.mesh);
  const Eigen::VectorXd mass = lumped_vertex_mass(scene.mesh);
  // A damped oscillator x'' + 2ζω x' + ω² x = 0 stepped explicitly (the force held over the
  // step) is stable for ω Δt ≤ 2 (√(1 + ζ²) − ζ); ω² = k / m with k = stiffness × A_v.
  const double zeta = settings.damping;
  const double omega_dt_max = 2 * (std::sqrt(1 + zeta * zeta) - zeta);
  double worst = 0;  // the largest A_v / m_v
  for (Index v = 0; v < scene.mesh.num_vertices(); ++v) {
    const auto i = static_cast<std::size_t>(v);
    if (area[i] <= 0 || !(mass[v] > 0)) continue;
    if (std::binary_search(scene.fixed_vertices.begin(), scene.fixed_vertices.end(), v)) continue;
    const double ratio = area[i] / mass[v];
    if (ratio > worst) {
      worst = ratio;
      limit.vertex = v;
    }
  }
  if (limit.vertex < 0) return limit;
  // ω = √(stiffness · A_v / m_v): Δt_max = c / ω, stiffness_max = (c / Δt)² m_v / A_v.
  limit.max_dt = omega_dt_max / std::sqrt(settings.stiffness * worst);
  limit.max_stiffness = omega_dt_max * omega_dt_max / (dt * dt * worst);
  return limit;
}

std::string explicit_contact_refusal(const ContactSettings& settings, const Scene& scene, double dt,
                                     const std::string& method) {
  const ExplicitContactLimit limit = explicit_contact_limit(settings, scene, dt);
  if (limit.vertex < 0 || dt <= limit.max_dt) return "";
  return fmt::format(
      "{} applies the [contact] forces explicitly (their stiffness is not in its step), and at "
      "[contact] stiffness = {:g} Pa/m the spring of surface vertex {} is stable only for "
      "dt ≤ {:.3g} s (the run's dt is {:g} s): lower [contact] stiffness to ≤ {:.3g} Pa/m (more "
      "penetration) or [run] dt, or use coupling.plugin = full, which takes contact implicitly",
      method, settings.stiffness, limit.vertex, limit.max_dt, dt, limit.max_stiffness);
}

}  // namespace substruct
