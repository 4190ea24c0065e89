// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A signed distance field sampled on a regular grid: the shape of a triangle-mesh obstacle
/// (contact/mesh_obstacle.hpp makes one from a closed mesh), queried by trilinear interpolation.
#include <array>
#include <vector>

#include "substruct/contact/obstacle.hpp"
#include "substruct/core/types.hpp"

namespace substruct {

struct DistanceGrid {
  Vec3 origin = Vec3::Zero();  // the world position of sample (0, 0, 0) [m]
  double voxel = 0;            // the samples' spacing [m]
  std::array<long, 3> dims{};  // samples along x, y, z (each ≥ 2)
  std::vector<float> values;   // signed distance [m], > 0 outside; x fastest, then y
  double band = 0;             // outside, values are exact up to this distance, then held
  Points surface;              // the mesh it was made from (for drawing) [m]
  std::vector<std::array<int, 3>> triangles;
  double value(long i, long j, long k) const {
    return values[std::size_t((k * dims[1] + j) * dims[0] + i)];
  }
  /// The corner of the last sample.
  Vec3 upper() const;
};

/// The field at x: d the trilinear interpolation of the samples, the normal its gradient's
/// direction (the interpolant's, so that d and n agree within a cell), curvature zero (the
/// field is piecewise trilinear: like a box face, the response takes no ∂n/∂x). A point beyond
/// the grid is at least its distance to the grid's box plus the nearest sample's value outside,
/// and never in contact (the grid reaches `band` beyond the surface).
SurfaceDistance grid_distance(const DistanceGrid& grid, const Vec3& x);

}  // namespace substruct
