// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/meshing/solid_mesher.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <mutex>
#include <numbers>
#include <numeric>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <Eigen/Geometry>
#include <Eigen/LU>

#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

#include "gmsh_library.hpp"

namespace substruct {

namespace {

// Gmsh is one global model: one mesher at a time, initialised and finalised around it.
std::mutex gmsh_mutex;

struct GmshSession {
  explicit GmshSession(const detail::GmshApi& api) : api(api) {
    int ierr = 0;
    api.initialize(0, nullptr, 1, &ierr);
    detail::gmsh_check(ierr, "initialize");
    set("General.Terminal", 0);
    set("General.Verbosity", 1);
    set("General.NumThreads", 1);  // deterministic
  }
  ~GmshSession() {
    int ierr = 0;
    api.finalize(&ierr);
  }
  GmshSession(const GmshSession&) = delete;
  GmshSession& operator=(const GmshSession&) = delete;
  void set(const char* option, double value) const {
    int ierr = 0;
    api.option_set_number(option, value, &ierr);
    detail::gmsh_check(ierr, option);
  }
  const detail::GmshApi& api;
};

/// An array Gmsh allocated (gmshFree releases it), copied into a vector.
template <typename T>
std::vector<T> take(const detail::GmshApi& api, T* data, std::size_t n) {
  std::vector<T> v(data, data + n);
  api.free(data);
  return v;
}

TetMesh run_gmsh(const GmshSession& session, const SurfaceMesh& s,
                 const SolidMeshSettings& settings) {
  const detail::GmshApi& api = session.api;
  int ierr = 0;
  api.model_add("substruct", &ierr);
  detail::gmsh_check(ierr, "model::add");
  api.add_discrete_entity(2, 1, nullptr, 0, &ierr);
  detail::gmsh_check(ierr, "model::addDiscreteEntity");
  const auto n = static_cast<std::size_t>(s.vertices.rows());
  std::vector<std::size_t> node_tags(n);
  std::iota(node_tags.begin(), node_tags.end(), std::size_t{1});
  std::vector<double> xyz(s.vertices.data(), s.vertices.data() + 3 * n);
  api.add_nodes(2, 1, node_tags.data(), n, xyz.data(), xyz.size(), nullptr, 0, &ierr);
  detail::gmsh_check(ierr, "model::mesh::addNodes");
  const auto m = static_cast<std::size_t>(s.triangles.rows());
  std::vector<std::size_t> triangle_tags(m), triangle_nodes(3 * m);
  std::iota(triangle_tags.begin(), triangle_tags.end(), std::size_t{1});
  for (std::size_t k = 0; k < 3 * m; ++k)
    triangle_nodes[k] = static_cast<std::size_t>(s.triangles.data()[k]) + 1;
  api.add_elements_by_type(1, 2, triangle_tags.data(), m, triangle_nodes.data(), 3 * m, &ierr);
  detail::gmsh_check(ierr, "model::mesh::addElementsByType");
  int surface = 1;
  int loop = api.geo_add_surface_loop(&surface, 1, -1, &ierr);
  detail::gmsh_check(ierr, "model::geo::addSurfaceLoop");
  api.geo_add_volume(&loop, 1, -1, &ierr);
  detail::gmsh_check(ierr, "model::geo::addVolume");
  api.geo_synchronize(&ierr);
  detail::gmsh_check(ierr, "model::geo::synchronize");
  if (settings.max_size > 0) session.set("Mesh.MeshSizeMax", settings.max_size);
  session.set("Mesh.Optimize", 1);
  api.mesh_generate(3, &ierr);
  detail::gmsh_check(ierr, "model::mesh::generate");

  std::size_t *tag_data = nullptr, *tet_tag_data = nullptr, *tet_node_data = nullptr;
  double *coordinate_data = nullptr, *parametric_data = nullptr;
  std::size_t tag_n = 0, coordinate_n = 0, parametric_n = 0, tet_tag_n = 0, tet_node_n = 0;
  api.get_nodes(&tag_data, &tag_n, &coordinate_data, &coordinate_n, &parametric_data, &parametric_n,
                -1, -1, 0, 0, &ierr);
  detail::gmsh_check(ierr, "model::mesh::getNodes");
  const std::vector<std::size_t> tags = take(api, tag_data, tag_n);
  const std::vector<double> coordinates = take(api, coordinate_data, coordinate_n);
  if (parametric_data != nullptr) api.free(parametric_data);
  // Vertices by node tag: the surface's nodes 1 … n first, in their order.
  std::vector<std::size_t> order(tags.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return tags[a] < tags[b]; });
  std::vector<std::size_t> sorted_tags(tags.size());
  TetMesh mesh;
  mesh.vertices = Points(static_cast<Eigen::Index>(tags.size()), 3);
  for (std::size_t i = 0; i < order.size(); ++i) {
    sorted_tags[i] = tags[order[i]];
    for (int d = 0; d < 3; ++d)
      mesh.vertices(static_cast<Eigen::Index>(i), d) =
          coordinates[3 * order[i] + static_cast<std::size_t>(d)];
  }
  if (sorted_tags.size() < n || sorted_tags[n - 1] != n)
    throw Error("Gmsh changed the surface's vertices while meshing its inside");
  api.get_elements_by_type(4, &tet_tag_data, &tet_tag_n, &tet_node_data, &tet_node_n, -1, 0, 1,
                           &ierr);
  detail::gmsh_check(ierr, "model::mesh::getElementsByType");
  const std::vector<std::size_t> tet_tags = take(api, tet_tag_data, tet_tag_n);
  const std::vector<std::size_t> tet_nodes = take(api, tet_node_data, tet_node_n);
  mesh.tets = Tets(static_cast<Eigen::Index>(tet_tags.size()), 4);
  for (std::size_t k = 0; k < tet_nodes.size(); ++k) {
    const auto it = std::lower_bound(sorted_tags.begin(), sorted_tags.end(), tet_nodes[k]);
    mesh.tets.data()[k] = static_cast<Index>(it - sorted_tags.begin());
  }
  mesh.materials = {Material{}};
  mesh.element_material.assign(tet_tags.size(), 0);
  return mesh;
}

}  // namespace

