// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The invertible compressible neo-Hookean element (MaterialModel::neohookean), with its exact
// tangent reachable for the tests.
#include "kernel_common.hpp"

namespace substruct::detail {

/// Principal stretches below ε continue ln σ by its second-order Taylor polynomial at ε (the
/// energy is exactly neo-Hookean while every σ_i ≥ ε).
inline constexpr double kInversionThreshold = 0.1;

/// exact: the Hessian of the (extended) energy; projected: its diagonal-space blocks clamped to
/// be positive semi-definite (Teran et al. 2005), what element_forces returns.
enum class Tangent { exact, projected };

/// Energy V Ψ(F), force f_a = V P ∇N_a and stiffness K (see element_kernels.hpp); outputs may be
/// null.
void neohookean_kernel(const Mat3& F, const Mat43& G, double V, double lambda, double mu,
                       Tangent tangent, double* energy, Vec12* force, Mat12* K);

}  // namespace substruct::detail
