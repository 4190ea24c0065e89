// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Triangle-mesh obstacles: the signed distance field of a closed surface, made with OpenVDB
/// (tools::meshToSignedDistanceField) by a module loaded when the first one is made, so that
/// scenes without one do not load OpenVDB.
#include <filesystem>
#include <memory>

#include "substruct/contact/distance_grid.hpp"

namespace substruct {

struct MeshObstacleRequest {
  std::filesystem::path file;  // any format Assimp reads (OBJ, STL, PLY, OFF, glTF, …)
  double scale = 1;            // the file's coordinates × scale …
  Vec3 offset = Vec3::Zero();  // … + offset [m]
  double voxel = 0;            // the samples' spacing [m]; 0: 1/64 of the longest side
};

/// The field of the mesh in `request.file`, sampled `voxel` apart over its box and 3 samples
/// beyond, exact outside within 3 samples of the surface and filled inside. The same request in
/// one process gives the same grid (made once). Throws Error naming the file for an unreadable
/// one, a surface that does not bound a solid (its first defect: an open or non-manifold edge,
/// crossing triangles, …: meshing/surface_defects.hpp), a scale not > 0, a voxel that would
/// need more than 2²⁶ samples, or when the module is not installed (substruct was built without
/// OpenVDB, Debian libopenvdb-dev, or without the import's Assimp).
std::shared_ptr<const DistanceGrid> mesh_distance_grid(const MeshObstacleRequest& request);

}  // namespace substruct
