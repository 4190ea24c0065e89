// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Reading and writing mesh files. Every reader reports malformed input as a ParseError naming
/// the file, the line and what was expected; none crashes or returns a half-read mesh.
#include <filesystem>
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// Reads a tet mesh, choosing the format by extension: .veg (Vega), .node/.ele (TetGen; either
/// file or the common stem), .msh (Gmsh ASCII v1, v2.2 or v4.1), .vtu (VTK XML), .vtk (legacy
/// VTK). A path without extension is a
/// TetGen stem when STEM.node exists. A file that cannot be opened is an Error naming it.
TetMesh read_tet_mesh(const std::filesystem::path& file);

/// Vega .veg: *VERTICES, *ELEMENTS (TET, or CUBIC: each hexahedron split into six tets, cube j
/// becoming tets 6j … 6j+5 with its material and sets; the vertices, hence .bou files, are
/// unchanged), *MATERIAL (ENU), *SET, *REGION, *INCLUDE (relative
/// to the including file). Elements in no region get the first material (a default Material
/// when the file names none); named sets become element_sets, 0-based and sorted.
TetMesh read_veg(const std::filesystem::path& file);
/// TetGen .node/.ele (first index 0 or 1, as the first point declares). The first element
/// attribute k puts the element in element_sets["region_k"]; a non-zero point boundary marker m
/// puts the point in vertex_sets["boundary_m"].
TetMesh read_tetgen(const std::filesystem::path& node_or_ele_file);
/// Gmsh ASCII .msh v1 ($NOD/$ELM), v2.2 or v4.1. Vertices are the nodes in increasing tag order,
/// elements the 4-node tetrahedra (type 4) in increasing tag order. Tets of a physical group become
/// element_sets[name], the nodes of points, lines and surfaces of one vertex_sets[name]; a group
/// without a $PhysicalNames entry is named "physical_DIM_TAG".
TetMesh read_gmsh(const std::filesystem::path& file);

/// VTK XML .vtu unstructured grid: one `<Piece>`, arrays in ascii, binary (inline base64) or
/// appended (raw or base64) form, uncompressed or zlib-compressed, either byte order. Cells:
/// tetrahedra (type 10) kept, hexahedra (12) and voxels (11) split into six tets each as for
/// CUBIC .veg elements, cells of dimension 0–2 skipped; any other type is a ParseError naming it.
/// Point and cell data are not read.
TetMesh read_vtu(const std::filesystem::path& file);
/// Legacy VTK .vtk, ASCII, versions 2 to 5.1, DATASET UNSTRUCTURED_GRID; cells as for read_vtu.
TetMesh read_vtk_legacy(const std::filesystem::path& file);

/// Writes a Vega .veg file (vertices, TET elements, materials, sets, regions) that read_veg reads
/// back exactly (numbers printed with 17 significant digits). Each material but the most used
/// one is assigned through the named set holding exactly its elements, or through an extra set
/// named MATERIALElements when there is none. vertex_sets have no .veg form and are not written.
/// Names must be non-empty, not start with '*' and hold no whitespace, ',' or '#', and no set may
/// be named allElements; otherwise, or when the file cannot be written, it throws Error.
void write_veg(const std::filesystem::path& file, const TetMesh& mesh);

/// Checks what every reader guarantees: finite coordinates, vertex indices in range, four
/// distinct vertices per element, no degenerate element (|det Dm| ≤ 1e-12·h³, Dm = [x1−x0,
/// x2−x0, x3−x0], h its longest edge), at least one element, one valid material per element.
/// Throws ParseError(source, 0, …) naming the first offending element (1-based) or vertex.
void check_tet_mesh(const TetMesh& mesh, const std::filesystem::path& source);

/// Reads a Wavefront .obj surface (v and f records; polygons are fan-triangulated; texture and
/// normal indices in f records are accepted and ignored; negative indices are relative).
SurfaceMesh read_obj(const std::filesystem::path& file);

/// Writes a Wavefront .obj surface (v and f records, 17 significant digits) that read_obj reads
/// back exactly; throws Error naming the file when it cannot be written.
void write_obj(const std::filesystem::path& file, const SurfaceMesh& surface);

/// Reads Vega fixed vertices (.bou): 1-based indices separated by commas and/or whitespace,
/// '#' comments. Returns sorted, unique 0-based indices. When num_vertices ≥ 0, an index outside
/// [1, num_vertices] is a ParseError.
std::vector<Index> read_bou(const std::filesystem::path& file, Index num_vertices = -1);

}  // namespace substruct
