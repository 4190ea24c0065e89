// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The obstacles a config's [contact] section declares, checked: named ground, sphere1 …,
/// capsule1 …, box1 …, mesh1 in that order, each with its keyframe track.
#include <vector>

#include "substruct/contact/obstacle.hpp"

namespace substruct {

class Config;

/// Throws the config's error naming the option (contact.ground, contact.spheres …,
/// contact.keyframes) for a count of numbers that is not whole shapes, a ground normal of zero
/// length, a radius or half extent that is not > 0, a track not strictly increasing in time or
/// a track for an obstacle that does not exist, and the mesh's errors
/// (contact/mesh_obstacle.hpp) under contact.mesh.
std::vector<Obstacle> scene_obstacles(const Config& config);

}  // namespace substruct
