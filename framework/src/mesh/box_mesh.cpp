// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/mesh/box_mesh.hpp"

#include <array>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

namespace {

// Kuhn split of the unit cell: one tet per permutation (p, q, r) of the axes, along the path
// 0 → e_p → e_p + e_q → (1,1,1). Corner c of the cell: bit 0 is +x, bit 1 +y, bit 2 +z.
// Odd permutations give det −1; their vertices 1 and 2 are swapped to orient them positively.
constexpr std::array<std::array<int, 4>, 6> kCellTets = {{
    {0, 1, 3, 7},  // x y z
    {0, 3, 2, 7},  // y x z, swapped
    {0, 2, 6, 7},  // y z x
    {0, 6, 4, 7},  // z y x, swapped
    {0, 4, 5, 7},  // z x y
    {0, 5, 1, 7},  // x z y, swapped
}};

}  // namespace

TetMesh make_box_mesh(const Vec3& lower, const Vec3& upper, int nx, int ny, int nz,
                      const Material& material) {
  if (nx < 1 || ny < 1 || nz < 1)
    throw Error(
        fmt::format("box mesh: need at least one cell per axis, got {} × {} × {}", nx, ny, nz));
  for (int d = 0; d < 3; ++d)
    if (!(lower[d] < upper[d]))
      throw Error(
          fmt::format("box mesh: lower corner ({}, {}, {}) must be below upper corner "
                      "({}, {}, {}) in every coordinate",
                      lower.x(), lower.y(), lower.z(), upper.x(), upper.y(), upper.z()));
  const std::int64_t num_cells = std::int64_t{nx} * ny * nz;
  const std::int64_t num_vertices =
      (std::int64_t{nx} + 1) * (std::int64_t{ny} + 1) * (std::int64_t{nz} + 1);
  if (6 * num_cells > std::numeric_limits<Index>::max() ||
      num_vertices > std::numeric_limits<Index>::max())
    throw Error(
        fmt::format("box mesh: {} × {} × {} cells make {} tetrahedra and {} vertices, more "
                    "than an Index holds",
                    nx, ny, nz, 6 * num_cells, num_vertices));

  TetMesh mesh;
  mesh.vertices.resize(num_vertices, 3);
  const auto vertex = [&](int i, int j, int k) -> Index {
    return i + (nx + 1) * (j + (ny + 1) * k);
  };
  // x = (lower (n − i) + upper i) / n is exactly lower at i = 0 and exactly upper at i = n.
  const auto coordinate = [](double lo, double hi, int i, int n) {
    return (lo * (n - i) + hi * i) / n;
  };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        mesh.vertices.row(vertex(i, j, k)) << coordinate(lower.x(), upper.x(), i, nx),
            coordinate(lower.y(), upper.y(), j, ny), coordinate(lower.z(), upper.z(), k, nz);

  mesh.tets.resize(6 * num_cells, 4);
  Index e = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        std::array<Index, 8> corner;
        for (int c = 0; c < 8; ++c)
          corner[c] = vertex(i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2));
        for (const auto& tet : kCellTets) {
          for (int a = 0; a < 4; ++a) mesh.tets(e, a) = corner[tet[a]];
          ++e;
        }
      }

  mesh.materials = {material};
  mesh.element_material.assign(static_cast<std::size_t>(mesh.num_elements()), 0);

  auto& xmin = mesh.vertex_sets["xmin"];
  auto& xmax = mesh.vertex_sets["xmax"];
  auto& ymin = mesh.vertex_sets["ymin"];
  auto& ymax = mesh.vertex_sets["ymax"];
  auto& zmin = mesh.vertex_sets["zmin"];
  auto& zmax = mesh.vertex_sets["zmax"];
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        const Index v = vertex(i, j, k);  // increasing in this loop order: every set is sorted
        if (i == 0) xmin.push_back(v);
        if (i == nx) xmax.push_back(v);
        if (j == 0) ymin.push_back(v);
        if (j == ny) ymax.push_back(v);
        if (k == 0) zmin.push_back(v);
        if (k == nz) zmax.push_back(v);
      }
  return mesh;
}

}  // namespace substruct