TetMesh tetrahedralize_surface(const SurfaceMesh& closed, const SolidMeshSettings& settings) {
  std::lock_guard<std::mutex> lock(gmsh_mutex);
  TetMesh mesh;
  try {
    const GmshSession session(detail::gmsh_api());
    mesh = run_gmsh(session, closed, settings);
  } catch (const std::exception& e) {
    throw Error(fmt::format("Gmsh could not mesh the inside of the surface: {}", e.what()));
  }
  if (mesh.num_elements() == 0) throw Error("Gmsh made no tetrahedra inside the surface");
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const Vec3 x0 = mesh.vertices.row(mesh.tets(e, 0)).transpose();
    const double det = (mesh.vertices.row(mesh.tets(e, 1)).transpose() - x0)
                           .dot((mesh.vertices.row(mesh.tets(e, 2)).transpose() - x0)
                                    .cross(mesh.vertices.row(mesh.tets(e, 3)).transpose() - x0));
    if (det < 0) std::swap(mesh.tets(e, 1), mesh.tets(e, 2));
  }
  check_tet_mesh(mesh, "the Gmsh mesh");
  return mesh;
}

TetQuality tet_quality(const TetMesh& mesh) {
  TetQuality q;
  q.min_dihedral_degrees = 180;
  constexpr int kEdges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    std::array<Vec3, 4> x;
    for (int k = 0; k < 4; ++k)
      x[static_cast<std::size_t>(k)] = mesh.vertices.row(mesh.tets(e, k)).transpose();
    // Dihedral angle at edge (a, b): between the faces (a, b, c) and (a, b, d).
    for (const auto& ab : kEdges) {
      int others[2], n = 0;
      for (int k = 0; k < 4; ++k)
        if (k != ab[0] && k != ab[1]) others[n++] = k;
      const Vec3 axis =
          (x[static_cast<std::size_t>(ab[1])] - x[static_cast<std::size_t>(ab[0])]).normalized();
      Vec3 u = x[static_cast<std::size_t>(others[0])] - x[static_cast<std::size_t>(ab[0])];
      Vec3 v = x[static_cast<std::size_t>(others[1])] - x[static_cast<std::size_t>(ab[0])];
      u -= u.dot(axis) * axis;
      v -= v.dot(axis) * axis;
      const double angle = std::acos(std::clamp(u.normalized().dot(v.normalized()), -1.0, 1.0));
      q.min_dihedral_degrees = std::min(q.min_dihedral_degrees, angle * 180 / std::numbers::pi);
    }
    // Circumradius from the centre c solving 2 (x_k − x_0)·c = |x_k|² − |x_0|².
    Mat3 a;
    Vec3 b;
    for (int k = 1; k < 4; ++k) {
      const Vec3 d = x[static_cast<std::size_t>(k)] - x[0];
      a.row(k - 1) = 2 * d.transpose();
      b(k - 1) = d.squaredNorm();
    }
    const double radius = a.fullPivLu().solve(b).norm();
    double shortest = std::numeric_limits<double>::infinity();
    for (const auto& ab : kEdges)
      shortest = std::min(
          shortest,
          (x[static_cast<std::size_t>(ab[0])] - x[static_cast<std::size_t>(ab[1])]).norm());
    q.max_radius_edge = std::max(q.max_radius_edge, radius / shortest);
  }
  return q;
}

}  // namespace substruct
