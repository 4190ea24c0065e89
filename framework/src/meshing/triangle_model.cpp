// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/meshing/triangle_model.hpp"

#include <array>
#include <cmath>
#include <map>

#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>
#include <assimp/Importer.hpp>

#include "substruct/core/error.hpp"
#include "substruct/core/input_file.hpp"

namespace substruct {

namespace {

struct Gathered {
  std::vector<double> xyz;
  std::vector<Index> triangles;
  std::vector<int> triangle_mesh;
  std::map<std::array<double, 3>, Index> index_of;  // welding by exact position
};

void gather(const std::filesystem::path& file, const aiScene& scene, const aiNode& node,
            const aiMatrix4x4& parent, Gathered& g) {
  const aiMatrix4x4 transform = parent * node.mTransformation;
  for (unsigned m = 0; m < node.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[node.mMeshes[m]];
    std::vector<Index> id(mesh.mNumVertices);
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D p = transform * mesh.mVertices[v];
      const std::array<double, 3> x = {p.x, p.y, p.z};
      if (!std::isfinite(x[0]) || !std::isfinite(x[1]) || !std::isfinite(x[2]))
        throw Error(
            fmt::format("cannot import '{}': vertex {} of mesh '{}' is at ({}, {}, {}), "
                        "not a finite position",
                        file.string(), v + 1, mesh.mName.C_Str(), x[0], x[1], x[2]));
      const auto [it, fresh] = g.index_of.emplace(x, static_cast<Index>(g.index_of.size()));
      if (fresh) g.xyz.insert(g.xyz.end(), x.begin(), x.end());
      id[v] = it->second;
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines left by the triangulation
      for (unsigned k = 0; k < 3; ++k) g.triangles.push_back(id[face.mIndices[k]]);
      g.triangle_mesh.push_back(static_cast<int>(node.mMeshes[m]));
    }
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c)
    gather(file, scene, *node.mChildren[c], transform, g);
}

}  // namespace

TriangleModel read_triangle_model(const std::filesystem::path& file) {
  require_input_file(file, "model");
  Assimp::Importer importer;
  // Only what positions need: no normals, tangents or UVs are made, and Assimp keeps the
  // vertices of each face apart unless they are equal in every attribute.
  const aiScene* scene =
      importer.ReadFile(file.string(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                           aiProcess_SortByPType | aiProcess_ValidateDataStructure);
  if (scene == nullptr || scene->mRootNode == nullptr)
    throw Error(fmt::format("cannot import '{}': {}", file.string(), importer.GetErrorString()));
  Gathered g;
  gather(file, *scene, *scene->mRootNode, aiMatrix4x4(), g);
  if (g.triangles.empty())
    throw Error(fmt::format("cannot import '{}': the model has no triangles ({} meshes)",
                            file.string(), scene->mNumMeshes));
  TriangleModel model;
  model.surface.vertices = Points(static_cast<Eigen::Index>(g.xyz.size() / 3), 3);
  std::copy(g.xyz.begin(), g.xyz.end(), model.surface.vertices.data());
  model.surface.triangles = Triangles(static_cast<Eigen::Index>(g.triangles.size() / 3), 3);
  std::copy(g.triangles.begin(), g.triangles.end(), model.surface.triangles.data());
  model.triangle_mesh = std::move(g.triangle_mesh);
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh& mesh = *scene->mMeshes[m];
    model.mesh_names.emplace_back(mesh.mName.C_Str());
    aiString material;
    if (mesh.mMaterialIndex < scene->mNumMaterials)
      material = scene->mMaterials[mesh.mMaterialIndex]->GetName();
    model.mesh_materials.emplace_back(material.C_Str());
  }
  return model;
}

}  // namespace substruct
