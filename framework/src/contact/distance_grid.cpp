// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/contact/distance_grid.hpp"

#include <algorithm>
#include <cmath>

namespace substruct {

Vec3 DistanceGrid::upper() const {
  return origin + voxel * Vec3(double(dims[0] - 1), double(dims[1] - 1), double(dims[2] - 1));
}

SurfaceDistance grid_distance(const DistanceGrid& g, const Vec3& x) {
  SurfaceDistance s;
  // Beyond the box: the box's nearest point, and how far x is from it.
  const Vec3 lower = g.origin, upper = g.upper();
  const Vec3 inside = x.cwiseMax(lower).cwiseMin(upper);
  const double beyond = (x - inside).norm();
  // The cell of `inside` and its local coordinates t ∈ [0, 1]³.
  const Vec3 p = (inside - lower) / g.voxel;
  long cell[3];
  Vec3 t;
  for (int a = 0; a < 3; ++a) {
    cell[a] = std::clamp(long(std::floor(p[a])), 0L, g.dims[a] - 2);
    t[a] = std::clamp(p[a] - double(cell[a]), 0.0, 1.0);
  }
  // d = Σ w_c v_c over the cell's corners, w_c = Π_a (t_a or 1 − t_a); ∂d/∂t_a likewise.
  double d = 0;
  Vec3 gradient = Vec3::Zero();
  for (int c = 0; c < 8; ++c) {
    const int bit[3] = {c & 1, (c >> 1) & 1, (c >> 2) & 1};
    const double v = g.value(cell[0] + bit[0], cell[1] + bit[1], cell[2] + bit[2]);
    double w[3], dw[3];
    for (int a = 0; a < 3; ++a) {
      w[a] = bit[a] ? t[a] : 1 - t[a];
      dw[a] = bit[a] ? 1 : -1;
    }
    d += w[0] * w[1] * w[2] * v;
    gradient.x() += dw[0] * w[1] * w[2] * v;
    gradient.y() += w[0] * dw[1] * w[2] * v;
    gradient.z() += w[0] * w[1] * dw[2] * v;
  }
  if (beyond > 0) {
    s.distance = std::max(d, 0.0) + beyond;
    s.normal = (x - inside) / beyond;
    return s;
  }
  s.distance = d;
  const double length = gradient.norm();
  s.normal = length > 0 ? Vec3(gradient / length) : Vec3(Vec3::UnitZ());
  return s;
}

}  // namespace substruct
