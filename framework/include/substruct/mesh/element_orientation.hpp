// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Inverted (negatively oriented) tetrahedra in a rest mesh: signed volume
/// det[x1 − x0, x2 − x0, x3 − x0] / 6 < 0. The readers accept either vertex order, and this
/// framework's kernels do not depend on it (F = Ds Dm⁻¹ is the same for both orders; the
/// boundary surface orients each face by its tet's sign), but other FEM codes do (Vega's
/// corotational and invertible models), and a mesh with some elements inverted is what a broken
/// converter writes. So a scene refuses such a mesh unless asked to reorient it, and a mesh
/// accepted here is a valid mesh elsewhere.
#include <filesystem>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// The number of elements with a negative signed volume.
Index count_inverted_elements(const TetMesh& mesh);

/// With `reorient`, swaps vertices 1 and 2 of every inverted element (its volume becomes
/// positive; element ids, sets and materials stay) and returns how many were turned. Without,
/// throws ParseError(source, 0, …) naming the first inverted element (1-based), its vertices and
/// how many there are, and how to accept them. Returns 0 when none is inverted.
Index orient_elements(TetMesh& mesh, const std::filesystem::path& source, bool reorient);

}  // namespace substruct
