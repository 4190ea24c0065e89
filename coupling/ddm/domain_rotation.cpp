// SPDX-License-Identifier: GPL-3.0-or-later
#include "domain_rotation.hpp"

#include "substruct/kinematics/polar_decomposition.hpp"

namespace substruct::ddm {

Mat3 best_fit_rotation(const Points& rest, const Eigen::VectorXd& current,
                       const Eigen::VectorXd& mass) {
  const Index n = static_cast<Index>(rest.rows());
  double total = 0;
  Vec3 xc = Vec3::Zero(), Xc = Vec3::Zero();
  for (Index a = 0; a < n; ++a) {
    total += mass[a];
    xc += mass[a] * current.segment<3>(3 * a);
    Xc += mass[a] * rest.row(a).transpose();
  }
  xc /= total;
  Xc /= total;
  Mat3 Apq = Mat3::Zero();  // Σ m_a (x_a − x̄_c)(X̄_a − X̄_c)ᵀ
  for (Index a = 0; a < n; ++a)
    Apq += mass[a] * (current.segment<3>(3 * a) - xc) * (rest.row(a).transpose() - Xc).transpose();
  return polar_decomposition(Apq).R;
}

}  // namespace substruct::ddm
