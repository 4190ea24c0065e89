// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/independent_rows.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

std::vector<Eigen::Index> independent_rows(const Eigen::Ref<const Eigen::MatrixXd>& J,
                                           double tolerance) {
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance))
    throw Error(
        fmt::format("independent rows: the tolerance must be finite and ≥ 0, not {}", tolerance));
  if (!J.allFinite())
    throw Error(
        fmt::format("independent rows: the {}×{} constraint matrix has an entry that is "
                    "not finite",
                    J.rows(), J.cols()));
  std::vector<Eigen::Index> kept;
  if (J.rows() == 0 || J.cols() == 0) return kept;
  const double scale = J.rowwise().norm().maxCoeff();
  if (scale == 0.0) return kept;
  const double threshold = tolerance * scale;
  // An orthonormal basis of the kept rows, one per column.
  const Eigen::Index n = J.cols();
  Eigen::MatrixXd basis(n, std::min(J.rows(), n));
  Eigen::Index r = 0;
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < J.rows() && r < n; ++i) {
    v = J.row(i).transpose();
    for (int pass = 0; pass < 2 && r > 0; ++pass)
      v.noalias() -= basis.leftCols(r) * (basis.leftCols(r).transpose() * v);
    const double norm = v.norm();
    if (!(norm > threshold) || norm == 0.0) continue;
    basis.col(r++) = v / norm;
    kept.push_back(i);
  }
  return kept;
}

}  // namespace substruct
