// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A scene: the mesh, its materials and fixed vertices, the domains and their graph, the render
/// mesh — everything every coupling method consumes, built once from the config.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "substruct/config/material_settings.hpp"
#include "substruct/domains/decomposition.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "substruct/fem/material_model.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

class Config;

struct Scene {
  std::filesystem::path file;  // the scene config
  std::string name;            // file stem
  TetMesh mesh;
  std::optional<SurfaceMesh> render_mesh;
  std::vector<Index> fixed_vertices;  // sorted, 0-based

  MaterialModel material_model = MaterialModel::stvk;
  double rayleigh_mass = 0;       // α in D = αM + βK
  double rayleigh_stiffness = 0;  // β

  Decomposition decomposition;     // element partition, sub-meshes, interfaces
  std::vector<int> vertex_domain;  // the lowest domain using each vertex (−1: unused vertex)
  DomainGraph graph{1, std::vector<std::pair<int, int>>{}};
  std::vector<DomainEdge> removed_edges;  // loops cut by [scene] resolve_loops = spanning-tree
  int root = 0;

  std::vector<Index> tracked_vertices;  // reported in CSV output and accuracy metrics

  Index num_domains() const { return decomposition.partition.num_domains; }
  /// Length of the rest shape's bounding-box diagonal [m].
  double size() const;
};

/// Applies the [material] overrides that are set (E, ν, ρ) to every material of `mesh`, then
/// checks every material: Error unless E > 0, ρ > 0 and −1 < ν < ½, naming the material.
void apply_material_overrides(const MaterialSettings& settings, TetMesh& mesh);

/// Builds the scene from a validated config (reads the meshes, applies [material] overrides,
/// partitions into domains, builds the domain graph and chooses the root).
Scene load_scene(const Config& config);

}  // namespace substruct
