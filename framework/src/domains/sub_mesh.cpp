// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/sub_mesh.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "domains_detail.hpp"
#include "substruct/core/error.hpp"

namespace substruct {
namespace {

Index find_sorted(const std::vector<Index>& sorted, Index value) {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), value);
  return it != sorted.end() && *it == value ? static_cast<Index>(it - sorted.begin()) : -1;
}

}  // namespace

Index SubMesh::local_vertex(Index global) const {
  return find_sorted(global_vertex, global);
}

Index SubMesh::local_element(Index global) const {
  return find_sorted(global_element, global);
}

namespace detail {

SubMesh extract_sub_mesh_geometry(const TetMesh& mesh, std::span<const Index> elements, int domain,
                                  std::vector<Index>* scratch) {
  SubMesh sub;
  sub.domain = domain;
  sub.global_element.assign(elements.begin(), elements.end());
  const Index m = static_cast<Index>(elements.size());

  std::vector<Index>& verts = sub.global_vertex;
  if (scratch) {
    // scratch[v] < 0 for every v on entry: mark each vertex once, sort only the distinct ones.
    std::vector<Index>& mark = *scratch;
    for (const Index e : elements)
      for (int i = 0; i < 4; ++i)
        if (const Index v = mesh.tets(e, i); mark[v] < 0) {
          mark[v] = 0;
          verts.push_back(v);
        }
    std::sort(verts.begin(), verts.end());
    for (std::size_t l = 0; l < verts.size(); ++l) mark[verts[l]] = static_cast<Index>(l);
  } else {
    verts.reserve(4 * elements.size());
    for (const Index e : elements)
      for (int i = 0; i < 4; ++i) verts.push_back(mesh.tets(e, i));
    std::sort(verts.begin(), verts.end());
    verts.erase(std::unique(verts.begin(), verts.end()), verts.end());
    verts.shrink_to_fit();
  }

  TetMesh& local = sub.mesh;
  local.vertices.resize(static_cast<Eigen::Index>(verts.size()), 3);
  for (std::size_t v = 0; v < verts.size(); ++v)
    local.vertices.row(static_cast<Eigen::Index>(v)) = mesh.vertices.row(verts[v]);
  local.tets.resize(m, 4);
  local.element_material.resize(m);
  for (Index k = 0; k < m; ++k) {
    const Index e = elements[k];
    for (int i = 0; i < 4; ++i)
      local.tets(k, i) =
          scratch ? (*scratch)[mesh.tets(e, i)] : find_sorted(verts, mesh.tets(e, i));
    local.element_material[k] = mesh.element_material.empty() ? 0 : mesh.element_material[e];
  }
  if (scratch)
    for (const Index v : verts) (*scratch)[v] = -1;
  local.materials = mesh.materials;
  if (local.materials.empty()) local.materials.emplace_back();
  return sub;
}

}  // namespace detail

SubMesh extract_sub_mesh(const TetMesh& mesh, const std::vector<Index>& elements, int domain) {
  for (std::size_t k = 0; k < elements.size(); ++k) {
    if (elements[k] < 0 || elements[k] >= mesh.num_elements())
      throw Error(fmt::format("sub-mesh of domain {}: element {} is not in the mesh (0…{})", domain,
                              elements[k], mesh.num_elements() - 1));
    if (k > 0 && elements[k] <= elements[k - 1])
      throw Error(
          fmt::format("sub-mesh of domain {}: element ids must be strictly increasing, "
                      "found {} after {}",
                      domain, elements[k], elements[k - 1]));
  }
  SubMesh sub = detail::extract_sub_mesh_geometry(mesh, elements, domain, nullptr);
  for (const auto& [name, set] : mesh.element_sets) {
    std::vector<Index> local;
    for (const Index e : set)
      if (const Index l = sub.local_element(e); l >= 0) local.push_back(l);
    if (!local.empty()) sub.mesh.element_sets.emplace(name, std::move(local));
  }
  for (const auto& [name, set] : mesh.vertex_sets) {
    std::vector<Index> local;
    for (const Index v : set)
      if (const Index l = sub.local_vertex(v); l >= 0) local.push_back(l);
    if (!local.empty()) sub.mesh.vertex_sets.emplace(name, std::move(local));
  }
  return sub;
}

}  // namespace substruct
