// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/integrators/implicit_integrator.hpp"
#include "substruct/core/stopwatch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "detail/effective_matrix.hpp"
#include "substruct/core/error.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct {
namespace {

// When Newton stops (see IntegratorSettings): after each evaluation of the residual r at the
// current iterate, given the norms of the force terms in r, the norm of the correction that led
// to this iterate (< 0 before the first) and the size of the iterate's displacement increment.
class Convergence {
 public:
  Convergence(const IntegratorSettings& settings, double resolution)
      : settings_(settings), resolution_(resolution) {}

  bool done(double r_norm, std::initializer_list<double> forces, double correction,
            double increment, int solves, NewtonReport& report) {
    if (r0_ < 0) r0_ = r_norm;
    double scale = r0_;
    for (double f : forces) scale = std::max(scale, f);
    report.residual = scale > 0 ? r_norm / scale : 0.0;
    report.converged = false;
    if (!std::isfinite(report.residual)) return true;
    const double tol = settings_.newton_tolerance;
    // ‖r‖ ≤ tol · max(‖r₀‖, force terms), or the last correction moved u₊ by ≤ tol of its size
    // or by less than u₊ can be resolved (the residual then sits at the round-off floor of its
    // evaluation).
    if (report.residual <= tol ||
        (correction >= 0 && correction <= std::max(tol * increment, resolution_))) {
      report.converged = true;
      return true;
    }
    // Three corrections in a row without reducing the residual: round-off or divergence.
    stalled_ = previous_ >= 0 && r_norm >= previous_ ? stalled_ + 1 : 0;
    previous_ = r_norm;
    return stalled_ >= 3 || solves >= settings_.newton_max_iterations;
  }

 private:
  const IntegratorSettings& settings_;
  double resolution_;
  double r0_ = -1;
  double previous_ = -1;
  int stalled_ = 0;
};

}  // namespace

void check_integrator_settings(const IntegratorSettings& s) {
  if (!(s.newmark_beta > 0) || !std::isfinite(s.newmark_beta))
    throw Error(fmt::format("the Newmark β must be positive, got {}", s.newmark_beta));
  if (!(s.newmark_gamma >= 0.5) || !std::isfinite(s.newmark_gamma))
    throw Error(
        fmt::format("the Newmark γ must be at least ½ (smaller values amplify the motion), "
                    "got {}",
                    s.newmark_gamma));
  if (!(s.newton_tolerance > 0) || !std::isfinite(s.newton_tolerance))
    throw Error(fmt::format("the Newton tolerance must be positive, got {}", s.newton_tolerance));
  if (s.newton_max_iterations < 1)
    throw Error(fmt::format("the Newton iteration limit must be at least 1, got {}",
                            s.newton_max_iterations));
}

namespace {

void validate(const SecondOrderSystem& system) {
  if (system.mass.rows() != system.mass.cols())
    throw Error(fmt::format("the mass matrix must be square, got {}×{}", system.mass.rows(),
                            system.mass.cols()));
  if (!system.internal_forces) throw Error("the system has no internal-force function");
  if (!(system.rayleigh_mass >= 0) || !(system.rayleigh_stiffness >= 0))
    throw Error(
        fmt::format("Rayleigh damping coefficients must be non-negative, got α = {}, "
                    "β = {}",
                    system.rayleigh_mass, system.rayleigh_stiffness));
}

}  // namespace

TimeScheme parse_time_scheme(std::string_view name) {
  if (name == "newmark") return TimeScheme::newmark;
  if (name == "backward-euler") return TimeScheme::backward_euler;
  throw Error(
      fmt::format("unknown time integration scheme '{}': expected newmark or "
                  "backward-euler",
                  name));
}

std::string_view to_string(TimeScheme scheme) {
  return scheme == TimeScheme::newmark ? "newmark" : "backward-euler";
}

std::string newmark_description(double gamma, double beta) {
  if (gamma == 0.5 && beta == 0.25) return "trapezoidal Newmark (γ = ½, β = ¼)";
  return fmt::format("Newmark (γ = {:.3g}, β = {:.3g}{})", gamma, beta,
                     gamma > 0.5 ? ": numerical damping" : "");
}

std::string describe(const IntegratorSettings& settings) {
  return settings.scheme == TimeScheme::newmark
             ? newmark_description(settings.newmark_gamma, settings.newmark_beta)
             : std::string("backward Euler");
}

struct ImplicitIntegrator::Impl {
  SecondOrderSystem system;
  LinearSolver& solver;
  IntegratorSettings settings;
  DofMap dofs;
  detail::EffectiveMatrix A;

