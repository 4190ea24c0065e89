// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/contact/obstacle.hpp"

#include "substruct/contact/distance_grid.hpp"

#include <algorithm>
#include <cmath>

namespace substruct {
namespace {

// A ball of radius R about the point c: d = |x − c| − R, n = (x − c)/ρ, ∂n/∂x = (I − n nᵀ)/ρ.
// `axis`, when not zero, is a unit direction removed from ∂n/∂x (a capsule's cylinder, where
// the nearest axis point slides along it: ∂n/∂x = (I − n nᵀ − t tᵀ)/ρ).
SurfaceDistance ball_distance(const Vec3& x, const Vec3& c, double radius, const Vec3& axis) {
  SurfaceDistance s;
  const Vec3 r = x - c;
  const double rho = r.norm();
  if (rho == 0) {
    s.normal = std::abs(axis.z()) > 0.5 ? Vec3::UnitX() : Vec3::UnitZ();
    s.distance = -radius;
    return s;  // ∂n/∂x is unbounded here: left zero
  }
  s.normal = r / rho;
  s.distance = rho - radius;
  s.curvature =
      (Mat3::Identity() - s.normal * s.normal.transpose() - axis * axis.transpose()) / rho;
  return s;
}

SurfaceDistance box_distance(const Vec3& x, const Vec3& centre, const Vec3& half) {
  SurfaceDistance s;
  const Vec3 p = x - centre;
  const Vec3 q = p.cwiseAbs() - half;  // per axis: how far beyond each pair of faces
  const Vec3 sign = p.unaryExpr([](double v) { return v < 0 ? -1.0 : 1.0; });
  if ((q.array() > 0).any()) {
    // Outside: the nearest point is on a face, an edge or a corner; n = e/|e|, e = max(q, 0).
    const Vec3 e = q.cwiseMax(0.0);
    const double rho = e.norm();
    s.distance = rho;
    s.normal = sign.cwiseProduct(e) / rho;
    // ∂n/∂x over the axes beyond the box only (a face: zero; an edge or corner: a ball's).
    Mat3 P = Mat3::Zero();
    for (int k = 0; k < 3; ++k)
      if (q[k] > 0) P(k, k) = 1;
    s.curvature = (P - s.normal * s.normal.transpose()) / rho;
    return s;
  }
  // Inside: the nearest face, that of the largest q (the lowest axis on a tie).
  int k = 0;
  for (int j = 1; j < 3; ++j)
    if (q[j] > q[k]) k = j;
  s.distance = q[k];
  s.normal = Vec3::Zero();
  s.normal[k] = sign[k];
  return s;
}

}  // namespace

SurfaceDistance surface_distance(const Obstacle& o, const Vec3& x, const Vec3& translation) {
  switch (o.shape) {
    case ObstacleShape::plane: {
      SurfaceDistance s;
      s.normal = o.a;
      s.distance = o.a.dot(x - translation) - o.size;  // n·x − D
      return s;
    }
    case ObstacleShape::sphere:
      return ball_distance(x, o.a + translation, o.size, Vec3::Zero());
    case ObstacleShape::capsule: {
      const Vec3 A = o.a + translation, B = o.b + translation;
      const Vec3 AB = B - A;
      const double length2 = AB.squaredNorm();  // 0: a ball about A
      const double t = length2 > 0 ? std::clamp((x - A).dot(AB) / length2, 0.0, 1.0) : 0.0;
      const bool cylinder = t > 0 && t < 1;
      return ball_distance(x, A + t * AB, o.size,
                           cylinder ? Vec3(AB.normalized()) : Vec3(Vec3::Zero()));
    }
    case ObstacleShape::box:
      return box_distance(x, o.a + translation, o.b);
    case ObstacleShape::mesh:
      return grid_distance(*o.grid, x - translation);
  }
  return {};
}

const char* to_string(ObstacleShape shape) {
  switch (shape) {
    case ObstacleShape::plane:
      return "plane";
    case ObstacleShape::sphere:
      return "sphere";
    case ObstacleShape::capsule:
      return "capsule";
    case ObstacleShape::box:
      return "box";
    case ObstacleShape::mesh:
      return "mesh";
  }
  return "?";
}

}  // namespace substruct
