// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// How a domain is held while its reduced basis is computed, and the rigid-body modes a
/// free-flying domain removes from its basis.
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

/// fixed_vertices: local vertex ids whose displacement is held at zero (any order, repeats
///   allowed); the basis vectors are exactly zero there.
/// remove_rigid_modes: the domain is free-flying (no fixed vertices): its basis excludes the
///   6 rigid-body modes and is M-orthogonal to them. Setting it with fixed vertices is an Error.
struct DomainBoundary {
  std::vector<Index> fixed_vertices;
  bool remove_rigid_modes = false;
};

/// The 6 rigid-body modes of a body with rest positions X (N×3) and mass matrix M (3N×3N): the
/// translations e_k and the infinitesimal rotations e_k × (X − c) about the centroid c, made
/// M-orthonormal (RᵀMR = I) by mass_orthonormalize. 3N×6. Throws Error when M does not match X
/// or the vertices are collinear (the rotations are then dependent).
Eigen::MatrixXd rigid_body_modes(const Points& rest_positions, const SparseMatrix& M);

}  // namespace substruct