  Eigen::VectorXd u, v, a;  // state, n entries, fixed DOFs zero
  bool acceleration_known = false;
  double energy = 0;  // E(u)

  // Last evaluation: f_int and K at the displacement it was made at.
  Eigen::VectorXd f_int;
  SparseMatrix K;
  double evaluated_energy = 0;

  Impl(SecondOrderSystem s, LinearSolver& linear_solver, IntegratorSettings st)
      : system(std::move(s)), solver(linear_solver), settings(st) {}

  Index n() const { return system.num_dofs(); }

  void evaluate(const Eigen::VectorXd& at, NewtonReport& report) {
    const Clock::time_point start = Clock::now();
    system.internal_forces(at, &evaluated_energy, &f_int, &K);
    if (f_int.size() != n() || K.rows() != n() || K.cols() != n())
      throw Error(
          fmt::format("the internal-force function returned a force of {} entries and a "
                      "{}×{} stiffness for a system of {} DOFs",
                      f_int.size(), K.rows(), K.cols(), n()));
    report.assembly_seconds += seconds_since(start);
  }

  // D x = αM x + βK x with the last evaluated K.
  Eigen::VectorXd damping_force(const Eigen::VectorXd& x) const {
    Eigen::VectorXd d = Eigen::VectorXd::Zero(n());
    if (system.rayleigh_mass != 0) d += system.rayleigh_mass * (system.mass * x);
    if (system.rayleigh_stiffness != 0) d += system.rayleigh_stiffness * (K * x);
    return d;
  }

  // Solves (c_M M + c_K K) x = b on the free DOFs with the last evaluated K; returns x (n).
  Eigen::VectorXd solve(double c_M, double c_K, const Eigen::VectorXd& b_full,
                        NewtonReport& report) {
    Clock::time_point start = Clock::now();
    A.assemble(c_M, system.mass, c_K, K);
    report.assembly_seconds += seconds_since(start);

    start = Clock::now();
    solver.factorize(A.matrix());
    report.factorization_seconds += seconds_since(start);

    start = Clock::now();
    Eigen::VectorXd x;
    solver.solve(dofs.restrict_vector(b_full), x);
    report.solve_seconds += seconds_since(start);
    if (x.size() != dofs.num_free())
      throw Error(fmt::format("the linear solver returned {} entries for a system of {} unknowns",
                              x.size(), dofs.num_free()));
    return dofs.expand_vector(x);
  }

  // a = M⁻¹ (f_ext − D v − f_int(u)) on the free DOFs.
  void initial_acceleration(const Eigen::VectorXd& f_ext, NewtonReport& report) {
    evaluate(u, report);
    const Eigen::VectorXd b = f_ext - damping_force(v) - f_int;
    a = dofs.num_free() > 0 ? solve(1.0, 0.0, b, report) : Eigen::VectorXd::Zero(n());
    acceleration_known = true;
  }

  // The smallest correction of u that x = X + u resolves (second_order_system.hpp).
  double resolution() const {
    return 1000 * std::numeric_limits<double>::epsilon() * system.rest_position_norm;
  }

  double free_norm(const Eigen::VectorXd& full) const {
    double s = 0;
    for (Index dof : dofs.free_dofs()) s += full[dof] * full[dof];
    return std::sqrt(s);
  }

