// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Cholesky factorization of W (Eq. 6) each step: a dense SPD matrix of a few hundred rows,
// rebuilt every step because the domains' rotations change it. LAPACK's blocked dpotrf (the
// system's BLAS) where the build found LAPACK — about twice Eigen's LLT at these sizes — else
// Eigen's LLT.
#include "substruct/core/types.hpp"

namespace substruct::ddm {

class MultiplierCholesky {
 public:
  /// Factors W in place from its lower triangle (the upper one is not read). False when W is not
  /// positive definite (W is then overwritten: keep a copy to fall back on).
  bool factor(Eigen::MatrixXd& W);
  /// x = W⁻¹ b with the last successful factor() (its matrix must still be alive and unchanged).
  void solve(const Eigen::MatrixXd& factored, const Eigen::VectorXd& b, Eigen::VectorXd& x) const;
};

}  // namespace substruct::ddm
