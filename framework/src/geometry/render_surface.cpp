// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/geometry/render_surface.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace substruct {

bool is_closed_and_oriented(const Triangles& triangles) {
  if (triangles.rows() == 0) return false;
  // Every directed edge (a, b) once, and its reverse (b, a) once.
  std::vector<std::pair<Index, Index>> edges;
  edges.reserve(static_cast<std::size_t>(3 * triangles.rows()));
  for (Eigen::Index t = 0; t < triangles.rows(); ++t)
    for (int k = 0; k < 3; ++k) edges.emplace_back(triangles(t, k), triangles(t, (k + 1) % 3));
  std::sort(edges.begin(), edges.end());
  if (std::adjacent_find(edges.begin(), edges.end()) != edges.end()) return false;
  return std::all_of(edges.begin(), edges.end(), [&](const std::pair<Index, Index>& e) {
    return std::binary_search(edges.begin(), edges.end(), std::make_pair(e.second, e.first));
  });
}

RenderSurface render_surface(const TetMesh& mesh, const SurfaceMesh* render_mesh) {
  RenderSurface surface;
  if (render_mesh != nullptr) {
    surface.from_render_mesh = true;
    surface.triangles = render_mesh->triangles;
    surface.embedding = embed_points(mesh, render_mesh->vertices);
    surface.closed = is_closed_and_oriented(surface.triangles);
    return surface;
  }
  // The boundary of the tet mesh, over its own compact vertex numbering.
  const Triangles boundary = boundary_triangles(mesh);
  std::vector<Index> render_id(static_cast<std::size_t>(mesh.num_vertices()), -1);
  std::vector<Index> volumetric;
  surface.triangles.resize(boundary.rows(), 3);
  for (Eigen::Index t = 0; t < boundary.rows(); ++t)
    for (int a = 0; a < 3; ++a) {
      Index& id = render_id[static_cast<std::size_t>(boundary(t, a))];
      if (id < 0) {
        id = static_cast<Index>(volumetric.size());
        volumetric.push_back(boundary(t, a));
      }
      surface.triangles(t, a) = id;
    }
  const auto n = static_cast<Index>(volumetric.size());
  RenderEmbedding& e = surface.embedding;
  e.vertices.resize(n, 4);
  e.weights = decltype(e.weights)::Zero(n, 4);
  e.distance = Eigen::VectorXd::Zero(n);
  for (Index k = 0; k < n; ++k) {
    e.vertices.row(k).setConstant(volumetric[static_cast<std::size_t>(k)]);
    e.weights(k, 0) = 1;
  }
  surface.closed = is_closed_and_oriented(surface.triangles);
  return surface;
}

}  // namespace substruct
