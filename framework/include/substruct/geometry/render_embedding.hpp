// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A render surface embedded in the tet mesh: every render vertex is a fixed combination of the
/// four vertices of one tet (barycentric coordinates in the tet that contains it, or in the
/// nearest tet when it lies outside the mesh — then the coordinates extrapolate, so any affine
/// deformation of the tets still moves it exactly). Computed once at rest.
#include "substruct/core/types.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

struct RenderEmbedding {
  Eigen::Matrix<Index, Eigen::Dynamic, 4, Eigen::RowMajor> vertices;  // the tet's 4 vertices
  Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> weights;  // summing to 1
  Eigen::VectorXd distance;  // rest distance to the tet (0: inside)

  Index size() const { return static_cast<Index>(vertices.rows()); }
  /// The volumetric vertex with the largest weight (picking, colouring by domain).
  Index dominant_vertex(Index k) const;
};

/// Embeds `points` (rest positions) in `mesh`'s tets. Uses a uniform grid over the tets'
/// bounding boxes, so it is near-linear in points + tets.
RenderEmbedding embed_points(const TetMesh& mesh, const Points& points);

/// y_k = Σ_a w_ka x_(vertex ka): render positions (or velocities) from volumetric ones.
void embedded_positions(const RenderEmbedding& embedding, const Points& x, Points& y);

}  // namespace substruct
