// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The shapes a surface vertex may touch, and their signed distance: a plane, a sphere, a
/// capsule, an axis-aligned box and a closed triangle mesh (its sampled distance field), each
/// translated over time by its keyframe track.
#include <memory>
#include <string>

#include "substruct/contact/keyframe_track.hpp"
#include "substruct/core/types.hpp"

namespace substruct {

enum class ObstacleShape { plane, sphere, capsule, box, mesh };

struct DistanceGrid;

struct Obstacle {
  std::string name;  // as [contact] keyframes names it: ground, sphere1, capsule2, box1 …
  ObstacleShape shape = ObstacleShape::plane;
  Vec3 a = Vec3::Zero();  // plane: unit normal n; sphere, box: centre; capsule: end A
  Vec3 b = Vec3::Zero();  // capsule: end B; box: half extents
  double size = 0;        // plane: offset D of n·x = D; sphere, capsule: radius
  std::shared_ptr<const DistanceGrid> grid;  // mesh: its signed distance field
  KeyframeTrack track;                       // translation over time (empty: fixed)
};

/// Where a point is with respect to an obstacle's surface.
struct SurfaceDistance {
  double distance = 0;            // signed: > 0 outside, < 0 inside [m]
  Vec3 normal = Vec3::UnitZ();    // outward unit normal of the nearest surface point
  Mat3 curvature = Mat3::Zero();  // ∂n/∂x, symmetric (zero on a plane or a box face)
};

/// The signed distance of x from `obstacle` translated by `translation` (track.offset(t)).
/// Inside a box the nearest face gives the normal (the face of the largest coordinate, the
/// lowest axis on a tie); at a sphere's centre or on a capsule's axis the normal is +z, or +x
/// for a capsule along z; a mesh's is its grid's (contact/distance_grid.hpp).
SurfaceDistance surface_distance(const Obstacle& obstacle, const Vec3& x,
                                 const Vec3& translation = Vec3::Zero());

/// "plane", "sphere", "capsule", "box", "mesh".
const char* to_string(ObstacleShape shape);

}  // namespace substruct
