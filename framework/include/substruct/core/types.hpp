// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Basic numeric types shared by every part of substruct.
#include <cstdint>

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace substruct {

/// Index of a vertex, element or domain. Always 0-based inside substruct.
using Index = std::int32_t;

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

/// N×3 row-major point array. Its storage is the flat xyz layout [x0 y0 z0 x1 …] that
/// FEM vectors of size 3N use, so `flat(points)` views it without copying.
using Points = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
/// M×4 tetrahedra (0-based vertex indices), M×3 triangles.
using Tets = Eigen::Matrix<Index, Eigen::Dynamic, 4, Eigen::RowMajor>;
using Triangles = Eigen::Matrix<Index, Eigen::Dynamic, 3, Eigen::RowMajor>;

/// A dense matrix stored row by row: a reduced basis whose 3 rows per vertex are contiguous, so
/// that u = U q runs as dot products over whole rows (about twice the speed of a column-major
/// product for tall, narrow bases) and one vertex's block is one piece of memory.
using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Sparse matrices are column-major with int indices (what CHOLMOD and PETSc take).
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

/// The 3N vector view of an N×3 point array.
inline Eigen::Map<Eigen::VectorXd> flat(Points& p) {
  return {p.data(), p.size()};
}
inline Eigen::Map<const Eigen::VectorXd> flat(const Points& p) {
  return {p.data(), p.size()};
}

}  // namespace substruct
