// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The energy-consistent elastic force of an implicit step (Gonzalez 1996, "Time integration and
// discrete Hamiltonian systems"; Simo & Tarnow 1992). The midpoint rule's f(q_½) does not keep the
// energy of a nonlinear elastic force (StVK's, stiffening as it deforms, gains it on large
// steps); the discrete gradient
//   f̄ = f(q_½) + [(W(q₊) − W(q) − f(q_½)·Δq) / (ΔqᵀMΔq)] M Δq,   Δq = q₊ − q,
// does: f̄·Δq = W(q₊) − W(q) exactly, so the elastic force's work over a step is the change of
// the elastic energy whatever the step's size. It differs from f(q_½) by O(|Δq|²).
#include <Eigen/Core>

namespace substruct::inertia {

/// f̄ − f(q_½) = c M Δq, c = (W₊ − W − f_mid·Δq) / (ΔqᵀMΔq), for a step Δq from elastic energy W
/// to W₊, with f_mid the force at the step's midpoint and M a symmetric positive definite
/// metric (the modal mass). A step that takes its force at another point q_θ and adds this
/// correction does the work W₊ − W + (f(q_θ) − f_mid)·Δq: the θ-rule's damping, no more.
/// Zero when ΔqᵀMΔq ≤ 10⁻¹⁶ `scale` (a step so short that the quotient is round-off; f_mid is the
/// discrete gradient to that order), with `scale` qᵀMq at the step's start.
Eigen::VectorXd discrete_gradient_correction(double W, double W_next, const Eigen::VectorXd& f_mid,
                                             const Eigen::VectorXd& dq, const Eigen::MatrixXd& M,
                                             double scale);

}  // namespace substruct::inertia
