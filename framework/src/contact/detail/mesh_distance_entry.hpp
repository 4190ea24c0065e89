// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The entry point of the mesh distance module (framework/modules/mesh_distance), which the
// contact layer opens with dlopen: one C-linkage function, compiled by the same compiler, that
// throws substruct::Error.
#include "substruct/contact/mesh_obstacle.hpp"

namespace substruct::detail {

constexpr const char* kMeshDistanceModule = "libsubstruct_mesh_distance.so";
constexpr const char* kMeshDistanceEntry = "substruct_mesh_distance_grid";
using MeshDistanceEntry = void (*)(const MeshObstacleRequest& request, DistanceGrid& grid);

}  // namespace substruct::detail
