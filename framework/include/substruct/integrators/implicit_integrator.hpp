// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Implicit time integration of a full-space second-order system (second_order_system.hpp) with
/// Newton iterations: implicit Newmark and backward Euler, and static equilibrium.
///
/// Each step solves, for u₊ = u + Δu at t + dt,
///     r(Δu) = M a₊ + D v₊ + f_int(u₊) − f_ext = 0,   D = αM + βK(u₊),
/// where a₊ and v₊ are the scheme's affine functions of Δu:
///   Newmark (β_N, γ):  u₊ = u + dt v + dt²((½−β_N) a + β_N a₊),  v₊ = v + dt((1−γ) a + γ a₊)
///                      ⇒ a₊ = (Δu − dt v − dt²(½−β_N) a) / (β_N dt²)
///   backward Euler:    v₊ = Δu / dt,  a₊ = (v₊ − v) / dt.
/// Newton's matrix is A = ∂a₊/∂Δu M + ∂v₊/∂Δu D + K(u₊) (the derivative of K in βK v₊ is left
/// out, as in Vega); fixed DOFs are removed, so A is SPD for SPD M and K. The linear solver
/// analyses A's pattern once and factors A at every Newton iteration.
#include <memory>
#include <string>
#include <string_view>

#include "substruct/core/types.hpp"
#include "substruct/integrators/dof_map.hpp"
#include "substruct/integrators/second_order_system.hpp"

namespace substruct {

class LinearSolver;

enum class TimeScheme { newmark, backward_euler };

/// "newmark" | "backward-euler"; anything else throws Error listing both.
TimeScheme parse_time_scheme(std::string_view name);
std::string_view to_string(TimeScheme scheme);

/// Newmark's scheme in words for a report: "trapezoidal Newmark (γ = ½, β = ¼)" for the
/// energy-conserving rule, else "Newmark (γ = 0.55, β = 0.276: numerical damping)" or the like.
std::string newmark_description(double gamma, double beta);

struct IntegratorSettings {
  TimeScheme scheme = TimeScheme::newmark;
  double newmark_beta = 0.25;  // β_N = ¼, γ = ½: the trapezoidal rule (average acceleration)
  double newmark_gamma = 0.5;
  /// Newton has converged when ‖r‖ ≤ tolerance · max(‖r₀‖, ‖M a₊‖, ‖f_int(u₊)‖, ‖f_ext‖) on
  /// the free DOFs (r₀: the residual of the predictor a₊ = a), or when its last correction moved
  /// u₊ by at most tolerance · max(‖Δu‖, ‖u₊‖), or by less than u₊ is resolved
  /// (SecondOrderSystem::rest_position_norm): the residual then sits at the round-off floor of
  /// f_int. It gives up after max_iterations linear solves, or after three corrections in a row
  /// that did not reduce ‖r‖.
  double newton_tolerance = 1e-8;
  int newton_max_iterations = 20;
};

/// Throws Error when the settings are out of range (β_N > 0, γ ≥ ½, tolerance > 0,
/// max_iterations ≥ 1).
void check_integrator_settings(const IntegratorSettings& settings);

/// The settings' scheme in words (newmark_description(), or "backward Euler").
std::string describe(const IntegratorSettings& settings);

/// How one step (or static solve) went, and where its time went.
struct NewtonReport {
  int iterations = 0;   // linear solves
  double residual = 0;  // final ‖r‖ relative to the force scale above
  bool converged = false;
  int load_steps = 0;           // static_equilibrium only: accepted load increments
  int step_cuts = 0;            // static_equilibrium only: halvings of Newton steps (line search)
  double assembly_seconds = 0;  // f_int, K and A
  double factorization_seconds = 0;
  double solve_seconds = 0;
};

class ImplicitIntegrator {
 public:
  /// Checks the settings (check_integrator_settings) and the system, evaluates K(0) for its pattern
  /// and analyses A's pattern with `solver`, which must outlive the integrator. The state starts at
  /// rest (u = v = 0).
  ImplicitIntegrator(SecondOrderSystem system, LinearSolver& solver,
                     IntegratorSettings settings = {});
  ~ImplicitIntegrator();
  ImplicitIntegrator(const ImplicitIntegrator&) = delete;
  ImplicitIntegrator& operator=(const ImplicitIntegrator&) = delete;

  /// Sets u and v (n entries each, empty = zero; entries of fixed DOFs are set to zero). The
  /// acceleration is then recomputed at the next step from the equation of motion under that
  /// step's forces: a = M⁻¹(f_ext − D v − f_int(u)) on the free DOFs.
  void set_state(const Eigen::VectorXd& u, const Eigen::VectorXd& v);

  /// Advances by dt with f_ext (n entries; those of fixed DOFs are ignored) at t + dt. Throws
  /// Error when the linear solver fails (e.g. A not positive definite). A step whose Newton
  /// iterations do not converge is kept; the report says so.
  NewtonReport step(double dt, const Eigen::VectorXd& f_ext);

  /// Solves f_int(u) = f_ext by Newton with a backtracking line search (on the potential
  /// Π(u) = E(u) − f_extᵀu, or on ‖r‖) from the current u, following the load path
  /// f(λ) = f₀ + λ (f_ext − f₀), f₀ = f_int(u_current), in increments that are halved when Newton
  /// fails (no convergence, non-finite residual or a non-positive-definite K) and doubled after
  /// a success. Sets u to the solution and v = 0. Throws Error when λ = 1 is not reached within
  /// `max_load_steps` attempts.
  NewtonReport static_equilibrium(const Eigen::VectorXd& f_ext, int max_load_steps = 64);

  /// The state (n entries; fixed DOFs zero). The acceleration is the last step's a₊ (zero before
  /// the first step after set_state()).
  const Eigen::VectorXd& displacement() const;
  const Eigen::VectorXd& velocity() const;
  const Eigen::VectorXd& acceleration() const;

  /// ½ vᵀ M v and E(u) of the current state.
  double kinetic_energy() const;
  double elastic_energy() const;

  const SecondOrderSystem& system() const;
  const DofMap& dofs() const;
  const IntegratorSettings& settings() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace substruct
