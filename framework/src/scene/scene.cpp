// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/scene.hpp"
#include "substruct/core/parse_number.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/config/material_settings.hpp"
#include "substruct/config/scene_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/mesh/element_orientation.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/mesh/unused_vertices.hpp"
#include "substruct/scene/tracked_vertex.hpp"

namespace substruct {

double Scene::size() const {
  if (mesh.vertices.rows() == 0) return 0;
  const Vec3 lower = mesh.vertices.colwise().minCoeff();
  const Vec3 upper = mesh.vertices.colwise().maxCoeff();
  return (upper - lower).norm();
}

void apply_material_overrides(const MaterialSettings& settings, TetMesh& mesh) {
  if (!settings.youngs_modulus && !settings.poisson_ratio && !settings.density) return;
  for (Material& m : mesh.materials) {
    m.youngs_modulus = settings.youngs_modulus.value_or(m.youngs_modulus);
    m.poisson_ratio = settings.poisson_ratio.value_or(m.poisson_ratio);
    m.density = settings.density.value_or(m.density);
  }
  for (const Material& m : mesh.materials) {
    if (!(m.youngs_modulus > 0) || !(m.density > 0) || !(m.poisson_ratio > -1) ||
        !(m.poisson_ratio < 0.5))
      throw Error(fmt::format(
          "material '{}': expected E > 0, ρ > 0 and −1 < ν < 0.5, found E = {}, ρ = {}, ν = {}",
          m.name, m.youngs_modulus, m.density, m.poisson_ratio));
  }
}

namespace {

std::vector<Index> fixed_from_set(const TetMesh& mesh, const std::string& name) {
  if (auto it = mesh.vertex_sets.find(name); it != mesh.vertex_sets.end()) return it->second;
  if (auto it = mesh.element_sets.find(name); it != mesh.element_sets.end()) {
    std::set<Index> vertices;
    for (Index e : it->second)
      for (int k = 0; k < 4; ++k) vertices.insert(mesh.tets(e, k));
    return {vertices.begin(), vertices.end()};
  }
  std::string names;
  for (const auto& [set, v] : mesh.vertex_sets) names += (names.empty() ? "" : ", ") + set;
  for (const auto& [set, e] : mesh.element_sets) names += (names.empty() ? "" : ", ") + set;
  throw Error(fmt::format("[scene] fixed_set = {}: the mesh has no such set (sets: {})", name,
                          names.empty() ? "none" : names));
}

}  // namespace

Scene load_scene(const Config& config) {
  const SceneSettings settings = scene_options().read(config);
  const MaterialSettings material = material_options().read(config);
  Scene scene;
  scene.file = config.scene_file();
  scene.name = scene.file.empty() ? std::string("scene") : scene.file.stem().string();
  if (settings.mesh.empty()) {
    // Set with no value ("mesh ="): say where; never set: say what is missing.
    if (config.origin("scene.mesh") != "default")
      throw config.value_error("scene.mesh",
                               "expected the tet mesh to simulate (.veg, .node/.ele or .msh)");
    throw Error("[scene] mesh is required: the tet mesh to simulate (.veg, .node/.ele or .msh)");
  }
  scene.mesh = read_tet_mesh(settings.mesh);
  if (const Index turned = orient_elements(scene.mesh, settings.mesh, settings.reorient_elements))
    log::info("{}: {} inverted tetrahedra reoriented ([scene] reorient_elements)",
              settings.mesh.string(), turned);
  apply_material_overrides(material, scene.mesh);
  const Index n = scene.mesh.num_vertices();

  std::set<Index> fixed;
  if (!settings.fixed.empty())
    for (Index v : read_bou(settings.fixed, n)) fixed.insert(v);
  if (!settings.fixed_set.empty())
    for (Index v : fixed_from_set(scene.mesh, settings.fixed_set)) fixed.insert(v);
  scene.fixed_vertices.assign(fixed.begin(), fixed.end());
  if (n > 0 && static_cast<Index>(fixed.size()) == n)  // before any method makes a solver
    throw config.value_error(settings.fixed.empty() ? "scene.fixed_set" : "scene.fixed",
                             fmt::format("every one of the {} vertices is fixed: nothing is free "
                                         "to move",
                                         n));
  require_used_or_fixed(scene.mesh, scene.fixed_vertices, settings.mesh);

  if (!settings.render_mesh.empty()) scene.render_mesh = read_obj(settings.render_mesh);

  scene.material_model = parse_material_model(material.model);
  scene.rayleigh_mass = material.rayleigh_mass;
  scene.rayleigh_stiffness = material.rayleigh_stiffness;

  ElementPartition partition =
      make_element_partition(scene.mesh, settings.domains, config.base_dir(), scene.fixed_vertices);
  scene.decomposition = decompose(scene.mesh, std::move(partition));
  const int domains = scene.decomposition.num_domains();

  scene.vertex_domain.assign(static_cast<std::size_t>(n), -1);
  for (Index e = 0; e < scene.mesh.num_elements(); ++e) {
    const int d = scene.decomposition.partition.domain_of_element[static_cast<std::size_t>(e)];
    for (int k = 0; k < 4; ++k) {
      int& slot = scene.vertex_domain[static_cast<std::size_t>(scene.mesh.tets(e, k))];
      if (slot < 0 || d < slot) slot = d;
    }
  }

  scene.graph = DomainGraph(domains, scene.decomposition.interfaces);
  if (settings.root == "auto") {
    scene.root = scene.graph.choose_root(scene.fixed_vertices, scene.decomposition);
  } else {
    const std::optional<long> id = parse_integer(settings.root);
    if (!id) throw config.value_error("scene.root", "expected a domain id or auto");
    if (*id < 0 || *id >= domains)
      throw config.value_error("scene.root",
                               fmt::format("the scene has domains 0…{}", domains - 1));
    scene.root = static_cast<int>(*id);
  }

  if (settings.resolve_loops == LoopPolicy::spanning_tree && !scene.graph.is_tree()) {
    SpanningTree tree = scene.graph.spanning_tree(scene.root);
    std::vector<std::pair<int, int>> pairs;
    std::string list;
    for (const DomainEdge& e : tree.removed_edges) {
      pairs.emplace_back(e.a, e.b);
      list += fmt::format("{}{}–{}", list.empty() ? "" : ", ", e.a, e.b);
    }
    scene.graph = scene.graph.without_edges(pairs);
    scene.removed_edges = tree.removed_edges;
    log::info("domain graph: removed {} loop edge(s) to make a spanning tree: {}", pairs.size(),
              list);
  }

  scene.tracked_vertices = settings.tracked_vertices;
  for (Index v : scene.tracked_vertices)
    if (v >= n)
      throw config.value_error(
          "scene.tracked_vertices",
          fmt::format("vertex {} does not exist: the mesh has {} vertices, numbered from 0 to {} "
                      "(tracked_vertices count from 0; a .bou file's indices count from 1)",
                      v, n, n - 1));
  for (Index v : scene.tracked_vertices)
    if (std::binary_search(scene.fixed_vertices.begin(), scene.fixed_vertices.end(), v))
      log::warn(
          "[scene] tracked_vertices: vertex {} (0-based) is fixed: its trajectory does not "
          "move, and accuracy figures of it read 0 or nothing",
          v);
  if (scene.tracked_vertices.empty())
    scene.tracked_vertices.push_back(default_tracked_vertex(scene.mesh, scene.fixed_vertices));
  return scene;
}

}  // namespace substruct
