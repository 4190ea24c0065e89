// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/kinematics/polar_decomposition_derivative.hpp"

#include <algorithm>
#include <random>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "substruct/core/error.hpp"
#include "substruct/kinematics/skew.hpp"
#include "support/random_matrices.hpp"

namespace substruct {
namespace {

using testing::random_matrix;
using testing::random_rotation;

// A(t) = A0 + t A1 + t²/2 A2: Ȧ(0) = A1, Ä = A2.
struct Trajectory {
  Mat3 A0, A1, A2;
  Mat3 A(double t) const { return A0 + t * A1 + 0.5 * t * t * A2; }
  Mat3 A_dot(double t) const { return A1 + t * A2; }
};

// 4th-order central differences: f'(0) and f''(0) from f(0), f(±h), f(±2h).
template <class T, class F>
T first_derivative(F f, double h) {
  const T m2 = f(-2 * h), m1 = f(-h), p1 = f(h), p2 = f(2 * h);
  return ((m2 - p2) + 8 * (p1 - m1)) / (12 * h);
}
template <class T, class F>
T second_derivative(F f, double h) {
  const T m2 = f(-2 * h), m1 = f(-h), z = f(0.0), p1 = f(h), p2 = f(2 * h);
  return (16 * (p1 + m1) - (p2 + m2) - 30 * z) / (12 * h * h);
}

template <class T>
double relative(const T& value, const T& reference) {
  return (value - reference).norm() / reference.norm();
}

struct Errors {
  double omega = 0, omega_dot = 0, R_dot = 0, R_ddot = 0, S_dot = 0;
  void max_with(const Errors& e) {
    omega = std::max(omega, e.omega);
    omega_dot = std::max(omega_dot, e.omega_dot);
    R_dot = std::max(R_dot, e.R_dot);
    R_ddot = std::max(R_ddot, e.R_ddot);
    S_dot = std::max(S_dot, e.S_dot);
  }
};

// Compares Eq. 7–9 at t = 0 with finite differences of polar_decomposition along the path. The
// step is a small fraction of the time over which R changes: (σ₂ + σ₃) / (‖A1‖ + ‖A2‖^½).
Errors compare_with_finite_differences(const Trajectory& path) {
  const Eigen::JacobiSVD<Mat3> svd(path.A0);
  const Vec3 sigma = svd.singularValues();
  const double h = 5e-3 * (sigma[1] + sigma[2]) / (path.A1.norm() + std::sqrt(path.A2.norm()));
  const auto R = [&](double t) -> Mat3 { return polar_decomposition(path.A(t)).R; };
  const auto S = [&](double t) -> Mat3 { return polar_decomposition(path.A(t)).S; };
  const auto omega = [&](double t) -> Vec3 {
    return polar_rotation_rates(polar_decomposition(path.A(t)), path.A_dot(t), path.A2).omega;
  };
  const PolarDecomposition polar = polar_decomposition(path.A0);
  const PolarRotationRates rates = polar_rotation_rates(polar, path.A1, path.A2);
  const Mat3 R_dot = first_derivative<Mat3>(R, h);
  const Mat3 R_ddot = second_derivative<Mat3>(R, h);
  Errors e;
  e.R_dot = relative(rates.R_dot, R_dot);
  e.R_ddot = relative(rates.R_ddot, R_ddot);
  e.S_dot = relative(rates.S_dot, first_derivative<Mat3>(S, h));
  e.omega = relative(rates.omega, skew(R_dot * polar.R.transpose()));  // ω̃ = Ṙ Rᵀ
  e.omega_dot = relative(rates.omega_dot, first_derivative<Vec3>(omega, h));
  // ω alone (linear in Ȧ) agrees with the full rates.
  EXPECT_LE((polar_angular_velocity(polar, path.A1) - rates.omega).norm(),
            1e-15 * rates.omega.norm());
  // Ω made beside the rates is polar_angular_velocity_map's, and the rates are unchanged.
  Eigen::Matrix<double, 3, 9> map;
  const PolarRotationRates with_map = polar_rotation_rates(polar, path.A1, path.A2, &map);
  EXPECT_EQ(map, polar_angular_velocity_map(polar));
  EXPECT_EQ(with_map.omega, rates.omega);
  EXPECT_EQ(with_map.omega_dot, rates.omega_dot);
  return e;
}

void expect_within(const Errors& e, double tolerance, const std::string& what) {
  EXPECT_LE(e.omega, tolerance) << what;
  EXPECT_LE(e.omega_dot, tolerance) << what;
  EXPECT_LE(e.R_dot, tolerance) << what;
  EXPECT_LE(e.R_ddot, tolerance) << what;
  EXPECT_LE(e.S_dot, tolerance) << what;
  fmt::print("{}: relative errors ω {:.1e}, ω̇ {:.1e}, Ṙ {:.1e}, R̈ {:.1e}, Ṡ {:.1e}\n", what,
             e.omega, e.omega_dot, e.R_dot, e.R_ddot, e.S_dot);
}

// Random trajectories whose A0 has the singular values σ (or a random A0 when σ is empty).
Errors trajectories(std::mt19937& rng, const Vec3& sigma, bool negative_determinant, int count) {
  Errors worst;
  for (int trial = 0; trial < count; ++trial) {
    Trajectory path;
    path.A0 = random_rotation(rng) * sigma.asDiagonal() * random_rotation(rng).transpose();
    if (negative_determinant) path.A0.col(0) = -path.A0.col(0);
    path.A1 = sigma[0] * random_matrix(rng);
    path.A2 = sigma[0] * random_matrix(rng);
    worst.max_with(compare_with_finite_differences(path));
  }
  return worst;
}

TEST(PolarRotationRates, NearRotations) {
  std::mt19937 rng(11);
  Errors worst;
  for (int trial = 0; trial < 30; ++trial) {
    Trajectory path;
    path.A0 = random_rotation(rng) * (Mat3::Identity() + 0.05 * random_matrix(rng));
    path.A1 = random_matrix(rng);
    path.A2 = random_matrix(rng);
    worst.max_with(compare_with_finite_differences(path));
  }
  expect_within(worst, 1e-6, "near rotations");
}

TEST(PolarRotationRates, FarFromRotations) {
  std::mt19937 rng(12);
  Errors worst;
  for (int trial = 0; trial < 30; ++trial) {
    Trajectory path;
    path.A0 = random_matrix(rng);
    if (path.A0.determinant() < 0) path.A0.col(0) = -path.A0.col(0);
    path.A1 = random_matrix(rng);
    path.A2 = random_matrix(rng);
    worst.max_with(compare_with_finite_differences(path));
  }
  expect_within(worst, 1e-6, "random A0, det > 0");
  expect_within(trajectories(rng, Vec3(3, 1, 0.2), false, 20), 1e-6, "σ = 3, 1, 0.2");
}

TEST(PolarRotationRates, NearlyDegenerateS) {
  std::mt19937 rng(13);
  expect_within(trajectories(rng, Vec3(1, 1e-3, 1e-3), false, 20), 1e-6, "σ = 1, 1e-3, 1e-3");
  expect_within(trajectories(rng, Vec3(1, 0.5, 1e-6), false, 20), 1e-6,
                "σ = 1, 0.5, 1e-6 (nearly rank 2)");
  expect_within(trajectories(rng, Vec3(1, 1, 0), false, 10), 1e-6, "σ = 1, 1, 0 (rank 2)");
}

TEST(PolarRotationRates, NegativeDeterminant) {
  std::mt19937 rng(14);
  expect_within(trajectories(rng, Vec3(2, 1, 0.3), true, 20), 1e-6, "det A < 0");
}

// Ṙ = ω̃ R and R̈ = ω̇̃ R + ω̃² R; the paper's printed ω̃ R + ω̃² R is not the second derivative.
TEST(PolarRotationRates, SecondDerivativeUsesTheAngularAcceleration) {
  std::mt19937 rng(15);
  const Mat3 A = random_rotation(rng) * (Mat3::Identity() + 0.1 * random_matrix(rng));
  const PolarDecomposition polar = polar_decomposition(A);
  const PolarRotationRates rates =
      polar_rotation_rates(polar, random_matrix(rng), random_matrix(rng));
  const Mat3 W = hat(rates.omega);
  EXPECT_LE((rates.R_dot - W * polar.R).norm(), 1e-14 * rates.R_dot.norm());
  EXPECT_LE((rates.R_ddot - (hat(rates.omega_dot) + W * W) * polar.R).norm(),
            1e-14 * rates.R_ddot.norm());
  EXPECT_GT((rates.R_ddot - (W + W * W) * polar.R).norm(), 1e-3 * rates.R_ddot.norm());
  // RᵀṘ is skew and Ṡ symmetric.
  EXPECT_LE((polar.R.transpose() * rates.R_dot + rates.R_dot.transpose() * polar.R).norm(),
            1e-14 * rates.R_dot.norm());
  EXPECT_EQ((rates.S_dot - rates.S_dot.transpose()).norm(), 0);
}

TEST(PolarRotationRates, AngularVelocityIsLinear) {
  std::mt19937 rng(16);
  const PolarDecomposition polar = polar_decomposition(random_matrix(rng) + 3 * Mat3::Identity());
  const Mat3 X = random_matrix(rng), Y = random_matrix(rng);
  const Vec3 combined = polar_angular_velocity(polar, 2 * X - 3 * Y);
  const Vec3 separate = 2 * polar_angular_velocity(polar, X) - 3 * polar_angular_velocity(polar, Y);
  EXPECT_LE((combined - separate).norm(), 1e-14 * combined.norm());
  // An infinitesimal rotation of A: Ȧ = θ̃ A gives ω = θ exactly.
  const Vec3 theta(0.3, -1.2, 0.7);
  EXPECT_LE((polar_angular_velocity(polar, hat(theta) * polar.R * polar.S) - theta).norm(), 1e-14);
}

// Ω vec(Ȧ) is Eq. 7 for any Ȧ, to rounding.
TEST(PolarRotationRates, AngularVelocityMapIsEquationSeven) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const PolarDecomposition p =
        polar_decomposition(random_rotation(rng) * (Mat3::Identity() + 0.4 * random_matrix(rng)));
    const Eigen::Matrix<double, 3, 9> map = polar_angular_velocity_map(p);
    for (int k = 0; k < 4; ++k) {
      const Mat3 A_dot = random_matrix(rng);
      const Vec3 expected = polar_angular_velocity(p, A_dot);
      const Vec3 got = map * A_dot.reshaped();
      EXPECT_LE((got - expected).norm(), 1e-12 * (1 + expected.norm())) << trial;
    }
  }
}

TEST(PolarRotationRates, DegenerateInterfaceIsAnError) {
  // A of rank 1: σ₂ + σ₃ = 0, so G is singular.
  PolarDecomposition polar;
  polar.S = Vec3(1, 0, 0).asDiagonal();
  try {
    polar_rotation_rates(polar, Mat3::Identity(), Mat3::Zero());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("singular"), std::string::npos) << e.what();
  }
  EXPECT_THROW(polar_angular_velocity(polar, Mat3::Identity()), Error);
}

}  // namespace
}  // namespace substruct
