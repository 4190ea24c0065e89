// SPDX-License-Identifier: GPL-3.0-or-later
#include "triangle_geometry.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

namespace substruct::detail {

double segment_distance(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& s) {
  const Vec3 d1 = q - p, d2 = s - r, w = p - r;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(w);
  double u = 0, v = 0;
  if (a <= 0 && e <= 0) return w.norm();
  if (a <= 0) {
    v = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(w);
    if (e <= 0) {
      u = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denom = a * e - b * b;
      u = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      v = (b * u + f) / e;
      if (v < 0) {
        v = 0;
        u = std::clamp(-c / a, 0.0, 1.0);
      } else if (v > 1) {
        v = 1;
        u = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return (p + u * d1 - (r + v * d2)).norm();
}

bool segment_meets_triangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b,
                            const Vec3& c) {
  const Vec3 n = (b - a).cross(c - a);
  const double scale = n.norm();
  if (!(scale > 0)) return false;
  const double dp = n.dot(p - a), dq = n.dot(q - a);
  if ((dp > 0 && dq > 0) || (dp < 0 && dq < 0)) return false;
  if (dp == dq) return false;  // in the triangle's plane: left to the distance tests
  const Vec3 x = p + dp / (dp - dq) * (q - p);
  // Inside when on the same side of the three edges as the normal.
  return n.dot((b - a).cross(x - a)) >= 0 && n.dot((c - b).cross(x - b)) >= 0 &&
         n.dot((a - c).cross(x - c)) >= 0;
}

double triangle_distance(const Vec3 (&t)[3], const Vec3 (&u)[3]) {
  for (int k = 0; k < 3; ++k) {
    if (segment_meets_triangle(t[k], t[(k + 1) % 3], u[0], u[1], u[2])) return 0;
    if (segment_meets_triangle(u[k], u[(k + 1) % 3], t[0], t[1], t[2])) return 0;
  }
  double d = INFINITY;
  for (int k = 0; k < 3; ++k) {
    d = std::min(d, (t[k] - closest_point_on_triangle(t[k], u[0], u[1], u[2])).norm());
    d = std::min(d, (u[k] - closest_point_on_triangle(u[k], t[0], t[1], t[2])).norm());
    for (int l = 0; l < 3; ++l)
      d = std::min(d, segment_distance(t[k], t[(k + 1) % 3], u[l], u[(l + 1) % 3]));
  }
  return d;
}

bool triangle_meets_box(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& centre,
                        const Vec3& half) {
  const Vec3 v[3] = {a - centre, b - centre, c - centre};
  // The box's axes.
  for (int d = 0; d < 3; ++d) {
    const double lo = std::min({v[0](d), v[1](d), v[2](d)});
    const double hi = std::max({v[0](d), v[1](d), v[2](d)});
    if (lo > half(d) || hi < -half(d)) return false;
  }
  const Vec3 e[3] = {v[1] - v[0], v[2] - v[1], v[0] - v[2]};
  const auto separated = [&](const Vec3& axis) {
    const double r =
        half(0) * std::abs(axis(0)) + half(1) * std::abs(axis(1)) + half(2) * std::abs(axis(2));
    const double p0 = axis.dot(v[0]), p1 = axis.dot(v[1]), p2 = axis.dot(v[2]);
    return std::min({p0, p1, p2}) > r || std::max({p0, p1, p2}) < -r;
  };
  // The triangle's normal, then the edges crossed with the box's axes.
  if (separated(e[0].cross(e[1]))) return false;
  for (const Vec3& edge : e)
    for (int d = 0; d < 3; ++d)
      if (separated(edge.cross(Vec3::Unit(d)))) return false;
  return true;
}

}  // namespace substruct::detail