  NewtonReport step(double dt, const Eigen::VectorXd& f_ext) {
    if (!(dt > 0) || !std::isfinite(dt))
      throw Error(fmt::format("the time step must be positive, got {}", dt));
    check_size(f_ext, "external force");
    NewtonReport report;
    const bool newmark = settings.scheme == TimeScheme::newmark;
    if (newmark && !acceleration_known) initial_acceleration(f_ext, report);

    // a₊ = a_hat + c_a Δu,  v₊ = v_hat + c_v Δu;  predictor a₊ = a.
    double c_a, c_v;
    Eigen::VectorXd a_hat, v_hat, du;
    if (newmark) {
      const double beta = settings.newmark_beta, gamma = settings.newmark_gamma;
      c_a = 1 / (beta * dt * dt);
      c_v = gamma / (beta * dt);
      // a₊ = (Δu − dt v − dt²(½−β) a) / (β dt²)
      a_hat = -(dt * v + dt * dt * (0.5 - beta) * a) / (beta * dt * dt);
      // v₊ = v + dt((1−γ) a + γ a₊)
      v_hat = v + dt * (1 - gamma) * a + dt * gamma * a_hat;
    } else {
      c_a = 1 / (dt * dt);
      c_v = 1 / dt;
      // v₊ = Δu / dt,  a₊ = (v₊ − v) / dt
      v_hat = Eigen::VectorXd::Zero(n());
      a_hat = -v / dt;
    }
    // Newton starts from u₊ = u. Extrapolating with v and a is no better a guess for stiff
    // systems: a high-frequency component of amplitude ε carries a ~ ω²ε, and ½dt²a then
    // overshoots by (ωdt)²/2 ≫ 1, straining elements far enough to make StVK's tangent indefinite.
    du = Eigen::VectorXd::Zero(n());
    const double alpha = system.rayleigh_mass, beta_K = system.rayleigh_stiffness;
    // Newton's matrix A = c_a M + c_v (αM + βK) + K.
    const double c_M = c_a + c_v * alpha;
    const double c_K = 1 + c_v * beta_K;

    Convergence convergence(settings, resolution());
    Eigen::VectorXd a_new, v_new, correction;
    for (;;) {
      evaluate(u + du, report);
      a_new = a_hat + c_a * du;
      v_new = v_hat + c_v * du;
      // r = M a₊ + D v₊ + f_int(u₊) − f_ext
      const Eigen::VectorXd inertia = system.mass * a_new;
      const Eigen::VectorXd r = inertia + damping_force(v_new) + f_int - f_ext;
      const double r_norm = free_norm(r);
      const double increment = std::max(du.norm(), (u + du).norm());
      if (convergence.done(r_norm, {free_norm(inertia), free_norm(f_int), free_norm(f_ext)},
                           correction.size() > 0 ? correction.norm() : -1.0, increment,
                           report.iterations, report))
        break;
      correction = solve(c_M, c_K, r, report);
      du -= correction;
      ++report.iterations;
    }
    u += du;
    v = std::move(v_new);
    a = std::move(a_new);
    energy = evaluated_energy;
    acceleration_known = true;
    return report;
  }

  // Newton with a backtracking line search for f_int(x) = f from x; false when it fails (x is
  // then undefined). The step x − s c (c = K⁻¹ r, s = 1, ½, ¼ …) is taken when it lowers the
  // potential Π(x) = E(x) − fᵀx by Armijo's amount, Π(x − s c) ≤ Π(x) − 10⁻⁴ s rᵀc (−c descends
  // Π where K is positive definite), or else lowers ‖r‖ by as much; a correction below what
  // Newton would call converged is taken whole (both measures are then at round-off).
  bool newton_static(Eigen::VectorXd& x, const Eigen::VectorXd& f, NewtonReport& report,
                     std::string& problem) {
    constexpr int kMaxCuts = 12;
    constexpr double kArmijo = 1e-4;
    const Eigen::VectorXd x_start = x;
    Convergence convergence(settings, resolution());
    double moved = -1;  // ‖s c‖ of the last accepted step
    evaluate(x, report);
    for (int solves = 0;; ++solves) {
      const Eigen::VectorXd r = f_int - f;
      const double r_norm = free_norm(r);
      const double increment = std::max((x - x_start).norm(), x.norm());
      if (convergence.done(r_norm, {free_norm(f_int), free_norm(f), 0.0}, moved, increment, solves,
                           report))
        break;
      Eigen::VectorXd correction;
      try {
        correction = solve(0.0, 1.0, r, report);
      } catch (const Error& e) {
        problem = e.what();
        return false;
      }
      ++report.iterations;
      const double potential = evaluated_energy - f.dot(x);
      const double descent = r.dot(correction);  // −dΠ/ds at s = 0
      const bool negligible =
          correction.norm() <= std::max(settings.newton_tolerance * increment, resolution());
      double step = 1;
      Eigen::VectorXd trial;
      for (int cut = 0;; ++cut, step /= 2) {
        if (cut > kMaxCuts) {
          problem = fmt::format(
              "the line search found no decrease of the potential or the residual in {} "
              "halvings (relative residual {:.3g})",
              kMaxCuts, report.residual);
          return false;
        }
        trial = x - step * correction;
        evaluate(trial, report);
        const double trial_r = free_norm(f_int - f);
        const double trial_potential = evaluated_energy - f.dot(trial);
        if (!std::isfinite(trial_r) || !std::isfinite(trial_potential)) continue;
        const bool lower_potential =
            descent > 0 && trial_potential <= potential - kArmijo * step * descent;
        const bool lower_residual = trial_r <= (1 - kArmijo * step) * r_norm;
        if (negligible || lower_potential || lower_residual) {
          report.step_cuts += cut;
          break;
        }
      }
      moved = step * correction.norm();
      x = std::move(trial);  // f_int, K and the energy are those of x now
    }
    if (!report.converged)
      problem = fmt::format("Newton did not converge (relative residual {:.3g})", report.residual);
    return report.converged;
  }

