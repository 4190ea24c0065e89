// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/reduced_integrator.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>
#include <Eigen/Dense>

#include "../../framework/src/reduction/detail/dense_cholesky.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/reduction/reduced_stvk.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using std::numbers::pi;

// f(q) = K q, W = ½ qᵀKq.
class LinearForces : public ReducedForceModel {
 public:
  explicit LinearForces(Eigen::MatrixXd K) : ReducedForceModel(int(K.rows())), K_(std::move(K)) {}
  void evaluate(const Eigen::VectorXd& q, double* energy, Eigen::VectorXd* force,
                Eigen::MatrixXd* stiffness) const override {
    check_coordinates(q, "linear forces");
    if (energy) *energy = 0.5 * q.dot(K_ * q);
    if (force) *force = K_ * q;
    if (stiffness) *stiffness = K_;
  }

 private:
  Eigen::MatrixXd K_;
};

// A force that turns NaN once |q| exceeds 1.
class BrokenForces : public ReducedForceModel {
 public:
  BrokenForces() : ReducedForceModel(1) {}
  void evaluate(const Eigen::VectorXd& q, double* energy, Eigen::VectorXd* force,
                Eigen::MatrixXd* stiffness) const override {
    const double bad = std::abs(q[0]) > 1 ? std::numeric_limits<double>::quiet_NaN() : 1.0;
    if (energy) *energy = 0.5 * q[0] * q[0] * bad;
    if (force) *force = Eigen::VectorXd::Constant(1, q[0] * bad);
    if (stiffness) *stiffness = Eigen::MatrixXd::Constant(1, 1, bad);
  }
};

Eigen::MatrixXd diagonal(std::initializer_list<double> values) {
  Eigen::VectorXd d(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double v : values) d[i++] = v;
  return d.asDiagonal();
}

// The trapezoidal rule for one DOF, m q̈ + c q̇ + k q = f, as a first-order system z = (q, q̇):
//   z' = A z + g,  A = [0 1; −k/m −c/m],  g = (0, f/m),
//   (I − h/2 A) z₊ = (I + h/2 A) z + h g,
// which implicit Newmark with β = ¼, γ = ½ reproduces exactly on a linear system.
struct Trapezoid {
  Eigen::Matrix2d step_matrix;
  Eigen::Vector2d offset;
  Trapezoid(double m, double c, double k, double f, double h) {
    Eigen::Matrix2d A;
    A << 0, 1, -k / m, -c / m;
    const Eigen::Matrix2d left = Eigen::Matrix2d::Identity() - h / 2 * A;
    step_matrix = left.inverse() * (Eigen::Matrix2d::Identity() + h / 2 * A);
    offset = left.inverse() * Eigen::Vector2d(0, h * f / m);
  }
  Eigen::Vector2d operator()(const Eigen::Vector2d& z) const { return step_matrix * z + offset; }
};

TEST(ReducedNewmark, IsTheTrapezoidalRuleOnLinearSystems) {
  const Eigen::MatrixXd K = diagonal({4, 25, 100}), M = diagonal({1, 2, 0.5});
  const LinearForces forces(K);
  ReducedNewmarkSettings settings;
  settings.mass_damping = 0.1;
  settings.stiffness_damping = 0.01;
  ReducedNewmark newmark(forces, M, settings);
  const Eigen::Vector3d f(1, -2, 0.5), q0(0.1, 0, -0.2), v0(0, 0.3, 0.1);
  newmark.set_state(q0, v0);
  const double h = 0.01;
  std::vector<Trapezoid> exact;
  std::vector<Eigen::Vector2d> z;
  for (int i = 0; i < 3; ++i) {
    const double c = 0.1 * M(i, i) + 0.01 * K(i, i);
    exact.emplace_back(M(i, i), c, K(i, i), f[i], h);
    z.emplace_back(q0[i], v0[i]);
  }
  for (int n = 0; n < 300; ++n) {
    EXPECT_EQ(newmark.step(h, f), 1);
    for (int i = 0; i < 3; ++i) z[i] = exact[i](z[i]);
  }
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(newmark.q()[i], z[i][0], 1e-12 * (1 + std::abs(z[i][0])));
    EXPECT_NEAR(newmark.velocity()[i], z[i][1], 1e-12 * (1 + std::abs(z[i][1])));
  }
  EXPECT_EQ(newmark.steps(), 300);
}

