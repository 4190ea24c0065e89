// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cells of a VTK unstructured grid (legacy .vtk and XML .vtu alike) made into a tet mesh:
// tetrahedra (cell type 10) are kept, hexahedra (12) and voxels (11) split into six tets each
// (detail/hex_split.hpp), cells of dimension 0–2 (vertices, lines, triangles, quads, …) skipped;
// any other cell type is an error naming it.
#include <filesystem>
#include <functional>
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct::mesh_detail {

struct VtkCells {
  std::vector<long long> connectivity;  // the point indices of every cell, one after another
  std::vector<long long> offsets;       // where each cell's indices end in connectivity
  std::vector<long long> types;         // the VTK cell type of each cell
};

/// The tet mesh of the points (flat x0 y0 z0 x1 …) and cells. A bad cell is a ParseError on the
/// line `line_of_cell(i)` names for cell i (0-based); the result is checked (check_tet_mesh).
TetMesh tet_mesh_of_vtk_cells(const std::filesystem::path& file, const std::vector<double>& xyz,
                              const VtkCells& cells,
                              const std::function<long(std::size_t)>& line_of_cell);

}  // namespace substruct::mesh_detail
