// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Per-element rest-shape data of linear tetrahedra, computed once.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// For element e with rest vertices X₀…X₃: Dm = [X₁−X₀, X₂−X₀, X₃−X₀], Dm⁻¹ and the rest
/// volume V = |det Dm| / 6 (elements may be stored with either orientation).
struct TetGeometry {
  std::vector<Mat3> Dm_inv;
  std::vector<double> volume;

  /// Throws Error naming the element when a vertex index is out of range or a tet is
  /// degenerate (V ≤ 1e-12 · h³, h its longest edge; this includes non-finite coordinates).
  static TetGeometry build(const TetMesh& mesh);
};

/// Shape-function gradients ∇N₀…∇N₃ of an element as the rows of a 4×3 matrix G:
/// ∇N_a = row a−1 of Dm⁻¹ for a = 1, 2, 3 and ∇N₀ = −(∇N₁ + ∇N₂ + ∇N₃), so that the
/// deformation gradient is F = Ds Dm⁻¹ = Σ_a x_a ∇N_aᵀ (Ds = [x₁−x₀, x₂−x₀, x₃−x₀]).
Eigen::Matrix<double, 4, 3> shape_gradients(const Mat3& Dm_inv);

}  // namespace substruct
