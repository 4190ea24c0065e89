// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Eq. 6: the multipliers λ of the interface and user constraints, from
//     W λ = Σ_i B_i R_i A_i⁻¹ R_iᵀ f_i − c,   W = Σ_i B_i R_i A_i⁻¹ R_iᵀ B_iᵀ.
#include "interface_constraints.hpp"
#include "substruct/core/types.hpp"

namespace substruct::ddm {

/// R̂ G_bb R̂ᵀ, R̂ = diag(R, …, R): the boundary block of J_i = R_i G_i R_iᵀ (3×3 block by block).
void rotate_boundary_block(const Eigen::MatrixXd& G_bb, const Mat3& R, Eigen::MatrixXd& J_bb);

/// W += B_i J_bb B_iᵀ: block (r, s) gains sign_r sign_s J_bb(b_r, b_s) for every pair of the
/// domain's entries (3×3 blocks; W is 3m × 3m for m block rows).
void add_domain_block(const DomainCoupling& coupling, const Eigen::MatrixXd& J_bb,
                      Eigen::MatrixXd& W);

/// The lower block triangle of W += B_i R̂ G_bb R̂ᵀ B_iᵀ for a symmetric G_bb: block (r, s), r ≥ s,
/// gains sign_r sign_s R G_bb(b_r, b_s) Rᵀ, each rotated block computed once (half the work of
/// rotate_boundary_block + add_domain_block). The blocks above the diagonal are left untouched.
void add_rotated_domain_block_lower(const DomainCoupling& coupling, const Eigen::MatrixXd& G_bb,
                                    const Mat3& R, Eigen::MatrixXd& W);

}  // namespace substruct::ddm
