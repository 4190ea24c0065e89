// SPDX-License-Identifier: GPL-3.0-or-later
// Implicit Newmark and backward Euler on systems with known solutions.
#include <cmath>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Dense>
#include <Eigen/SparseCholesky>

#include "substruct/core/error.hpp"
#include "substruct/integrators/implicit_integrator.hpp"
#include "substruct/solvers/linear_solver.hpp"
#include "support/eigen_cholesky.hpp"

namespace substruct {
namespace {

using std::numbers::pi;

using testing::EigenCholesky;

SparseMatrix sparse(const Eigen::MatrixXd& dense) {
  return dense.sparseView();
}

SecondOrderSystem oscillator(double m, double k, double alpha = 0, double beta = 0) {
  SecondOrderSystem s;
  s.mass = sparse(Eigen::MatrixXd::Constant(1, 1, m));
  s.internal_forces = linear_internal_forces(sparse(Eigen::MatrixXd::Constant(1, 1, k)));
  s.rayleigh_mass = alpha;
  s.rayleigh_stiffness = beta;
  return s;
}

Eigen::VectorXd scalar(double x) {
  return Eigen::VectorXd::Constant(1, x);
}

// Times of the downward zero crossings of a sampled signal (linear interpolation).
std::vector<double> downward_crossings(const std::vector<double>& x, double dt) {
  std::vector<double> t;
  for (std::size_t i = 1; i < x.size(); ++i)
    if (x[i - 1] > 0 && x[i] <= 0)
      t.push_back(dt * (static_cast<double>(i - 1) + x[i - 1] / (x[i - 1] - x[i])));
  return t;
}

// Undamped m ü + k u = 0 from u = A, v = 0. The trapezoidal rule's discrete solution is
// u_n = A cos(Ω n dt), v_n = −A ω sin(Ω n dt) with tan(Ω dt / 2) = ω dt / 2: the amplitude is kept
// exactly and the period is lengthened by (ω dt)²/12 to leading order.
TEST(ImplicitIntegrator, TrapezoidalNewmarkFollowsItsDiscreteSolution) {
  const double m = 2.0, k = 50.0, A = 0.1;
  const double omega = std::sqrt(k / m);
  const double dt = 0.2 / omega;  // ω dt = 0.2
  EigenCholesky solver;
  ImplicitIntegrator integrator(oscillator(m, k), solver);
  integrator.set_state(scalar(A), scalar(0));
  const double Omega = 2 / dt * std::atan(omega * dt / 2);
  const double energy0 = 0.5 * k * A * A;
  for (int n = 1; n <= 400; ++n) {
    const NewtonReport report = integrator.step(dt, scalar(0));
    ASSERT_TRUE(report.converged);
    const double t = n * dt;
    EXPECT_NEAR(integrator.displacement()[0], A * std::cos(Omega * t), 1e-12) << "step " << n;
    EXPECT_NEAR(integrator.velocity()[0], -A * omega * std::sin(Omega * t), 1e-11) << "step " << n;
    const double energy = integrator.kinetic_energy() + integrator.elastic_energy();
    EXPECT_NEAR(energy / energy0, 1.0, 1e-12) << "step " << n;
  }
  EXPECT_EQ(solver.analyses, 1);
}

// The measured period of the trapezoidal rule exceeds the exact one by (ω dt)²/12 (leading order).
TEST(ImplicitIntegrator, TrapezoidalPeriodErrorIsOmegaDtSquaredOverTwelve) {
  const double m = 1.0, k = 4 * pi * pi;  // T = 1 s
  const double omega = 2 * pi, T = 1.0;
  for (double omega_dt : {0.1, 0.2, 0.4}) {
    const double dt = omega_dt / omega;
    EigenCholesky solver;
    ImplicitIntegrator integrator(oscillator(m, k), solver);
    integrator.set_state(scalar(1.0), scalar(0));
    std::vector<double> u{1.0};
    const int steps = static_cast<int>(std::ceil(20.5 * T / dt));
    for (int n = 0; n < steps; ++n) {
      integrator.step(dt, scalar(0));
      u.push_back(integrator.displacement()[0]);
    }
    const std::vector<double> t = downward_crossings(u, dt);
    ASSERT_GE(t.size(), 20u);
    const double period = (t.back() - t.front()) / static_cast<double>(t.size() - 1);
    const double error = period / T - 1;
    const double predicted = omega_dt * omega_dt / 12;
    EXPECT_NEAR(error / predicted, 1.0, 0.02)
        << "ω dt = " << omega_dt << ": period error " << error << ", (ω dt)²/12 = " << predicted;
  }
}

// Backward Euler on the undamped oscillator: (ω u, v) is rotated and scaled by 1/√(1 + (ω dt)²)
// per step, so the energy falls by exactly 1/(1 + (ω dt)²) per step.
TEST(ImplicitIntegrator, BackwardEulerDampsEnergyByItsKnownFactor) {
  const double m = 3.0, k = 12.0;
  const double omega = std::sqrt(k / m);
  for (double omega_dt : {0.05, 0.3, 1.0}) {
    const double dt = omega_dt / omega;
    EigenCholesky solver;
    IntegratorSettings settings;
    settings.scheme = TimeScheme::backward_euler;
    ImplicitIntegrator integrator(oscillator(m, k), solver, settings);
    integrator.set_state(scalar(0.2), scalar(-0.7));
    double energy = integrator.kinetic_energy() + integrator.elastic_energy();
    const double factor = 1 / (1 + omega_dt * omega_dt);
    for (int n = 0; n < 50; ++n) {
      integrator.step(dt, scalar(0));
      const double next = integrator.kinetic_energy() + integrator.elastic_energy();
      EXPECT_NEAR(next / energy, factor, 1e-12) << "ω dt = " << omega_dt << ", step " << n;
      energy = next;
    }
  }
}

// Rayleigh damping D = αM + βK: the free decay u = A e^{−ζωt}(cos ω_d t + ζω/ω_d sin ω_d t),
// ζ = (α/ω + βω)/2, ω_d = ω√(1−ζ²), is followed within the scheme's O((ω dt)²) error.
TEST(ImplicitIntegrator, NewmarkFollowsRayleighDampedDecay) {
  const double m = 1.5, k = 600.0, alpha = 0.8, beta = 2e-3, A = 0.05;
  const double omega = std::sqrt(k / m);
  const double zeta = 0.5 * (alpha / omega + beta * omega);
  const double omega_d = omega * std::sqrt(1 - zeta * zeta);
  const double dt = 0.02 / omega;
  EigenCholesky solver;
  ImplicitIntegrator integrator(oscillator(m, k, alpha, beta), solver);
  integrator.set_state(scalar(A), scalar(0));
  double worst = 0;
  for (int n = 1; n <= 1000; ++n) {  // about 3 periods
    integrator.step(dt, scalar(0));
    const double t = n * dt;
    const double exact = A * std::exp(-zeta * omega * t) *
                         (std::cos(omega_d * t) + zeta * omega / omega_d * std::sin(omega_d * t));
    worst = std::max(worst, std::abs(integrator.displacement()[0] - exact));
  }
  EXPECT_LT(worst, 1e-3 * A) << "ζ = " << zeta;
}

// A chain wall–m–m–m of springs k₁, k₂, k₃ with the wall as a fixed DOF: u = K⁻¹ f on the
// free DOFs, and the integrator factors with one analysis.
TEST(ImplicitIntegrator, StaticEquilibriumOfALinearSystemIsKInverseF) {
  const double k1 = 100, k2 = 250, k3 = 40;
  Eigen::MatrixXd K(4, 4);
  K << k1, -k1, 0, 0,        //
      -k1, k1 + k2, -k2, 0,  //
      0, -k2, k2 + k3, -k3,  //
      0, 0, -k3, k3;
  SecondOrderSystem system;
  system.mass = sparse(Eigen::Vector4d(1, 1, 2, 3).asDiagonal().toDenseMatrix());
  system.internal_forces = linear_internal_forces(sparse(K));
  system.fixed_dofs = {0};
  EigenCholesky solver;
  ImplicitIntegrator integrator(system, solver);
  const Eigen::Vector4d f(123.0, 5.0, -2.0, 7.5);  // the wall's entry is a reaction: ignored
  const NewtonReport report = integrator.static_equilibrium(f);
  EXPECT_TRUE(report.converged);
  EXPECT_EQ(report.load_steps, 1);
  const Eigen::Vector3d expected = K.bottomRightCorner(3, 3).ldlt().solve(f.tail(3));
  EXPECT_EQ(integrator.displacement()[0], 0.0);
  EXPECT_LT((integrator.displacement().tail(3) - expected).norm(), 1e-12 * expected.norm());
  EXPECT_EQ(solver.analyses, 1);
  EXPECT_EQ(solver.factorizations, report.iterations);
  EXPECT_EQ(integrator.dofs().num_free(), 3);
}

// A hardening spring f_int = k(u + u³/c²), E = k(u²/2 + u⁴/(4c²)).
SecondOrderSystem hardening_spring(double k, double c) {
  SecondOrderSystem system;
  system.mass = sparse(Eigen::MatrixXd::Identity(1, 1));
  system.internal_forces = [k, c](const Eigen::VectorXd& u, double* energy, Eigen::VectorXd* force,
                                  SparseMatrix* stiffness) {
    const double x = u[0];
    if (energy) *energy = k * (x * x / 2 + x * x * x * x / (4 * c * c));
    if (force) *force = scalar(k * (x + x * x * x / (c * c)));
    if (stiffness)
      *stiffness = sparse(Eigen::MatrixXd::Constant(1, 1, k * (1 + 3 * x * x / (c * c))));
  };
  return system;
}

// From u = 0 the first Newton step for F = 500 lands at u = F/k = 50, 60 times past the
// solution u ≈ 0.79, from where plain Newton creeps back by about a third per iteration (about 14
// iterations). The line search cuts that step (the potential E − F u rises there) and Newton
// converges within 5 iterations, in one load step.
TEST(ImplicitIntegrator, StaticEquilibriumCutsNewtonStepsThatOvershoot) {
  const double k = 10.0, c = 0.1, F = 500.0;
  IntegratorSettings settings;
  settings.newton_tolerance = 1e-12;
  EigenCholesky solver;
  ImplicitIntegrator integrator(hardening_spring(k, c), solver, settings);
  const NewtonReport report = integrator.static_equilibrium(scalar(F));
  const double u = integrator.displacement()[0];
  EXPECT_NEAR(k * (u + u * u * u / (c * c)), F, 1e-9 * F);
  EXPECT_EQ(report.load_steps, 1);
  EXPECT_GE(report.step_cuts, 4);  // 50 → 50/2⁴ or less
  EXPECT_LE(report.iterations, 5);
}

// With too few iterations allowed for the whole load, the load is applied in increments and
// still reaches equilibrium.
TEST(ImplicitIntegrator, StaticEquilibriumStepsTheLoadWhenNewtonFails) {
  const double k = 10.0, c = 0.1, F = 5e4;
  const SecondOrderSystem system = hardening_spring(k, c);
  IntegratorSettings settings;
  settings.newton_max_iterations = 5;
  settings.newton_tolerance = 1e-12;
  EigenCholesky solver;
  ImplicitIntegrator integrator(system, solver, settings);
  const NewtonReport report = integrator.static_equilibrium(scalar(F));
  const double u = integrator.displacement()[0];
  EXPECT_GT(report.load_steps, 1);
  EXPECT_NEAR(k * (u + u * u * u / (c * c)), F, 1e-9 * F);
  EXPECT_EQ(integrator.velocity()[0], 0.0);

  // With a single attempt allowed, the same problem is refused with the reason.
  ImplicitIntegrator strict(system, solver, settings);
  EXPECT_THROW(strict.static_equilibrium(scalar(F), 1), Error);
}

// The nonlinear spring under dynamics: Newton converges (quadratically) to the tolerance, and the
// trapezoidal rule's energy error per step is the trapezoidal quadrature error of ∫f_int du.
TEST(ImplicitIntegrator, NewmarkEnergyChangeIsTheQuadratureErrorOfTheInternalWork) {
  const double k = 10.0, c = 0.1;
  auto E = [&](double x) { return k * (x * x / 2 + x * x * x * x / (4 * c * c)); };
  auto f = [&](double x) { return k * (x + x * x * x / (c * c)); };
  SecondOrderSystem system;
  system.mass = sparse(Eigen::MatrixXd::Identity(1, 1));
  system.internal_forces = [&](const Eigen::VectorXd& u, double* energy, Eigen::VectorXd* force,
                               SparseMatrix* stiffness) {
    const double x = u[0];
    if (energy) *energy = E(x);
    if (force) *force = scalar(f(x));
    if (stiffness)
      *stiffness = sparse(Eigen::MatrixXd::Constant(1, 1, k * (1 + 3 * x * x / (c * c))));
  };
  IntegratorSettings settings;
  settings.newton_tolerance = 1e-11;
  EigenCholesky solver;
  ImplicitIntegrator integrator(system, solver, settings);
  integrator.set_state(scalar(0.3), scalar(0));
  const double dt = 0.002;
  double energy = integrator.kinetic_energy() + integrator.elastic_energy();
  const double energy0 = energy;
  for (int n = 0; n < 200; ++n) {
    const double u0 = integrator.displacement()[0];
    const NewtonReport report = integrator.step(dt, scalar(0));
    ASSERT_TRUE(report.converged) << "step " << n << " residual " << report.residual << " after "
                                  << report.iterations;
    EXPECT_LE(report.iterations, 6);
    const double u1 = integrator.displacement()[0];
    // ΔE = E(u₊) − E(u) − ½ Δu (f(u) + f(u₊)) exactly, for β = ¼, γ = ½ and f_ext = 0.
    const double quadrature_error = E(u1) - E(u0) - 0.5 * (u1 - u0) * (f(u0) + f(u1));
    const double next = integrator.kinetic_energy() + integrator.elastic_energy();
    EXPECT_NEAR(next - energy, quadrature_error, 1e-10 * energy0) << "step " << n;
    energy = next;
  }
}

// An internal force whose evaluation carries round-off-like noise of size η in a stiff direction
// (as FEM forces do: the noise sits in the stiff, high-frequency modes). The residual cannot go
// below η, but the corrections it causes are η/k_stiff: Newton stops on the correction size.
TEST(ImplicitIntegrator, NewtonStopsWhenTheCorrectionIsBelowTolerance) {
  const double soft = 1.0, stiff = 1e9, eta = 1e-4;
  SecondOrderSystem system;
  system.mass = sparse(Eigen::MatrixXd::Identity(2, 2));
  system.internal_forces = [&](const Eigen::VectorXd& u, double* energy, Eigen::VectorXd* force,
                               SparseMatrix* stiffness) {
    // E = ½ soft u₀² + ¼ soft u₀⁴ + ½ stiff u₁², plus noise η cos(10¹² u₀ + 10¹³ u₁) on f₁
    // (it changes with every correction of u₁, which are about η / stiff = 10⁻¹³)
    if (energy)
      *energy =
          0.5 * soft * u[0] * u[0] + 0.25 * soft * std::pow(u[0], 4) + 0.5 * stiff * u[1] * u[1];
    if (force)
      *force = Eigen::Vector2d(soft * (u[0] + std::pow(u[0], 3)),
                               stiff * u[1] + eta * std::cos(1e12 * u[0] + 1e13 * u[1]));
    if (stiffness) {
      Eigen::Matrix2d K;
      K << soft * (1 + 3 * u[0] * u[0]), 0, 0, stiff;
      *stiffness = sparse(K);
    }
  };
  EigenCholesky solver;
  ImplicitIntegrator integrator(system, solver);  // tolerance 1e-8
  const Eigen::Vector2d f(2.0, 0.0);              // u₀ + u₀³ = 2: u₀ = 1
  const NewtonReport report = integrator.static_equilibrium(f);
  EXPECT_TRUE(report.converged);
  EXPECT_EQ(report.load_steps, 1);
  EXPECT_LE(report.iterations, 8);
  EXPECT_GT(report.residual, 1e-6);  // the noise floor: η / ‖f‖ (or more)
  EXPECT_NEAR(integrator.displacement()[0], 1.0, 1e-8);
  EXPECT_NEAR(integrator.displacement()[1], 0.0, 2 * eta / stiff);
}

// At rest without loads the residual is pure evaluation noise (f_int(0) ≠ 0 in floating point);
// corrections below what x = X + u resolves (1000 ε ‖X‖) end Newton at once.
TEST(ImplicitIntegrator, NewtonStopsAtTheResolutionOfThePositions) {
  const double eta = 1e-13;
  SecondOrderSystem system;
  system.mass = sparse(Eigen::MatrixXd::Identity(2, 2));
  system.internal_forces = [&](const Eigen::VectorXd& u, double* energy, Eigen::VectorXd* force,
                               SparseMatrix* stiffness) {
    if (energy) *energy = u.squaredNorm();
    if (force)
      *force = 2 * u + eta * Eigen::Vector2d(std::cos(1e17 * u[0]), std::sin(3e17 * u[1] + 1));
    if (stiffness) *stiffness = sparse(2 * Eigen::MatrixXd::Identity(2, 2));
  };
  system.rest_position_norm = 1.0;  // resolves corrections down to ~2e-13
  EigenCholesky solver;
  ImplicitIntegrator integrator(system, solver);
  for (int n = 0; n < 5; ++n) {
    const NewtonReport report = integrator.step(0.01, Eigen::Vector2d::Zero());
    EXPECT_TRUE(report.converged) << "step " << n;
    EXPECT_EQ(report.iterations, 1) << "step " << n;
  }
  EXPECT_LT(integrator.displacement().norm(), 1e-14);
}

TEST(ImplicitIntegrator, RejectsInvalidSettingsAndInputs) {
  EigenCholesky solver;
  IntegratorSettings bad;
  bad.newmark_gamma = 0.4;
  EXPECT_THROW(ImplicitIntegrator(oscillator(1, 1), solver, bad), Error);
  bad = {};
  bad.newton_max_iterations = 0;
  EXPECT_THROW(ImplicitIntegrator(oscillator(1, 1), solver, bad), Error);
  ImplicitIntegrator integrator(oscillator(1, 1), solver);
  EXPECT_THROW(integrator.step(-0.1, scalar(0)), Error);
  EXPECT_THROW(integrator.step(0.1, Eigen::VectorXd::Zero(2)), Error);
  EXPECT_THROW(integrator.set_state(Eigen::VectorXd::Zero(3), {}), Error);
  EXPECT_EQ(parse_time_scheme("backward-euler"), TimeScheme::backward_euler);
  EXPECT_THROW(parse_time_scheme("euler"), Error);
}

}  // namespace
}  // namespace substruct