  NewtonReport static_equilibrium(const Eigen::VectorXd& f_ext, int max_load_steps) {
    check_size(f_ext, "external force");
    NewtonReport report;
    evaluate(u, report);
    // Load path f(λ) = f₀ + λ (f_ext − f₀), f₀ = f_int(u): u is in equilibrium at λ = 0.
    const Eigen::VectorXd f0 = f_int;
    double lambda = 0, increment = 1;
    int attempts = 0;
    std::string problem;
    while (lambda < 1) {
      if (attempts >= max_load_steps)
        throw Error(
            fmt::format("static equilibrium not reached: after {} load increments the "
                        "load factor is {:.6g} of 1 (last failure: {})",
                        attempts, lambda, problem));
      ++attempts;
      const double target = std::min(1.0, lambda + increment);
      Eigen::VectorXd x = u;
      if (newton_static(x, f0 + target * (f_ext - f0), report, problem)) {
        u = std::move(x);
        lambda = target;
        ++report.load_steps;
        increment *= 2;
      } else {
        increment /= 2;
      }
    }
    report.converged = true;
    // The last evaluation was at the accepted u.
    energy = evaluated_energy;
    v.setZero();
    a.setZero();
    acceleration_known = false;
    return report;
  }

  void check_size(const Eigen::VectorXd& x, const char* what) const {
    if (x.size() != n())
      throw Error(
          fmt::format("the {} has {} entries, the system has {} DOFs", what, x.size(), n()));
  }

  void zero_fixed(Eigen::VectorXd& x) const {
    for (Index dof = 0; dof < n(); ++dof)
      if (dofs.is_fixed(dof)) x[dof] = 0;
  }
};

ImplicitIntegrator::ImplicitIntegrator(SecondOrderSystem system, LinearSolver& solver,
                                       IntegratorSettings settings) {
  check_integrator_settings(settings);
  validate(system);
  impl_ = std::make_unique<Impl>(std::move(system), solver, settings);
  Impl& m = *impl_;
  m.dofs = DofMap(m.n(), m.system.fixed_dofs);
  m.u = Eigen::VectorXd::Zero(m.n());
  m.v = Eigen::VectorXd::Zero(m.n());
  m.a = Eigen::VectorXd::Zero(m.n());
  NewtonReport ignored;
  m.evaluate(m.u, ignored);
  m.energy = m.evaluated_energy;
  m.A = detail::EffectiveMatrix(m.system.mass, m.K, m.dofs);
  if (m.dofs.num_free() > 0) m.solver.analyze(m.A.matrix(), MatrixProperties{});
}

ImplicitIntegrator::~ImplicitIntegrator() = default;

void ImplicitIntegrator::set_state(const Eigen::VectorXd& u, const Eigen::VectorXd& v) {
  Impl& m = *impl_;
  Eigen::VectorXd new_u = u.size() == 0 ? Eigen::VectorXd::Zero(m.n()) : u;
  Eigen::VectorXd new_v = v.size() == 0 ? Eigen::VectorXd::Zero(m.n()) : v;
  m.check_size(new_u, "displacement");
  m.check_size(new_v, "velocity");
  m.zero_fixed(new_u);
  m.zero_fixed(new_v);
  m.u = std::move(new_u);
  m.v = std::move(new_v);
  m.a.setZero();
  m.acceleration_known = false;
  m.system.internal_forces(m.u, &m.energy, nullptr, nullptr);
}

NewtonReport ImplicitIntegrator::step(double dt, const Eigen::VectorXd& f_ext) {
  return impl_->step(dt, f_ext);
}

NewtonReport ImplicitIntegrator::static_equilibrium(const Eigen::VectorXd& f_ext,
                                                    int max_load_steps) {
  return impl_->static_equilibrium(f_ext, max_load_steps);
}

const Eigen::VectorXd& ImplicitIntegrator::displacement() const {
  return impl_->u;
}
const Eigen::VectorXd& ImplicitIntegrator::velocity() const {
  return impl_->v;
}
const Eigen::VectorXd& ImplicitIntegrator::acceleration() const {
  return impl_->a;
}

double ImplicitIntegrator::kinetic_energy() const {
  // T = ½ vᵀ M v
  return 0.5 * impl_->v.dot(impl_->system.mass * impl_->v);
}

double ImplicitIntegrator::elastic_energy() const {
  return impl_->energy;
}

const SecondOrderSystem& ImplicitIntegrator::system() const {
  return impl_->system;
}
const DofMap& ImplicitIntegrator::dofs() const {
  return impl_->dofs;
}
const IntegratorSettings& ImplicitIntegrator::settings() const {
  return impl_->settings;
}

}  // namespace substruct
