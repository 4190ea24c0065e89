// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The mesh, fixed vertices and materials of a natural-modes solve, checked once for both
/// `substruct modes` and substruct.modes() (Python): the same refusals with the same messages.
#include <filesystem>
#include <string_view>
#include <vector>

#include "substruct/config/config.hpp"
#include "substruct/integrators/dof_map.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

struct ModesProblem {
  TetMesh mesh;              // materials overridden by [material]
  std::vector<Index> fixed;  // 0-based, ascending
  DofMap dofs;               // the free DOFs
  Index reoriented = 0;      // inverted tetrahedra turned (reorient)
};

/// Throws Error "modes: ARGUMENT expects a positive whole number, found 'COUNT'" unless
/// 1 ≤ count ≤ 2³¹ − 1 (ARGUMENT: "--count" on the command line, "count" in Python).
void check_mode_count(long long count, std::string_view argument);

/// Reads `mesh_file`; refuses inverted tetrahedra unless `reorient` (ParseError naming the first
/// and `reorient_elements = true (substruct modes --reorient)`); fixes the vertices of
/// `fixed_file` (a .bou, when not empty) and `fixed_indices` (0-based; Error naming one that does
/// not exist); refuses unused vertices that are not fixed and a mesh with nothing free; applies
/// the [material] youngs_modulus, poisson_ratio and density of `config` (validated there).
ModesProblem modes_problem(const std::filesystem::path& mesh_file,
                           const std::filesystem::path& fixed_file,
                           std::vector<Index> fixed_indices, bool reorient, const Config& config);

}  // namespace substruct
