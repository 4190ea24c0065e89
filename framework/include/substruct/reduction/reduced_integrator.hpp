// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Implicit Newmark time stepping of a reduced model: r dense equations of motion.
#include "substruct/core/types.hpp"
#include "substruct/reduction/reduced_force_model.hpp"

namespace substruct {

struct ReducedNewmarkSettings {
  double beta = 0.25;  // β = ¼, γ = ½: the trapezoidal rule (average acceleration)
  double gamma = 0.5;
  /// Newton iterations per step (1, as in Vega's real-time stepping, solves the linearised step).
  int max_iterations = 1;
  /// Newton stops early once ‖R‖ ≤ tolerance · ‖R₀‖ (R₀ the residual at q₊ = q); 0 never stops
  /// early.
  double tolerance = 0;
  /// Rayleigh damping D = mass_damping M + stiffness_damping K(q).
  double mass_damping = 0;
  double stiffness_damping = 0;
  int domain = 0;  // named in DivergenceError
};

/// Integrates M q̈ + D q̇ + f(q) = f_ext, D = a M + b K(q) (Rayleigh), with implicit Newmark:
///   q₊ = q + dt q̇ + dt²((½ − β) q̈ + β q̈₊),   q̇₊ = q̇ + dt((1 − γ) q̈ + γ q̈₊).
/// Each Newton iteration evaluates f and K at the iterate q₊ (starting from q₊ = q), forms
///   R = M q̈₊ + D q̇₊ + f(q₊) − f_ext,   A = M/(β dt²) + γ/(β dt) D + K(q₊)
/// (q̈₊, q̇₊ the affine functions of q₊ above; the derivative of K in D q̇₊ is left out, as in
/// Vega), and solves A Δq = −R by a dense Cholesky factorisation (LDLᵀ when A is not positive
/// definite).
///
/// M is the identity (a mass-orthonormal basis, UᵀMU = I) unless given. The frequency scale α
/// (Zhao 2014, §4.6) replaces M by M/α and f, K by αf, αK, so every natural frequency becomes α
/// times as high (ω' = √(αk/(m/α)) = αω) and the amplitude after a given impulse is unchanged;
/// the Rayleigh damping uses the scaled M and K.
///
/// The force model must outlive the integrator. A step's workspace is per thread and per r, so an
/// integrator holds only its state (many small domains stay in cache); a step allocates nothing
/// after the first on a thread with that r (except for the LDLᵀ fallback), and neither does
/// ReducedStVKPolynomial after its first evaluation on a thread.
class ReducedNewmark {
 public:
  /// Unit mass. Throws Error for β ≤ 0, γ < ½, max_iterations < 1, tolerance < 0 or negative
  /// damping.
  explicit ReducedNewmark(const ReducedForceModel& forces, const ReducedNewmarkSettings& = {});
  /// Mass `mass` (r×r, symmetric positive definite). Throws Error when it is not r×r, not
  /// symmetric or not positive definite.
  ReducedNewmark(const ReducedForceModel& forces, const Eigen::MatrixXd& mass,
                 const ReducedNewmarkSettings& = {});

  int r() const { return forces_->r(); }
  const ReducedNewmarkSettings& settings() const { return settings_; }

  /// Replaces the mass matrix (r×r, symmetric positive definite: checked by the next step's
  /// factorisation, which throws DivergenceError when it fails), e.g. a mass that changes with the
  /// state (Barbič–Zhao 2011, Eq. 17: M_i + Σ_j M_ij). Takes effect at the next step; the state is
  /// kept. Throws Error when it is not r×r or not finite.
  void set_mass(const Eigen::MatrixXd& mass);

  /// Sets α > 0 (throws Error otherwise); takes effect at the next step, the state is kept.
  void set_frequency_scale(double alpha);
  double frequency_scale() const { return alpha_; }
  /// Sets s > 0 (throws Error otherwise): the internal forces and stiffness × s, the mass kept,
  /// as for Young's modulus × s (frequencies × √s); on top of α. Takes effect at the next step.
  void set_stiffness_scale(double s);
  double stiffness_scale() const { return stiffness_; }

  /// Sets q and q̇ (r entries each; empty = zero). The acceleration is recomputed at the next step
  /// from the equation of motion under that step's force: q̈ = M⁻¹(f_ext − D q̇ − f(q)).
  void set_state(const Eigen::VectorXd& q, const Eigen::VectorXd& velocity);

  /// Advances by dt > 0 under f_ext (r entries) held at t + dt; returns the Newton iterations
  /// (linear solves) made. With `load_stiffness` K_L (r×r, symmetric: the projected derivative of
  /// loads that follow the motion, such as contacts, loads/external_forces.hpp), the load over
  /// the step is f_ext − K_L (q₊ − q), K_L added to Newton's matrix; neither is scaled by α.
  /// Throws DivergenceError when the state stops being finite or Newton's matrix is singular,
  /// Error for wrong sizes or dt ≤ 0.
  int step(double dt, const Eigen::VectorXd& f_ext,
           const Eigen::MatrixXd* load_stiffness = nullptr);

  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& velocity() const { return v_; }
  const Eigen::VectorXd& acceleration() const { return a_; }
  long steps() const { return steps_; }

  /// ½ q̇ᵀ (M/α) q̇.
  double kinetic_energy() const;
  /// α s W(q), the scaled elastic energy (one force-model evaluation).
  double potential_energy() const;

 private:
  struct Workspace;
  static Workspace& workspace(int r);  // this thread's, for size r
  // rhs ← (a M/α + b αs K(q))⁻¹ rhs, the matrix's lower triangle already formed in the workspace
  void solve(double a, double b, const Eigen::VectorXd& q, Workspace& w, Eigen::VectorXd& rhs,
             const Eigen::MatrixXd* load_stiffness = nullptr) const;

  const ReducedForceModel* forces_;
  ReducedNewmarkSettings settings_;
  Eigen::MatrixXd mass_;  // unscaled M; empty for the identity
  double alpha_ = 1;
  double stiffness_ = 1;  // s
  Eigen::VectorXd q_, v_, a_;
  bool acceleration_known_ = false;
  long steps_ = 0;
};

}  // namespace substruct