// Undamped and unforced, the trapezoidal rule rotates the state by θ = 2 atan(ωh/2) per step:
// q_n = q₀ cos nθ + (q̇₀/ω) sin nθ exactly.
TEST(ReducedNewmark, UndampedOscillatorHasTheTrapezoidalPhase) {
  const double omega = 3, h = 0.05;
  const LinearForces forces(diagonal({omega * omega}));
  ReducedNewmark newmark(forces);
  newmark.set_state(Eigen::VectorXd::Constant(1, 0.2), Eigen::VectorXd::Constant(1, -0.6));
  const double theta = 2 * std::atan(omega * h / 2);
  for (int n = 1; n <= 400; ++n) {
    newmark.step(h, Eigen::VectorXd::Zero(1));
    const double q = 0.2 * std::cos(n * theta) - 0.6 / omega * std::sin(n * theta);
    ASSERT_NEAR(newmark.q()[0], q, 1e-12) << "step " << n;
  }
}

TEST(ReducedNewmark, ConservesEnergyWithoutDamping) {
  // Linear: the trapezoidal rule conserves ½q̇ᵀMq̇ + ½qᵀKq exactly.
  const LinearForces linear(diagonal({4, 400, 9}));
  ReducedNewmark newmark(linear, diagonal({1, 3, 0.5}));
  newmark.set_state(Eigen::Vector3d(0.1, -0.05, 0.3), Eigen::Vector3d(1, 0, -2));
  const double E0 = newmark.kinetic_energy() + newmark.potential_energy();
  for (int n = 0; n < 1000; ++n) newmark.step(0.02, Eigen::VectorXd::Zero(3));
  EXPECT_NEAR(newmark.kinetic_energy() + newmark.potential_energy(), E0, 1e-12 * E0);

  // Reduced StVK on a clamped box, large swings, Newton to convergence: the energy stays within
  // the scheme's O(dt²) oscillation, with no drift.
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.1, 0.1), 4, 1, 1);
  const SparseMatrix M = consistent_mass(mesh);
  std::mt19937_64 rng(3);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd U(3 * mesh.num_vertices(), 4);
  for (auto& x : U.reshaped()) x = normal(rng);
  for (Index v : mesh.vertex_sets.at("xmin")) U.middleRows<3>(3 * v).setZero();
  const Eigen::MatrixXd G = U.transpose() * (M * U);
  U = Eigen::LLT<Eigen::MatrixXd>(G).matrixL().solve(U.transpose()).transpose();  // UᵀMU = I
  const ReducedStVKPolynomial poly(mesh, U);
  ReducedNewmarkSettings settings;
  settings.max_iterations = 30;
  settings.tolerance = 1e-12;
  ReducedNewmark nonlinear(poly, settings);
  // An initial displacement of 2 cm at the tip region, at rest.
  Eigen::VectorXd q0 = Eigen::VectorXd::Constant(4, 1.0);
  double largest = 0;
  const Eigen::VectorXd u0 = U * q0;
  for (Eigen::Index v = 0; v < u0.size() / 3; ++v)
    largest = std::max(largest, u0.segment<3>(3 * v).norm());
  q0 *= 0.02 / largest;
  nonlinear.set_state(q0, Eigen::VectorXd());
  const double W0 = nonlinear.potential_energy();
  // The period of the fastest mode, to pick a step that resolves every mode.
  const Eigen::VectorXd eigenvalues =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(poly.stiffness(Eigen::VectorXd::Zero(4)))
          .eigenvalues();
  const double dt = 0.02 * 2 * pi / std::sqrt(eigenvalues.maxCoeff());
  double deviation = 0;
  int iterations = 0;
  for (int n = 0; n < 2000; ++n) {
    iterations += nonlinear.step(dt, Eigen::VectorXd::Zero(4));
    const double E = nonlinear.kinetic_energy() + nonlinear.potential_energy();
    deviation = std::max(deviation, std::abs(E - W0) / W0);
  }
  std::printf(
      "StVK box, r = 4: largest energy deviation %.2e over 2000 steps, %.1f Newton "
      "iterations per step\n",
      deviation, iterations / 2000.0);
  EXPECT_GT(iterations, 2000);  // Newton iterated
  EXPECT_LT(deviation, 2e-3);
}

