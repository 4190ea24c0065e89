// SPDX-License-Identifier: GPL-3.0-or-later
#include "discrete_gradient.hpp"

namespace substruct::inertia {

Eigen::VectorXd discrete_gradient_correction(double W, double W_next, const Eigen::VectorXd& f_mid,
                                             const Eigen::VectorXd& dq, const Eigen::MatrixXd& M,
                                             double scale) {
  const Eigen::VectorXd Mdq = M * dq;
  const double norm2 = dq.dot(Mdq);  // |Δq|²_M
  if (!(norm2 > 1e-16 * scale) || norm2 <= 0) return Eigen::VectorXd::Zero(dq.size());
  return ((W_next - W - f_mid.dot(dq)) / norm2) * Mdq;
}

}  // namespace substruct::inertia
