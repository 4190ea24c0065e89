// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/contact/contact_service.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "substruct/config/config.hpp"
#include "substruct/config/contact_settings.hpp"
#include "substruct/contact/scene_obstacles.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/scene/scene.hpp"

#include "detail/surface_area_shares.hpp"

namespace substruct {

ContactService::ContactService(const Config& config, const Scene& scene)
    : obstacles_(scene_obstacles(config)) {
  const ContactSettings settings = contact_options().read(config);
  friction_ = settings.friction;
  tolerance_ = settings.tolerance;
  if (obstacles_.empty()) return;
  // A boundary triangle's area goes to its corners in thirds: the vertex's share A_v.
  const std::vector<double> area = detail::surface_area_shares(scene.mesh);
  const Eigen::VectorXd mass = lumped_vertex_mass(scene.mesh);
  for (Index v = 0; v < scene.mesh.num_vertices(); ++v) {
    const auto i = static_cast<std::size_t>(v);
    if (area[i] <= 0) continue;
    if (std::binary_search(scene.fixed_vertices.begin(), scene.fixed_vertices.end(), v)) continue;
    const double k = settings.stiffness * area[i];
    vertices_.push_back(v);
    stiffness_.push_back(k);
    damping_.push_back(settings.damping * 2 * std::sqrt(k * mass[v]));
  }
  anchors_.assign(vertices_.size() * obstacles_.size(), FrictionAnchor{});
}

void ContactService::check_clear(const Points& positions, double time) const {
  for (const Obstacle& o : obstacles_) {
    const Vec3 offset = o.track.offset(time);
    for (const Index v : vertices_) {
      const double depth = -surface_distance(o, positions.row(v).transpose(), offset).distance;
      if (depth > tolerance_)
        throw Error(fmt::format(
            "[contact] the {} '{}' starts {:.3g} m inside the object at vertex {} (more than "
            "[contact] tolerance = {:g} m): move the obstacle ({}) or the object",
            to_string(o.shape), o.name, depth, v, tolerance_,
            o.shape == ObstacleShape::plane ? "contact.ground" : "its option or keyframes"));
    }
  }
}

void ContactService::reset() {
  std::fill(anchors_.begin(), anchors_.end(), FrictionAnchor{});
  stats_ = {};
  last_contacts_ = 0;
  touching_.clear();
}

double ContactService::energy_at(const Points& positions, double time) const {
  double energy = 0;
  const std::size_t count = obstacles_.size();
  for (std::size_t o = 0; o < count; ++o) {
    const Vec3 offset = obstacles_[o].track.offset(time);
    for (std::size_t i = 0; i < vertices_.size(); ++i) {
      const Vec3 x = positions.row(vertices_[i]).transpose() - offset;
      const SurfaceDistance surface = surface_distance(obstacles_[o], x);
      if (surface.distance >= 0) continue;
      const double k = stiffness_[i], d = -surface.distance;
      energy += 0.5 * k * d * d;
      const FrictionAnchor& anchor = anchors_[i * count + o];
      if (!anchor.set || friction_ <= 0) continue;
      const Vec3 s = x - anchor.point;
      const double stretch =
          std::min((s - s.dot(surface.normal) * surface.normal).norm(), friction_ * d);
      energy += 0.5 * k * stretch * stretch;
    }
  }
  return energy;
}

void ContactService::accumulate(double time, double dt, const Points& positions,
                                const Points& velocities, ExternalForces& forces) {
  if (obstacles_.empty()) return;
  const auto start = Clock::now();
  long contacts = 0, sliding = 0, arriving = 0;
  touching_.clear();
  const std::size_t count = obstacles_.size();
  // The obstacles' translations now and at the step's end, their motion Δo over the step.
  std::vector<Vec3> offset(count), motion(count);
  for (std::size_t o = 0; o < count; ++o) {
    offset[o] = obstacles_[o].track.offset(time);
    motion[o] = obstacles_[o].track.offset(time + dt) - offset[o];
  }
  for (std::size_t i = 0; i < vertices_.size(); ++i) {
    const Index v = vertices_[i];
    const Vec3 x = positions.row(v).transpose();
    const Vec3 xdot = velocities.row(v).transpose();
    const PenaltyParameters p{stiffness_[i], damping_[i], friction_, dt};
    Vec3 force = Vec3::Zero();
    Mat3 K = Mat3::Zero();
    bool touching = false;
    for (std::size_t o = 0; o < count; ++o) {
      const Vec3 local = x - offset[o];  // in the obstacle's frame
      const SurfaceDistance surface = surface_distance(obstacles_[o], local);
      const PenaltyResponse r =
          penalty_response(surface, local, xdot - motion[o] / dt, p, anchors_[i * count + o]);
      if (!r.active) continue;
      touching = true;
      if (r.penetration > 0)
        ++contacts;
      else
        ++arriving;
      if (r.sliding) ++sliding;
      force += r.force + r.stiffness * motion[o];  // f(x₊, o₊) ≈ f − K (Δx − Δo)
      K += r.stiffness;
      if (r.penetration > stats_.max_penetration) {
        stats_.max_penetration = r.penetration;
        stats_.deepest_vertex = v;
      }
    }
    if (!touching) continue;
    touching_.push_back(v);
    forces.point_forces.push_back({v, force});
    forces.point_stiffness.push_back({v, K});
  }
  last_contacts_ = contacts;
  ++stats_.evaluations;
  stats_.contacts += contacts;
  stats_.sliding += sliding;
  stats_.arriving += arriving;
  stats_.max_contacts = std::max(stats_.max_contacts, contacts);
  stats_.seconds += seconds_since(start);
}

}  // namespace substruct