// Newton to convergence solves the implicit step: M q̈₊ + D(q₊) q̇₊ + f(q₊) = f_ext.
TEST(ReducedNewmark, NewtonSolvesTheImplicitStep) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.1, 0.1), 4, 1, 1);
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd U(3 * mesh.num_vertices(), 3);
  for (auto& x : U.reshaped()) x = 1e-2 * normal(rng);
  for (Index v : mesh.vertex_sets.at("xmin")) U.middleRows<3>(3 * v).setZero();
  const ReducedStVKPolynomial poly(mesh, U);
  const Eigen::MatrixXd M = diagonal({2, 1, 1.5});
  ReducedNewmarkSettings settings;
  settings.max_iterations = 30;
  settings.tolerance = 1e-13;
  settings.mass_damping = 0.3;
  settings.stiffness_damping = 0.002;
  ReducedNewmark newmark(poly, M, settings);
  const Eigen::Vector3d f(300, -200, 100);
  const double dt = 1e-3;
  for (int n = 0; n < 20; ++n) {
    const int iterations = newmark.step(dt, f);
    EXPECT_GT(iterations, 1);
    EXPECT_LT(iterations, 30);
  }
  const Eigen::VectorXd q = newmark.q(), v = newmark.velocity(), a = newmark.acceleration();
  Eigen::VectorXd force;
  Eigen::MatrixXd K;
  poly.evaluate(q, nullptr, &force, &K);
  const Eigen::VectorXd residual = M * a + (0.3 * M + 0.002 * K) * v + force - f;
  EXPECT_LT(residual.norm(), 1e-8 * f.norm());
}

// Rayleigh damping D = αM + βK: the trapezoidal map T of each mode has det T = |λ|², so
// D_n = q_n q̇_{n+1} − q_{n+1} q̇_n shrinks by exactly det T per step, and det T^(1/h) tends to
// e^{−c/m} = e^{−2ζω}, ζ = (α/ω + βω)/2: log(det T)/h = −c/(1 + (ωh)²/4) + O(h²c³), a relative
// error of (ωh)²/4.
TEST(ReducedNewmark, RayleighDampingDecaysAtTheModalRate) {
  const double alpha = 0.4, beta = 0.002, h = 1e-3;
  const Eigen::Vector2d omega(5, 60);
  const LinearForces forces(diagonal({omega[0] * omega[0], omega[1] * omega[1]}));
  ReducedNewmarkSettings settings;
  settings.mass_damping = alpha;
  settings.stiffness_damping = beta;
  ReducedNewmark newmark(forces, settings);
  newmark.set_state(Eigen::Vector2d(0.1, 0.1), Eigen::Vector2d(0, 0));
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(2);
  newmark.step(h, zero);
  auto invariant = [&](int i, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    return q[i] * newmark.velocity()[i] - newmark.q()[i] * v[i];
  };
  Eigen::VectorXd q = newmark.q(), v = newmark.velocity();
  newmark.step(h, zero);
  const Eigen::Vector2d D0(invariant(0, q, v), invariant(1, q, v));
  const int N = 2000;
  for (int n = 0; n < N; ++n) {
    q = newmark.q();
    v = newmark.velocity();
    newmark.step(h, zero);
  }
  for (int i = 0; i < 2; ++i) {
    const double c = alpha + beta * omega[i] * omega[i];  // c/m, m = 1
    const double k = omega[i] * omega[i];
    const double det_T = (1 - h * c / 2 + h * h * k / 4) / (1 + h * c / 2 + h * h * k / 4);
    const double measured = invariant(i, q, v) / D0[i];
    EXPECT_NEAR(measured, std::pow(det_T, N), 1e-10 * std::pow(det_T, N));
    const double zeta = (alpha / omega[i] + beta * omega[i]) / 2;
    const double rate = std::log(measured) / (N * h);  // ≈ −2ζω
    const double discretisation = std::pow(omega[i] * h, 2) / 4;
    EXPECT_NEAR(rate, -2 * zeta * omega[i], 1.1 * discretisation * 2 * zeta * omega[i]);
  }
}

