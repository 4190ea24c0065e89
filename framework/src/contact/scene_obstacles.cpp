// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/contact/scene_obstacles.hpp"

#include "substruct/contact/mesh_obstacle.hpp"

#include <string>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/config/contact_settings.hpp"
#include "substruct/core/error.hpp"

namespace substruct {
namespace {

// The shapes of one option: `per` numbers each; throws naming the option otherwise.
std::size_t shape_count(const Config& config, const std::string& key,
                        const std::vector<double>& numbers, std::size_t per, const char* layout) {
  if (numbers.size() % per != 0)
    throw config.value_error(key, fmt::format("expected {} numbers per shape ({}), got {}", per,
                                              layout, numbers.size()));
  return numbers.size() / per;
}

Vec3 vec(const std::vector<double>& x, std::size_t at) {
  return {x[at], x[at + 1], x[at + 2]};
}

}  // namespace

std::vector<Obstacle> scene_obstacles(const Config& config) {
  const ContactSettings s = contact_options().read(config);
  std::vector<Obstacle> obstacles;
  if (!s.ground.empty()) {
    if (s.ground.size() != 4)
      throw config.value_error(
          "contact.ground",
          fmt::format("expected four numbers NX NY NZ D, got {}", s.ground.size()));
    const Vec3 n = vec(s.ground, 0);
    const double length = n.norm();
    if (!(length > 0))
      throw config.value_error("contact.ground", "the normal (NX NY NZ) has zero length");
    Obstacle ground;
    ground.name = "ground";
    ground.shape = ObstacleShape::plane;
    ground.a = n / length;
    ground.size = s.ground[3] / length;
    obstacles.push_back(ground);
  }
  for (std::size_t i = 0, n = shape_count(config, "contact.spheres", s.spheres, 4, "CX CY CZ R");
       i < n; ++i) {
    Obstacle o;
    o.name = fmt::format("sphere{}", i + 1);
    o.shape = ObstacleShape::sphere;
    o.a = vec(s.spheres, 4 * i);
    o.size = s.spheres[4 * i + 3];
    if (!(o.size > 0))
      throw config.value_error("contact.spheres",
                               fmt::format("{} has radius {}, expected > 0", o.name, o.size));
    obstacles.push_back(o);
  }
  for (std::size_t i = 0, n = shape_count(config, "contact.capsules", s.capsules, 7,
                                          "AX AY AZ BX BY BZ R");
       i < n; ++i) {
    Obstacle o;
    o.name = fmt::format("capsule{}", i + 1);
    o.shape = ObstacleShape::capsule;
    o.a = vec(s.capsules, 7 * i);
    o.b = vec(s.capsules, 7 * i + 3);
    o.size = s.capsules[7 * i + 6];
    if (!(o.size > 0))
      throw config.value_error("contact.capsules",
                               fmt::format("{} has radius {}, expected > 0", o.name, o.size));
    obstacles.push_back(o);
  }
  for (std::size_t i = 0, n = shape_count(config, "contact.boxes", s.boxes, 6, "CX CY CZ HX HY HZ");
       i < n; ++i) {
    Obstacle o;
    o.name = fmt::format("box{}", i + 1);
    o.shape = ObstacleShape::box;
    o.a = vec(s.boxes, 6 * i);
    o.b = vec(s.boxes, 6 * i + 3);
    if (!(o.b.minCoeff() > 0))
      throw config.value_error(
          "contact.boxes", fmt::format("{} has half extents {} {} {}, expected each > 0", o.name,
                                       o.b.x(), o.b.y(), o.b.z()));
    obstacles.push_back(o);
  }
  if (!s.mesh.empty()) {
    MeshObstacleRequest request;
    request.file = s.mesh;
    request.voxel = s.mesh_voxel;
    if (!s.mesh_placement.empty()) {
      if (s.mesh_placement.size() != 4)
        throw config.value_error(
            "contact.mesh_placement",
            fmt::format("expected four numbers SCALE TX TY TZ, got {}", s.mesh_placement.size()));
      request.scale = s.mesh_placement[0];
      request.offset = vec(s.mesh_placement, 1);
      if (!(request.scale > 0))
        throw config.value_error("contact.mesh_placement",
                                 fmt::format("the scale {} is not > 0", request.scale));
    }
    Obstacle o;
    o.name = "mesh1";
    o.shape = ObstacleShape::mesh;
    try {
      o.grid = mesh_distance_grid(request);
    } catch (const Error& e) {
      throw config.value_error("contact.mesh", e.what());
    }
    obstacles.push_back(o);
  }
  std::vector<std::pair<std::string, KeyframeTrack>> tracks;
  try {
    tracks = parse_keyframe_tracks(s.keyframes);
  } catch (const Error& e) {
    throw config.value_error("contact.keyframes", e.what());
  }
  for (auto& [name, track] : tracks) {
    Obstacle* target = nullptr;
    for (Obstacle& o : obstacles)
      if (o.name == name) target = &o;
    if (target == nullptr) {
      std::string known;
      for (const Obstacle& o : obstacles) known += (known.empty() ? "" : ", ") + o.name;
      throw config.value_error("contact.keyframes",
                               fmt::format("track '{}' names no obstacle (the scene has {})", name,
                                           known.empty() ? std::string("none") : known));
    }
    target->track = std::move(track);
  }
  return obstacles;
}

}  // namespace substruct
