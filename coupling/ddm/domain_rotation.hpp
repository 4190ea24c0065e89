// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Eq. 4's R_i: the one rotation a sub-domain is tracked by.
#include "substruct/core/types.hpp"

namespace substruct::ddm {

/// The paper takes R_i from [Müller et al. 2002] without a formula. Here it is the rotation of
/// the mass-weighted least-squares fit of the rest positions X̄ onto the current ones x
/// (shape matching):
///     x̄_c = Σ m_a x_a / Σ m_a,  X̄_c likewise,  A_pq = Σ m_a (x_a − x̄_c)(X̄_a − X̄_c)ᵀ,
///     R = polar(A_pq).R,
/// so a rigid motion x = Q X̄ + t gives R = Q exactly. `current` is the 3n vector of x.
Mat3 best_fit_rotation(const Points& rest, const Eigen::VectorXd& current,
                       const Eigen::VectorXd& mass);

}  // namespace substruct::ddm