// Upward zero crossings of q(t), linearly interpolated; returns the mean period.
double measured_period(ReducedNewmark& newmark, double h, int steps, int component = 0) {
  std::vector<double> crossings;
  double previous = newmark.q()[component];
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(newmark.r());
  for (int n = 1; n <= steps; ++n) {
    newmark.step(h, zero);
    const double current = newmark.q()[component];
    if (previous < 0 && current >= 0)
      crossings.push_back((n - 1 + previous / (previous - current)) * h);
    previous = current;
  }
  return (crossings.back() - crossings.front()) / double(crossings.size() - 1);
}

// Zhao 2014, §4.6: K·α and M/α give ω' = √(αk/(m/α)) = αω, the period T/α. For the trapezoidal
// rule the exact discrete period is 2πh/θ, θ = 2 atan(ω'h/2) = ω'h (1 − (ω'h)²/12 + …).
TEST(ReducedNewmark, FrequencyScaleDividesThePeriod) {
  const double omega = 2 * pi, h = 1e-3;  // T = 1 s
  const LinearForces forces(diagonal({omega * omega}));
  for (double scale : {1.0, 2.0, 0.5, 3.7}) {
    ReducedNewmark newmark(forces, diagonal({1}));
    newmark.set_frequency_scale(scale);
    EXPECT_EQ(newmark.frequency_scale(), scale);
    newmark.set_state(Eigen::VectorXd::Constant(1, 0.1), Eigen::VectorXd());
    const double T = measured_period(newmark, h, static_cast<int>(6 / (scale * h)));
    const double theta = 2 * std::atan(scale * omega * h / 2);
    EXPECT_NEAR(T, 2 * pi * h / theta, 1e-7) << "α = " << scale;
    EXPECT_NEAR(T * scale, 1.0, 1.1 * std::pow(scale * omega * h, 2) / 12) << "α = " << scale;
  }
}

// The same on reduced StVK at small amplitude, and the scale is changed on a running integrator
// without rebuilding anything.
TEST(ReducedNewmark, FrequencyScaleAppliesToNonlinearModels) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.1, 0.1), 4, 1, 1);
  const SparseMatrix M = consistent_mass(mesh);
  std::mt19937_64 rng(8);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd U(3 * mesh.num_vertices(), 1);
  for (auto& x : U.reshaped()) x = normal(rng);
  for (Index v : mesh.vertex_sets.at("xmin")) U.middleRows<3>(3 * v).setZero();
  U /= std::sqrt((U.transpose() * (M * U))(0, 0));  // UᵀMU = 1
  const ReducedStVKPolynomial poly(mesh, U);
  const double omega = std::sqrt(poly.stiffness(Eigen::VectorXd::Zero(1))(0, 0));
  const double h = 2 * pi / omega / 400;
  ReducedNewmarkSettings settings;
  settings.max_iterations = 10;
  settings.tolerance = 1e-12;
  ReducedNewmark newmark(poly, settings);
  newmark.set_state(Eigen::VectorXd::Constant(1, 1e-6), Eigen::VectorXd());
  const double T1 = measured_period(newmark, h, 2000);
  newmark.set_frequency_scale(2);
  const double T2 = measured_period(newmark, h, 2000);
  newmark.set_frequency_scale(0.25);
  const double T4 = measured_period(newmark, h, 6000);
  EXPECT_NEAR(T1 * omega / (2 * pi), 1, 1e-4);
  EXPECT_NEAR(T2 / T1, 0.5, 1e-4);
  EXPECT_NEAR(T4 / T1, 4, 1e-3);
}

// A Newton matrix that is not positive definite (negative stiffness, long step) is solved by
// LDLᵀ: the step still matches the trapezoidal rule.
TEST(ReducedNewmark, IndefiniteNewtonMatrixIsSolved) {
  const double k = -900, h = 0.1;  // M/(βh²) + K = 400 − 900 < 0
  const LinearForces forces(diagonal({k}));
  ReducedNewmark newmark(forces);
  newmark.set_state(Eigen::VectorXd::Constant(1, 0.01), Eigen::VectorXd::Constant(1, 0.0));
  const Trapezoid exact(1, 0, k, 0, h);
  Eigen::Vector2d z(0.01, 0);
  for (int n = 0; n < 3; ++n) {
    newmark.step(h, Eigen::VectorXd::Zero(1));
    z = exact(z);
  }
  EXPECT_NEAR(newmark.q()[0], z[0], 1e-12 * std::abs(z[0]));
}

