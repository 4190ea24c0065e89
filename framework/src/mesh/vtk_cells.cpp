// SPDX-License-Identifier: GPL-3.0-or-later
#include "detail/vtk_cells.hpp"

#include <algorithm>
#include <array>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "detail/mesh_builder.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/hex_split.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct::mesh_detail {

namespace {

constexpr long long kTetra = 10;
constexpr long long kVoxel = 11;
constexpr long long kHexahedron = 12;

// VTK's cell types (vtkCellType.h): the dimension of each and its name, for messages.
struct CellType {
  long long type;
  int dim;
  const char* name;
};
constexpr std::array<CellType, 45> kCellTypes = {{
    {0, 0, "empty cell"},
    {1, 0, "vertex"},
    {2, 0, "poly-vertex"},
    {3, 1, "line"},
    {4, 1, "poly-line"},
    {5, 2, "triangle"},
    {6, 2, "triangle strip"},
    {7, 2, "polygon"},
    {8, 2, "pixel"},
    {9, 2, "quad"},
    {10, 3, "tetrahedron"},
    {11, 3, "voxel"},
    {12, 3, "hexahedron"},
    {13, 3, "wedge"},
    {14, 3, "pyramid"},
    {15, 3, "pentagonal prism"},
    {16, 3, "hexagonal prism"},
    {21, 1, "quadratic edge"},
    {22, 2, "quadratic triangle"},
    {23, 2, "quadratic quad"},
    {24, 3, "quadratic tetrahedron"},
    {25, 3, "quadratic hexahedron"},
    {26, 3, "quadratic wedge"},
    {27, 3, "quadratic pyramid"},
    {28, 2, "biquadratic quad"},
    {29, 3, "triquadratic hexahedron"},
    {30, 2, "quadratic-linear quad"},
    {31, 3, "quadratic-linear wedge"},
    {32, 3, "biquadratic-quadratic wedge"},
    {33, 3, "biquadratic-quadratic hexahedron"},
    {34, 2, "biquadratic triangle"},
    {35, 1, "cubic line"},
    {36, 2, "quadratic polygon"},
    {37, 3, "triquadratic pyramid"},
    {42, 3, "polyhedron"},
    {68, 1, "Lagrange curve"},
    {69, 2, "Lagrange triangle"},
    {70, 2, "Lagrange quadrilateral"},
    {71, 3, "Lagrange tetrahedron"},
    {72, 3, "Lagrange hexahedron"},
    {73, 3, "Lagrange wedge"},
    {74, 3, "Lagrange pyramid"},
    {75, 1, "Bezier curve"},
    {76, 2, "Bezier triangle"},
    {77, 2, "Bezier quadrilateral"},
}};

const CellType* cell_type(long long type) {
  for (const CellType& t : kCellTypes)
    if (t.type == type) return &t;
  return nullptr;
}

}  // namespace

TetMesh tet_mesh_of_vtk_cells(const std::filesystem::path& file, const std::vector<double>& xyz,
                              const VtkCells& cells,
                              const std::function<long(std::size_t)>& line_of_cell) {
  const auto num_points = static_cast<long long>(xyz.size() / 3);
  const auto fail = [&](std::size_t i, const std::string& expected, const std::string& found) {
    throw ParseError(file, line_of_cell(i), fmt::format("expected {}, found {}", expected, found));
  };
  if (cells.offsets.size() != cells.types.size())
    fail(0, fmt::format("one cell type per cell ({})", cells.offsets.size()),
         fmt::format("{} cell types", cells.types.size()));

  std::vector<Index> tets;
  long long begin = 0;
  std::vector<Index> v;
  for (std::size_t i = 0; i < cells.types.size(); ++i) {
    const long long end = cells.offsets[i];
    if (end < begin || end > static_cast<long long>(cells.connectivity.size()))
      fail(
          i,
          fmt::format("the end offset of cell {} in [{}, {}]", i, begin, cells.connectivity.size()),
          std::to_string(end));
    const long long type = cells.types[i];
    const CellType* t = cell_type(type);
    if (t == nullptr) fail(i, "a VTK cell type", fmt::format("cell type {} in cell {}", type, i));
    const long long count = end - begin;
    const long long first = begin;
    begin = end;
    if (t->dim < 3) continue;  // boundary and marker cells carry nothing a TetMesh holds
    if (type != kTetra && type != kHexahedron && type != kVoxel)
      fail(i,
           "volume cells of type 10 (tetrahedron), 12 (hexahedron) or 11 (voxel); cells of "
           "dimension 0 to 2 are skipped",
           fmt::format("cell type {} ({}) in cell {} (0-based)", type, t->name, i));
    const long long nodes = type == kTetra ? 4 : 8;
    if (count != nodes)
      fail(i, fmt::format("{} point indices in cell {} (a {})", nodes, i, t->name),
           std::to_string(count));
    v.clear();
    for (long long k = first; k < end; ++k) {
      const long long p = cells.connectivity[static_cast<std::size_t>(k)];
      if (p < 0 || p >= num_points)
        fail(i, fmt::format("point indices of cell {} in [0, {}) (0-based)", i, num_points),
             std::to_string(p));
      v.push_back(static_cast<Index>(p));
    }
    std::vector<Index> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      fail(i, fmt::format("{} distinct point indices in cell {}", nodes, i),
           fmt::format("{}", fmt::join(v, " ")));
    if (type == kTetra) {
      tets.insert(tets.end(), v.begin(), v.end());
      continue;
    }
    Hexahedron hex{};
    std::copy(v.begin(), v.end(), hex.begin());
    if (type == kVoxel) hex = hexahedron_of_voxel(hex);
    const auto six = split_hexahedron(xyz, hex);
    if (!six)
      fail(i, fmt::format("cell {} (a {}) to be convex with its points in VTK's order", i, t->name),
           "its six tetrahedra of mixed orientation or without volume");
    for (const auto& tet : *six) tets.insert(tets.end(), tet.begin(), tet.end());
  }
  if (tets.empty())
    fail(cells.types.empty() ? 0 : cells.types.size() - 1,
         "volume cells (tetrahedra, hexahedra or voxels)", "none");

  TetMesh mesh;
  mesh.vertices = to_points(xyz);
  mesh.tets = to_tets(tets);
  mesh.materials = {Material{}};
  mesh.element_material.assign(static_cast<std::size_t>(mesh.num_elements()), 0);
  check_tet_mesh(mesh, file);
  return mesh;
}

}  // namespace substruct::mesh_detail
