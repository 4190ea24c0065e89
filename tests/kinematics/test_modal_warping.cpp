// SPDX-License-Identifier: GPL-3.0-or-later
// The modal-warping kernels (Choi & Ko 2005): exp(ŵ) against Eigen's AngleAxis, R̃(w) =
// ∫₀¹ exp(s ŵ) ds against Gauss–Legendre quadrature, both across the switch from the series to
// the closed form, R̃ ŵ = exp(ŵ) − I, and the rate of R̃ against finite differences.
#include "substruct/kinematics/modal_warping.hpp"

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "substruct/kinematics/skew.hpp"

namespace substruct {
namespace {

constexpr double kPi = std::numbers::pi;

// Angles from far below to far above the series switch at θ = 1, π − 10⁻⁶ and beyond π.
const std::vector<double> kAngles{0,   1e-12,  1e-9, 1e-6, 1e-4,       1e-2, 0.3, 0.999999,
                                  1.0, 1.0001, 2.0,  3.0,  kPi - 1e-6, kPi,  5.0, 10.0};

std::vector<Vec3> axes() {
  std::mt19937 rng(17);
  std::normal_distribution<double> n;
  std::vector<Vec3> out{Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()};
  for (int i = 0; i < 5; ++i) out.push_back(Vec3(n(rng), n(rng), n(rng)).normalized());
  return out;
}

Mat3 reference_exp(double theta, const Vec3& axis) {
  return Eigen::AngleAxisd(theta, axis).toRotationMatrix();
}

// ∫₀¹ exp(s θ â) ds by 5-point Gauss–Legendre on 64 panels (error ≪ 10⁻¹⁶ for θ ≤ 10).
Mat3 quadrature(double theta, const Vec3& axis) {
  const double x[5] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                       0.9061798459386640};
  const double wt[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                        0.4786286704993665, 0.2369268850561891};
  const int panels = 64;
  const double h = 1.0 / panels;
  Mat3 sum = Mat3::Zero();
  for (int p = 0; p < panels; ++p)
    for (int k = 0; k < 5; ++k)
      sum += 0.5 * h * wt[k] * reference_exp((p + 0.5 * (x[k] + 1)) * h * theta, axis);
  return sum;
}

TEST(ModalWarping, RotationFromVectorIsExpOfTheCrossProductMatrix) {
  for (const Vec3& a : axes())
    for (double theta : kAngles) {
      const Mat3 R = rotation_from_vector(theta * a);
      EXPECT_LT((R - reference_exp(theta, a)).norm(), 2e-15) << "θ = " << theta;
      EXPECT_LT((R.transpose() * R - Mat3::Identity()).norm(), 2e-15) << "θ = " << theta;
      EXPECT_NEAR(R.determinant(), 1.0, 2e-15) << "θ = " << theta;
    }
  EXPECT_EQ(rotation_from_vector(Vec3::Zero()), Mat3::Identity());
}

TEST(ModalWarping, IntegratedRotationIsTheIntegralOfExpAlongTheAngle) {
  for (const Vec3& a : axes())
    for (double theta : kAngles) {
      const Mat3 Rt = integrated_rotation(theta * a);
      EXPECT_LT((Rt - quadrature(theta, a)).norm(), 4e-15) << "θ = " << theta;
      // R̃(w) ŵ = exp(ŵ) − I (the rigid-rotation identity modal warping relies on; ŵ is of
      // size θ, so is the round-off of the product).
      const Mat3 lhs = Rt * hat(theta * a);
      EXPECT_LT((lhs - (reference_exp(theta, a) - Mat3::Identity())).norm(), 2e-15 * (1 + theta))
          << "θ = " << theta;
    }
  EXPECT_EQ(integrated_rotation(Vec3::Zero()), Mat3::Identity());
}

// Both sides of the switch from the series (θ < 1) to the closed form agree to round-off, and
// each matches the closed form evaluated in long double there.
TEST(ModalWarping, TheSeriesAndTheClosedFormAgreeAtTheSwitch) {
  for (const Vec3& a : axes())
    for (double theta : {1 - 1e-15, 1 - 1e-9, 1.0, 1 + 1e-15, 1 + 1e-9, 0.9, 1.1}) {
      const long double t = theta;
      const long double beta = (1 - std::cos(t)) / (t * t);
      const long double gamma = (t - std::sin(t)) / (t * t * t);
      const Mat3 W = hat(theta * a);
      const Mat3 reference = Mat3::Identity() + double(beta) * W + double(gamma) * (W * W);
      EXPECT_LT((integrated_rotation(theta * a) - reference).norm(), 1e-15) << "θ = " << theta;
      const long double alpha = std::sin(t) / t;
      const Mat3 R = Mat3::Identity() + double(alpha) * W + double(beta) * (W * W);
      EXPECT_LT((rotation_from_vector(theta * a) - R).norm(), 1e-15) << "θ = " << theta;
    }
  const Vec3 a = Vec3(1, -2, 0.5).normalized();
  EXPECT_LT((integrated_rotation((1 - 1e-16) * a) - integrated_rotation((1 + 1e-16) * a)).norm(),
            1e-15);
}

// d/dt R̃(w + t ẇ) at t = 0 by central differences (h = 10⁻⁵: error ~ h² ‖R̃‴‖ + ε/h).
TEST(ModalWarping, TheRateOfTheIntegratedRotationIsItsDerivative) {
  std::mt19937 rng(3);
  std::normal_distribution<double> n;
  for (double theta : {0.0, 1e-8, 1e-3, 0.5, 0.999, 1.0, 1.001, 2.0, 3.0, kPi - 1e-6, 6.0})
    for (int trial = 0; trial < 4; ++trial) {
      const Vec3 w = theta * Vec3(n(rng), n(rng), n(rng)).normalized();
      const Vec3 wdot(n(rng), n(rng), n(rng));
      const double h = 1e-5;
      const Mat3 fd =
          (integrated_rotation(w + h * wdot) - integrated_rotation(w - h * wdot)) / (2 * h);
      EXPECT_LT((integrated_rotation_derivative(w, wdot) - fd).norm(), 1e-9 * wdot.norm())
          << "θ = " << theta;
    }
  // Continuous across the switch.
  const Vec3 a = Vec3(0.3, 1, -0.4).normalized(), wdot(0.7, -0.2, 1.1);
  EXPECT_LT((integrated_rotation_derivative((1 - 1e-15) * a, wdot) -
             integrated_rotation_derivative((1 + 1e-15) * a, wdot))
                .norm(),
            1e-13);
}

// About a fixed axis the rate of R̃(θ a) θ â = exp(θ â) − I is exp(θ â) θ̇ â: exactly what
// Choi & Ko's velocity R(w) Φ q̇ gives for a rotation mode.
TEST(ModalWarping, AboutAFixedAxisTheRateOfTheWarpedRotationIsTheRigidOne) {
  const Vec3 a = Vec3(-1, 0.4, 2).normalized();
  for (double theta : {1e-7, 0.4, 1.0, 2.5}) {
    const double theta_dot = 0.8;
    const Mat3 rate = integrated_rotation_derivative(theta * a, theta_dot * a) * hat(theta * a) +
                      integrated_rotation(theta * a) * hat(theta_dot * a);
    EXPECT_LT((rate - rotation_from_vector(theta * a) * hat(theta_dot * a)).norm(), 1e-14)
        << "θ = " << theta;
  }
}

// The per-vertex vector forms (cross products) are the matrix forms applied, to round-off, at
// small angles (the series) and large ones (the closed forms), and warp_with_rate's u is warp's
// bit for bit.
TEST(ModalWarping, TheVectorFormsEqualTheMatricesApplied) {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> unit(-1, 1);
  const auto vec = [&](double scale) -> Vec3 {
    return Vec3(unit(random), unit(random), unit(random)) * scale;
  };
  for (double angle : {0.0, 1e-9, 1e-3, 0.3, 0.99, 1.01, 2.5, 6.0}) {
    for (int trial = 0; trial < 20; ++trial) {
      Vec3 w = vec(1.0);
      w = w.norm() > 0 ? Vec3(w.normalized() * angle) : w;
      const Vec3 wdot = vec(0.7), y = vec(2.0), ydot = vec(1.5), f = vec(3.0);
      const double tol = 1e-14 * (1 + angle) * (1 + angle);
      EXPECT_LE((rotate_back(w, f) - rotation_from_vector(w).transpose() * f).norm(),
                tol * f.norm())
          << angle;
      EXPECT_LE((warp(w, y) - integrated_rotation(w) * y).norm(), tol * y.norm()) << angle;
      Vec3 u, udot;
      warp_with_rate(w, wdot, y, ydot, u, udot);
      EXPECT_EQ(u, warp(w, y)) << angle;
      const Vec3 expected =
          integrated_rotation(w) * ydot + integrated_rotation_derivative(w, wdot) * y;
      EXPECT_LE((udot - expected).norm(), tol * (ydot.norm() + wdot.norm() * y.norm())) << angle;
    }
  }
}

}  // namespace
}  // namespace substruct