TEST(ReducedNewmark, ReportsDivergence) {
  const BrokenForces forces;
  ReducedNewmark newmark(forces);
  bool thrown = false;
  try {
    for (int n = 0; n < 100; ++n) newmark.step(0.1, Eigen::VectorXd::Constant(1, 50.0));
  } catch (const DivergenceError& e) {
    thrown = true;
    EXPECT_EQ(e.domain(), 0);
    EXPECT_GT(e.step(), 0);
  }
  EXPECT_TRUE(thrown);
}

TEST(ReducedNewmark, RejectsInvalidInput) {
  const LinearForces forces(diagonal({1, 2}));
  using testing::error_message;
  ReducedNewmarkSettings bad;
  bad.beta = 0;
  EXPECT_NE(error_message([&] { ReducedNewmark(forces, bad); }).find("β > 0"), std::string::npos);
  bad = {};
  bad.gamma = 0.4;
  EXPECT_NE(error_message([&] { ReducedNewmark(forces, bad); }).find("γ ≥ ½"), std::string::npos);
  bad = {};
  bad.max_iterations = 0;
  EXPECT_NE(error_message([&] { ReducedNewmark(forces, bad); }).find("max_iterations"),
            std::string::npos);
  EXPECT_NE(error_message([&] { ReducedNewmark(forces, diagonal({1})); }).find("expected 2×2"),
            std::string::npos);
  EXPECT_NE(error_message([&] {
              ReducedNewmark(forces, diagonal({1, -1}));
            }).find("not positive definite"),
            std::string::npos);
  ReducedNewmark newmark(forces);
  EXPECT_NE(error_message([&] { newmark.set_frequency_scale(0); }).find("> 0"), std::string::npos);
  EXPECT_NE(error_message([&] { newmark.step(0, Eigen::VectorXd::Zero(2)); }).find("time step"),
            std::string::npos);
  EXPECT_NE(error_message([&] {
              newmark.step(0.1, Eigen::VectorXd::Zero(3));
            }).find("external force has 3 entries"),
            std::string::npos);
  EXPECT_NE(error_message([&] {
              newmark.set_state(Eigen::VectorXd::Zero(1), {});
            }).find("expected r = 2"),
            std::string::npos);
}

// The Newton solves' dense Cholesky against Eigen: unrolled for n ≤ 12, four columns (and four
// rows) at a time above (a remainder of 0…3), in a matrix with a larger leading dimension too.
TEST(DenseCholesky, FactorsAndSolvesLikeEigen) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  for (int n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 23, 40})
    for (int extra : {0, 3}) {
      Eigen::MatrixXd B(n, n);
      for (auto& x : B.reshaped()) x = normal(rng);
      const Eigen::MatrixXd A = B * B.transpose() + n * Eigen::MatrixXd::Identity(n, n);
      Eigen::VectorXd b(n);
      for (auto& x : b) x = normal(rng);
      Eigen::MatrixXd storage = Eigen::MatrixXd::Constant(n + extra, n, 7.0);
      storage.topRows(n) = A;
      Eigen::VectorXd inverse(n), x = b;
      ASSERT_TRUE(detail::cholesky_factor(storage.data(), n, n + extra, inverse.data()));
      detail::cholesky_solve(storage.data(), inverse.data(), n, n + extra, x.data());
      const Eigen::MatrixXd L = storage.topRows(n).triangularView<Eigen::Lower>();
      const Eigen::MatrixXd expected = Eigen::LLT<Eigen::MatrixXd>(A).matrixL();
      SCOPED_TRACE("n = " + std::to_string(n) + ", leading dimension n + " + std::to_string(extra));
      EXPECT_LT((L - expected).norm(), 1e-13 * expected.norm());
      EXPECT_LT((inverse - expected.diagonal().cwiseInverse()).norm(), 1e-14 * inverse.norm());
      EXPECT_LT((A * x - b).norm(), 1e-12 * b.norm());
      EXPECT_TRUE((storage.bottomRows(extra).array() == 7.0).all());  // padding untouched
    }
  Eigen::MatrixXd indefinite = Eigen::MatrixXd::Identity(6, 6);
  indefinite(5, 5) = -1;
  Eigen::VectorXd inverse(6);
  EXPECT_FALSE(detail::cholesky_factor(indefinite.data(), 6, 6, inverse.data()));
}

}  // namespace
}  // namespace substruct
