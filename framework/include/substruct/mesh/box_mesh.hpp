// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A structured tetrahedral mesh of an axis-aligned box, for tests, benchmarks and examples.
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// The box [lower, upper] cut into nx × ny × nz equal cells, each split into 6 tetrahedra of
/// equal volume (Kuhn/Freudenthal split along the cell diagonal from its (i,j,k) corner to its
/// (i+1,j+1,k+1) corner; the split is conforming, faces of neighbouring cells match).
///
/// - Vertex of grid point (i,j,k), 0 ≤ i ≤ nx, 0 ≤ j ≤ ny, 0 ≤ k ≤ nz, is
///   i + (nx+1)(j + (ny+1)k); its position is lower + (upper − lower)∘(i/nx, j/ny, k/nz), with the
///   faces exactly at lower and upper.
/// - Elements of cell (i,j,k) are 6(i + nx(j + ny k)) … +5; every element is positively oriented
///   (det[X₁−X₀, X₂−X₀, X₃−X₀] > 0).
/// - One material (`material`), used by every element.
/// - Vertex sets "xmin", "xmax", "ymin", "ymax", "zmin", "zmax": the vertices on each face
///   (sorted), e.g. to clamp one end of a beam.
///
/// Throws Error unless nx, ny, nz ≥ 1, lower < upper in every coordinate and the element count
/// fits an Index.
TetMesh make_box_mesh(const Vec3& lower, const Vec3& upper, int nx, int ny, int nz,
                      const Material& material = Material{});

}  // namespace substruct
