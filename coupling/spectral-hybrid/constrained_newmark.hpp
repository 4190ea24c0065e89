// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Newmark's average-acceleration method (β = ¼, γ = ½) on decoupled spectral equations
//   q̈ + Ĉ q̇ + Λ q = f̂,   Ĉ = ξ I + ζ Λ   (Yang et al. 2010, Eq. 4, 8, 9, 12, 13),
// with linear constraints J q = c enforced by Lagrange multipliers (Eq. 14–16). Every region's
// M̂ = I, so A = I + γ h Ĉ + β h² Λ is diagonal and the saddle-point system of Eq. 16
//   [A Jᵀ; J 0] [q̈; μ] = [b; d],   b = f̂ − Ĉ q̃̇ − Λ q̃,
// reduces to the multipliers' Schur complement S = J A⁻¹ Jᵀ (m × m, symmetric positive definite
// for independent rows), factored once per time step size through a [solvers] linear solver:
//   S μ = J A⁻¹ b − d,   q̈ = A⁻¹ (b − Jᵀ μ).
#include <memory>

#include "substruct/core/types.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct::spectral_hybrid {

struct NewmarkState {
  Eigen::VectorXd q, qdot, qddot;
};

class ConstrainedNewmark {
 public:
  static constexpr double kBeta = 0.25, kGamma = 0.5;

  /// Λ of every stacked coordinate, Rayleigh's ξ (mass) and ζ (stiffness) factors, and the
  /// solver that factors S (not used when there are no constraints).
  ConstrainedNewmark(Eigen::VectorXd lambda, double xi, double zeta,
                     std::unique_ptr<LinearSolver> solver);

  /// A for step h and S = J A⁻¹ Jᵀ, factored (the pattern is analysed on the first call).
  /// Throws Error when S is not positive definite (dependent rows).
  void factor(const Eigen::MatrixXd& J, double h);
  double h() const { return h_; }

  /// Eq. 12: q̃ = q + h q̇ + ½h²(1 − 2β) q̈, q̃̇ = q̇ + (1 − γ) h q̈.
  void predict(const NewmarkState& s, Eigen::VectorXd& q_pred, Eigen::VectorXd& qdot_pred) const;

  /// Eq. 16 then Eq. 13: q̈ from the forces f̂ and the rows' acceleration targets J q̈ = d, with
  /// the predictors of predict(); then q = q̃ + βh² q̈, q̇ = q̃̇ + γh q̈. Uses J of factor().
  void solve(const Eigen::VectorXd& f_hat, const Eigen::VectorXd& q_pred,
             const Eigen::VectorXd& qdot_pred, const Eigen::VectorXd& d, NewmarkState& s);

 private:
  Eigen::VectorXd lambda_, c_, a_inv_;  // Λ, Ĉ diagonal, A⁻¹ diagonal
  std::unique_ptr<LinearSolver> solver_;
  Eigen::MatrixXd J_, JA_;  // J, J A⁻¹
  SparseMatrix S_;
  bool analysed_ = false;
  double h_ = 0;
  Eigen::VectorXd b_, rhs_, mu_;
};

}  // namespace substruct::spectral_hybrid
