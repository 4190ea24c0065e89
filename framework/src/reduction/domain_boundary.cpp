// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/domain_boundary.hpp"

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "substruct/core/error.hpp"
#include "substruct/reduction/mass_pca.hpp"

namespace substruct {

Eigen::MatrixXd rigid_body_modes(const Points& X, const SparseMatrix& M) {
  const Eigen::Index n = X.rows();
  if (M.rows() != 3 * n || M.cols() != 3 * n)
    throw Error(
        fmt::format("rigid-body modes: the mass matrix is {}×{}, the {} vertices need {}×{}",
                    M.rows(), M.cols(), n, 3 * n, 3 * n));
  if (n == 0) throw Error("rigid-body modes: the body has no vertices");
  const Vec3 c = X.colwise().mean().transpose();
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(3 * n, 6);
  for (Eigen::Index v = 0; v < n; ++v) {
    const Vec3 r = X.row(v).transpose() - c;
    for (int k = 0; k < 3; ++k) {
      R(3 * v + k, k) = 1;                                   // translation e_k
      R.block<3, 1>(3 * v, 3 + k) = Vec3::Unit(k).cross(r);  // rotation e_k × (X − c)
    }
  }
  try {
    mass_orthonormalize(R, M);
  } catch (const Error&) {
    throw Error(
        "rigid-body modes: the vertices are collinear or M is singular, the 6 rigid modes are "
        "dependent");
  }
  return R;
}

}  // namespace substruct
