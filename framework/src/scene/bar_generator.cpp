// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/bar_generator.hpp"

#include <string>

#include <fmt/format.h>

#include "detail/lattice.hpp"
#include "substruct/core/error.hpp"

namespace substruct {

namespace {

void require(bool condition, const std::string& what) {
  if (!condition) throw Error("bar: " + what);
}

}  // namespace

TetMesh generate_bar(const BarParameters& p, std::vector<Index>* fixed_vertices,
                     std::vector<Index>* tip_corners) {
  require(p.length > 0 && p.height > 0 && p.width > 0,
          fmt::format("length, height and width must be > 0, found {}, {}, {}", p.length, p.height,
                      p.width));
  require(p.cells_x >= 1 && p.cells_y >= 1 && p.cells_z >= 1 &&
              static_cast<long long>(p.cells_x) * p.cells_y * p.cells_z <= 10'000'000,
          fmt::format("cells must be ≥ 1 and at most 10 million together, found {} {} {}",
                      p.cells_x, p.cells_y, p.cells_z));
  require(
      p.domains >= 1 && p.domains <= p.cells_x,
      fmt::format("domains must be in [1, cells along x = {}], found {}", p.cells_x, p.domains));
  const Material& m = p.material;
  require(m.youngs_modulus > 0 && m.density > 0 && m.poisson_ratio > -1 && m.poisson_ratio < 0.5,
          "expected E > 0, ρ > 0 and −1 < ν < 0.5");

  // make_box_mesh's vertices, but every cell split by the reflected Kuhn split (lattice.hpp)
  // rather than along one diagonal: with even cells_y and cells_z the mesh then has the square
  // bar's symmetries (mirrors in y and z, quarter turns about x), so that bending across y does
  // not leak into z. (make_box_mesh's split, the same diagonal in every cell, swings the tip of a
  // 42 × 3 × 3 bar sideways by ±8 cm as it sags.)
  const int nx = p.cells_x, ny = p.cells_y, nz = p.cells_z;
  const auto vertex = [&](int i, int j, int k) {
    return static_cast<Index>(i) +
           static_cast<Index>(nx + 1) * (static_cast<Index>(j) + static_cast<Index>(ny + 1) * k);
  };
  const auto at = [](double lower, double upper, int i, int n) {
    return i == n ? upper : lower + (upper - lower) * i / n;
  };
  TetMesh mesh;
  mesh.vertices.resize(static_cast<Eigen::Index>(nx + 1) * (ny + 1) * (nz + 1), 3);
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        mesh.vertices.row(vertex(i, j, k)) << at(0, p.length, i, nx),
            at(-p.height / 2, p.height / 2, j, ny), at(-p.width / 2, p.width / 2, k, nz);

  // Cell (i, j, k) holds elements 6 (i + nx (j + ny k)) … + 5, as in make_box_mesh; cell layer i
  // goes to domain ⌊i · domains / nx⌋.
  mesh.tets.resize(static_cast<Eigen::Index>(6) * nx * ny * nz, 4);
  std::vector<std::vector<Index>> sets(static_cast<std::size_t>(p.domains));
  Index e = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (const auto& tet : lattice::cell_tets({i, j, k})) {
          for (int c = 0; c < 4; ++c) {
            const lattice::Point& q = tet[static_cast<std::size_t>(c)];
            mesh.tets(e, c) = vertex(q[0], q[1], q[2]);
          }
          sets[static_cast<std::size_t>(static_cast<long>(i) * p.domains / nx)].push_back(e++);
        }
  const int digits = static_cast<int>(std::to_string(p.domains - 1).size());
  for (int d = 0; d < p.domains; ++d)
    mesh.element_sets[fmt::format("domain{:0{}}", d, digits)] =
        std::move(sets[static_cast<std::size_t>(d)]);
  mesh.materials = {p.material};
  mesh.element_material.assign(static_cast<std::size_t>(mesh.num_elements()), 0);

  if (fixed_vertices) {
    fixed_vertices->clear();
    for (int k = 0; k <= nz; ++k)
      for (int j = 0; j <= ny; ++j) fixed_vertices->push_back(vertex(0, j, k));
  }
  if (tip_corners) {
    tip_corners->clear();
    for (const int k : {0, nz})
      for (const int j : {0, ny}) tip_corners->push_back(vertex(nx, j, k));
  }
  return mesh;
}

}  // namespace substruct
