// SPDX-License-Identifier: GPL-3.0-or-later
// The mesh distance module: a closed triangle surface read with Assimp (meshing/triangle_model),
// checked (meshing/surface_defects), turned into a signed distance field by OpenVDB
// (tools::meshToSignedDistanceField, exact within the exterior band, the inside filled) and
// copied onto a dense grid (contact/distance_grid.hpp) that the contact stage samples. Opened by
// contact/mesh_obstacle.cpp when a scene first declares a mesh obstacle.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/Dense.h>
#include <openvdb/tools/MeshToVolume.h>

#include "../../src/contact/detail/mesh_distance_entry.hpp"
#include "substruct/core/error.hpp"
#include "substruct/meshing/surface_defects.hpp"
#include "substruct/meshing/triangle_model.hpp"

namespace {

using substruct::DistanceGrid;
using substruct::Error;
using substruct::MeshObstacleRequest;
using substruct::Vec3;

constexpr int kBand = 3;            // exterior band [samples]: exact distances within it
constexpr int kSamplesAcross = 64;  // the default voxel: the longest side over this
constexpr double kMostSamples = 1 << 26;

}  // namespace

extern "C" __attribute__((visibility("default"))) void substruct_mesh_distance_grid(
    const MeshObstacleRequest& request, DistanceGrid& grid) {
  const std::string name = request.file.string();
  if (!(request.scale > 0) || !std::isfinite(request.scale))
    throw Error(fmt::format("[contact] mesh {}: the scale {} is not > 0", name, request.scale));
  const substruct::TriangleModel model = substruct::read_triangle_model(request.file);
  const std::string defect = substruct::first_surface_defect(model.surface);
  if (!defect.empty())
    throw Error(fmt::format(
        "[contact] mesh {} does not bound a solid, so it has no inside for a distance field: "
        "{}. Close it (or give a closed surface of the obstacle)",
        name, defect));
  substruct::Points x = model.surface.vertices * request.scale;
  x.rowwise() += request.offset.transpose();
  const Vec3 lower = x.colwise().minCoeff().transpose(), upper = x.colwise().maxCoeff().transpose();
  const double longest = (upper - lower).maxCoeff();
  const double voxel = request.voxel > 0 ? request.voxel : longest / kSamplesAcross;
  if (!(voxel > 0) || !std::isfinite(voxel))
    throw Error(fmt::format("[contact] mesh {} has no extent", name));
  double samples = 1;
  for (int a = 0; a < 3; ++a) samples *= (upper[a] - lower[a]) / voxel + 2 * kBand + 3;
  if (samples > kMostSamples)
    throw Error(fmt::format(
        "[contact] mesh {}: a voxel of {:g} m needs {:.3g} samples over its {:g} m box, more "
        "than {:.3g}; set contact.mesh_voxel larger (0: 1/{} of the longest side)",
        name, voxel, samples, longest, kMostSamples, kSamplesAcross));

  openvdb::initialize();
  std::vector<openvdb::Vec3s> points(std::size_t(x.rows()));
  for (Eigen::Index i = 0; i < x.rows(); ++i)
    points[std::size_t(i)] = openvdb::Vec3s(float(x(i, 0)), float(x(i, 1)), float(x(i, 2)));
  std::vector<openvdb::Vec3I> triangles;
  const auto& t = model.surface.triangles;
  for (Eigen::Index i = 0; i < t.rows(); ++i)
    triangles.emplace_back(openvdb::Index32(t(i, 0)), openvdb::Index32(t(i, 1)),
                           openvdb::Index32(t(i, 2)));
  const std::vector<openvdb::Vec4I> quads;
  // Index space: sample (i, j, k) at world (i, j, k) × voxel.
  const openvdb::math::Transform::Ptr transform =
      openvdb::math::Transform::createLinearTransform(voxel);
  const openvdb::FloatGrid::Ptr field =
      openvdb::tools::meshToSignedDistanceField<openvdb::FloatGrid>(
          *transform, points, triangles, quads, float(kBand), std::numeric_limits<float>::max());

  // The dense copy: the box and the band, one sample more on each side.
  const openvdb::Coord low(int(std::floor(lower.x() / voxel)) - kBand - 1,
                           int(std::floor(lower.y() / voxel)) - kBand - 1,
                           int(std::floor(lower.z() / voxel)) - kBand - 1);
  const openvdb::Coord high(int(std::ceil(upper.x() / voxel)) + kBand + 1,
                            int(std::ceil(upper.y() / voxel)) + kBand + 1,
                            int(std::ceil(upper.z() / voxel)) + kBand + 1);
  openvdb::tools::Dense<float, openvdb::tools::LayoutXYZ> dense(openvdb::CoordBBox(low, high),
                                                                field->background());
  openvdb::tools::copyToDense(*field, dense);
  grid.origin = Vec3(low.x(), low.y(), low.z()) * voxel;
  grid.voxel = voxel;
  grid.dims = {long(high.x() - low.x() + 1), long(high.y() - low.y() + 1),
               long(high.z() - low.z() + 1)};
  grid.band = kBand * voxel;
  grid.values.resize(std::size_t(grid.dims[0] * grid.dims[1] * grid.dims[2]));
  // LayoutXYZ is z fastest (x slowest); the grid is x fastest.
  for (long k = 0; k < grid.dims[2]; ++k)
    for (long j = 0; j < grid.dims[1]; ++j)
      for (long i = 0; i < grid.dims[0]; ++i)
        grid.values[std::size_t((k * grid.dims[1] + j) * grid.dims[0] + i)] =
            dense.getValue(openvdb::Coord(low.x() + int(i), low.y() + int(j), low.z() + int(k)));
  grid.surface = x;
  grid.triangles.resize(std::size_t(t.rows()));
  for (Eigen::Index i = 0; i < t.rows(); ++i)
    grid.triangles[std::size_t(i)] = {int(t(i, 0)), int(t(i, 1)), int(t(i, 2))};
}
