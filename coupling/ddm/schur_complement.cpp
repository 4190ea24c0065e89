// SPDX-License-Identifier: GPL-3.0-or-later
#include "schur_complement.hpp"

namespace substruct::ddm {

void rotate_boundary_block(const Eigen::MatrixXd& G_bb, const Mat3& R, Eigen::MatrixXd& J_bb) {
  const Index nb = static_cast<Index>(G_bb.rows() / 3);
  J_bb.resize(G_bb.rows(), G_bb.cols());
  for (Index j = 0; j < nb; ++j)
    for (Index i = 0; i < nb; ++i)
      J_bb.block<3, 3>(3 * i, 3 * j).noalias() = R * G_bb.block<3, 3>(3 * i, 3 * j) * R.transpose();
}

void add_domain_block(const DomainCoupling& coupling, const Eigen::MatrixXd& J_bb,
                      Eigen::MatrixXd& W) {
  for (const DomainCoupling::Entry& p : coupling.entries)
    for (const DomainCoupling::Entry& q : coupling.entries)
      W.block<3, 3>(3 * p.row, 3 * q.row) +=
          (p.sign * q.sign) * J_bb.block<3, 3>(3 * p.boundary, 3 * q.boundary);
}

void add_rotated_domain_block_lower(const DomainCoupling& coupling, const Eigen::MatrixXd& G_bb,
                                    const Mat3& R, Eigen::MatrixXd& W) {
  const Mat3 Rt = R.transpose();
  // entries are ordered by row: q ≤ p gives row_q ≤ row_p
  for (std::size_t p = 0; p < coupling.entries.size(); ++p) {
    const DomainCoupling::Entry& ep = coupling.entries[p];
    for (std::size_t q = 0; q <= p; ++q) {
      const DomainCoupling::Entry& eq = coupling.entries[q];
      const Mat3 G = G_bb.block<3, 3>(3 * ep.boundary, 3 * eq.boundary);
      W.block<3, 3>(3 * ep.row, 3 * eq.row).noalias() += (ep.sign * eq.sign) * (R * G * Rt);
    }
  }
}

}  // namespace substruct::ddm
