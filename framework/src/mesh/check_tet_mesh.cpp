// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "detail/mesh_builder.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct {

namespace {

[[noreturn]] void fail(const std::filesystem::path& source, const std::string& expected,
                       const std::string& found) {
  throw ParseError(source, 0, fmt::format("expected {}, found {}", expected, found));
}

}  // namespace

void check_tet_mesh(const TetMesh& mesh, const std::filesystem::path& source) {
  const Index n = mesh.num_vertices();
  const Index m = mesh.num_elements();

  for (Index i = 0; i < n; ++i) {
    const auto x = mesh.vertices.row(i);
    if (!std::isfinite(x(0)) || !std::isfinite(x(1)) || !std::isfinite(x(2)))
      fail(source, "finite vertex coordinates",
           fmt::format("vertex {} (1-based) at ({}, {}, {})", i + 1, x(0), x(1), x(2)));
  }

  if (m == 0) fail(source, "at least one tetrahedron", "none");
  for (Index e = 0; e < m; ++e) {
    const std::array<Index, 4> v = {mesh.tets(e, 0), mesh.tets(e, 1), mesh.tets(e, 2),
                                    mesh.tets(e, 3)};
    const std::string listed = fmt::format("{} {} {} {} (1-based)", static_cast<long>(v[0]) + 1,
                                           static_cast<long>(v[1]) + 1, static_cast<long>(v[2]) + 1,
                                           static_cast<long>(v[3]) + 1);
    for (const Index vi : v)
      if (vi < 0 || vi >= n)
        fail(source, fmt::format("vertex indices of element {} (1-based) in [1, {}]", e + 1, n),
             listed);
    if (mesh_detail::has_repeated_vertex(v))
      fail(source, fmt::format("4 distinct vertices in element {} (1-based)", e + 1), listed);

    // Dm = [x1 − x0, x2 − x0, x3 − x0]; the element is degenerate when |det Dm| ≤ 1e-12·h³,
    // h its longest edge (det Dm = 6 × signed volume).
    const Vec3 x0 = mesh.vertices.row(v[0]).transpose();
    const Vec3 d1 = mesh.vertices.row(v[1]).transpose() - x0;
    const Vec3 d2 = mesh.vertices.row(v[2]).transpose() - x0;
    const Vec3 d3 = mesh.vertices.row(v[3]).transpose() - x0;
    double h2 = 0.0;
    for (std::size_t a = 0; a < 4; ++a)
      for (std::size_t b = a + 1; b < 4; ++b)
        h2 = std::max(h2, (mesh.vertices.row(v[a]) - mesh.vertices.row(v[b])).squaredNorm());
    const double h = std::sqrt(h2);
    const double det = d1.dot(d2.cross(d3));  // det Dm, the triple product
    if (std::abs(det) <= 1e-12 * h * h * h)
      fail(source, fmt::format("element {} (1-based) to have non-zero volume", e + 1),
           fmt::format("|det Dm| = {:g} ≤ 1e-12·h³ with longest edge h = {:g}; vertices {}",
                       std::abs(det), h, listed));
  }

  if (mesh.materials.empty()) fail(source, "at least one material", "none");
  if (static_cast<Index>(mesh.element_material.size()) != m)
    fail(source, fmt::format("one material index per element ({})", m),
         fmt::format("{}", mesh.element_material.size()));
  const auto num_materials = static_cast<Index>(mesh.materials.size());
  for (Index e = 0; e < m; ++e) {
    const Index k = mesh.element_material[static_cast<std::size_t>(e)];
    if (k < 0 || k >= num_materials)
      fail(source,
           fmt::format("a material index of element {} (1-based) in [0, {})", e + 1, num_materials),
           fmt::format("{}", k));
  }

  for (const auto& [name, ids] : mesh.element_sets)
    for (const Index id : ids)
      if (id < 0 || id >= m)
        fail(source, fmt::format("element ids of set '{}' in [0, {}) (0-based)", name, m),
             fmt::format("{}", id));
  for (const auto& [name, ids] : mesh.vertex_sets)
    for (const Index id : ids)
      if (id < 0 || id >= n)
        fail(source, fmt::format("vertex ids of set '{}' in [0, {}) (0-based)", name, n),
             fmt::format("{}", id));
}

}  // namespace substruct
