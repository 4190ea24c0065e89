// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Triangle models from the formats artists export (OBJ, glTF/GLB, PLY, STL, OFF, FBX, DAE, …),
/// read with Assimp.
#include <filesystem>
#include <string>
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// One model as a single triangle surface: polygons triangulated, every mesh of the file
/// (Assimp splits an OBJ by material) put together, and vertices at the same position merged
/// so that pieces written apart share their edges. Node transformations are applied.
struct TriangleModel {
  SurfaceMesh surface;
  std::vector<std::string> mesh_names;      // the file's meshes (objects, groups, materials)
  std::vector<std::string> mesh_materials;  // each mesh's material name ("" when it has none)
  std::vector<int> triangle_mesh;           // the mesh each triangle came from
};

/// Reads `file`; an unreadable file, an unknown format, a model without triangles or with a
/// non-finite coordinate is an Error naming the file and the problem.
TriangleModel read_triangle_model(const std::filesystem::path& file);

}  // namespace substruct
