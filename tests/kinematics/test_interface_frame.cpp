// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/kinematics/interface_frame.hpp"

#include <random>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/LU>

#include "substruct/core/error.hpp"
#include "substruct/kinematics/polar_decomposition.hpp"
#include "substruct/kinematics/polar_decomposition_derivative.hpp"
#include "substruct/kinematics/skew.hpp"
#include "support/random_matrices.hpp"

namespace substruct {
namespace {

using testing::random_rotation;

// m points scattered in a 0.4 × 0.3 × 0.2 box around (1, 2, 3).
Points random_points(std::mt19937& rng, int m) {
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  Points X(m, 3);
  for (int k = 0; k < m; ++k) X.row(k) = Vec3(1 + 0.4 * u(rng), 2 + 0.3 * u(rng), 3 + 0.2 * u(rng));
  return X;
}

Eigen::VectorXd random_weights(std::mt19937& rng, int m) {
  std::uniform_real_distribution<double> u(0.5, 2.0);
  Eigen::VectorXd w(m);
  for (auto& x : w) x = u(rng);
  return w;
}

Eigen::MatrixXd random_basis(std::mt19937& rng, int m, int r) {
  std::normal_distribution<double> n;
  Eigen::MatrixXd U(3 * m, r);
  for (auto& x : U.reshaped()) x = 0.1 * n(rng);
  return U;
}

// A 3×3 grid of points in the plane through `center` with normal `normal`, 0.2 apart.
Points flat_square(const Vec3& center, const Mat3& axes) {
  Points X(9, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      X.row(3 * i + j) = center + 0.2 * (i - 1) * axes.col(0) + 0.2 * (j - 1) * axes.col(1);
  return X;
}

// Eq. 1–4 evaluated directly on the deformed vertices x^k = X^k + U^k q, with optional extra
// points (position, rows) appended to the interface.
struct BruteForce {
  Vec3 x;
  Mat3 A;
};
BruteForce brute_force(const Points& X, const Eigen::MatrixXd& U, const Eigen::VectorXd& w,
                       const Mat3& R_hat, const Eigen::VectorXd& q) {
  const Eigen::Index m = X.rows();
  double W = 0;
  Vec3 x_hat = Vec3::Zero(), x = Vec3::Zero();
  for (Eigen::Index k = 0; k < m; ++k) {
    const Vec3 Xk = X.row(k).transpose();
    W += w[k];
    x_hat += w[k] * Xk;
    x += w[k] * (Xk + U.middleRows(3 * k, 3) * q);
  }
  x_hat /= W;
  x /= W;
  Mat3 B = Mat3::Zero(), C = Mat3::Zero();
  for (Eigen::Index k = 0; k < m; ++k) {
    const Vec3 Xk = X.row(k).transpose();
    const Vec3 xk = Xk + U.middleRows(3 * k, 3) * q;
    B += w[k] * (xk - x) * (Xk - x_hat).transpose();      // Eq. 3
    C += w[k] * (Xk - x_hat) * (Xk - x_hat).transpose();  // Eq. 4
  }
  return {x, B * C.inverse() * R_hat};  // Eq. 1, Eq. 2
}

TEST(InterfaceFrame, MatchesEquationsOneToFour) {
  std::mt19937 rng(21);
  for (int r : {1, 8, 20}) {
    const int m = 14;
    const Points X = random_points(rng, m);
    const Eigen::VectorXd w = random_weights(rng, m);
    const Eigen::MatrixXd U = random_basis(rng, m, r);
    const Mat3 R_hat = random_rotation(rng);
    const InterfaceFrameModel model = fit_interface_frame(X, U, w, R_hat);
    EXPECT_FALSE(model.planar);
    EXPECT_EQ(model.r(), r);
    // A(0) = R̂ and x(0) = x̂.
    const BruteForce rest = brute_force(X, U, w, R_hat, Eigen::VectorXd::Zero(r));
    EXPECT_LE((rest.A - R_hat).norm(), 1e-13);
    EXPECT_LE((model.x_hat - rest.x).norm(), 1e-15 * rest.x.norm());
    EXPECT_EQ(model.covariance(Eigen::VectorXd::Zero(r)), R_hat);
    for (int trial = 0; trial < 5; ++trial) {
      const Eigen::VectorXd q = Eigen::VectorXd::Random(r);
      const Eigen::VectorXd qdot = Eigen::VectorXd::Random(r);
      const BruteForce at_q = brute_force(X, U, w, R_hat, q);
      const BruteForce moved = brute_force(X, U, w, R_hat, q + qdot);
      EXPECT_LE((model.centroid(q) - at_q.x).norm(), 1e-14 * at_q.x.norm());
      EXPECT_LE((model.covariance(q) - at_q.A).norm(), 1e-12 * at_q.A.norm()) << "r = " << r;
      // Both are linear in q: Ȧ = A(q + q̇) − A(q) exactly.
      EXPECT_LE((model.covariance_rate(qdot) - (moved.A - at_q.A)).norm(),
                1e-12 * (moved.A - at_q.A).norm());
      // The one-pass evaluation at (q, q̇, q̈) agrees with the separate ones.
      const Eigen::VectorXd qddot = Eigen::VectorXd::Random(r);
      const InterfaceFrameModel::State state = model.evaluate(q, qdot, qddot);
      EXPECT_LE((state.x - model.centroid(q)).norm(), 1e-14 * state.x.norm());
      EXPECT_LE((state.v - model.a_hat * qdot).norm(), 1e-14 * state.v.norm());
      EXPECT_LE((state.a - model.a_hat * qddot).norm(), 1e-14 * state.a.norm());
      EXPECT_LE((state.A - model.covariance(q)).norm(), 1e-14 * state.A.norm());
      EXPECT_LE((state.A_dot - model.covariance_rate(qdot)).norm(), 1e-14 * state.A_dot.norm());
      EXPECT_LE((state.A_ddot - model.covariance_rate(qddot)).norm(), 1e-14 * state.A_ddot.norm());
    }
  }
}

// Basis columns that are rigid translations and infinitesimal rotations of the interface.
TEST(InterfaceFrame, RecoversRigidMotions) {
  std::mt19937 rng(22);
  const int m = 10;
  const Points X = random_points(rng, m);
  const Eigen::VectorXd w = random_weights(rng, m);
  const Mat3 R_hat = random_rotation(rng);
  const Vec3 c(0.3, -0.2, 1.0);  // rotation centre
  Eigen::MatrixXd U(3 * m, 6);
  for (int k = 0; k < m; ++k)
    for (int i = 0; i < 3; ++i) {
      U.block<3, 1>(3 * k, i) = Vec3::Unit(i);                                      // translation
      U.block<3, 1>(3 * k, 3 + i) = Vec3::Unit(i).cross(X.row(k).transpose() - c);  // rotation
    }
  const InterfaceFrameModel model = fit_interface_frame(X, U, w, R_hat);
  const PolarDecomposition rest{R_hat, Mat3::Identity()};
  for (int i = 0; i < 3; ++i) {
    EXPECT_LE((model.a_hat.col(i) - Vec3::Unit(i)).norm(), 1e-15);
    EXPECT_LE(model.A(i).norm(), 1e-15);
    EXPECT_LE((model.a_hat.col(3 + i) - Vec3::Unit(i).cross(model.x_hat - c)).norm(), 1e-15);
    EXPECT_LE((model.A(3 + i) - hat(Vec3::Unit(i)) * R_hat).norm(), 1e-13);
    // ω of the rotation column: the rotation's axis (in the parent frame).
    EXPECT_LE((polar_angular_velocity(rest, model.A(3 + i)) - Vec3::Unit(i)).norm(), 1e-13);
  }
  // q = (t, s θ): the fitted frame is R ≈ exp(s θ̃) R̂ to first order, the centroid exact.
  const Vec3 t(0.01, -0.02, 0.03), theta(0.3, -0.5, 0.8);
  for (double s : {1e-2, 1e-3}) {
    Eigen::VectorXd q(6);
    q << t, s * theta;
    const Mat3 R = polar_decomposition(model.covariance(q)).R;
    const Mat3 expected =
        Eigen::AngleAxisd(s * theta.norm(), theta.normalized()).toRotationMatrix() * R_hat;
    EXPECT_LE((R - expected).norm(), 0.5 * s * s * theta.squaredNorm()) << "s = " << s;
    EXPECT_LE((model.centroid(q) - (model.x_hat + t + s * theta.cross(model.x_hat - c))).norm(),
              1e-15);
  }
}

// A finite rigid motion x^k = Q X^k + d as a single basis column: A(1) = Q R̂ and its polar
// rotation is exactly Q R̂; the centroid moves to Q x̂ + d.
TEST(InterfaceFrame, FiniteRigidMotionIsExact) {
  std::mt19937 rng(23);
  const int m = 8;
  const Points X = random_points(rng, m);
  const Eigen::VectorXd w = random_weights(rng, m);
  const Mat3 R_hat = random_rotation(rng);
  const Mat3 Q = random_rotation(rng);
  const Vec3 d(0.5, -1.0, 2.0);
  Eigen::MatrixXd U(3 * m, 1);
  for (int k = 0; k < m; ++k)
    U.block<3, 1>(3 * k, 0) = Q * X.row(k).transpose() + d - X.row(k).transpose();
  const InterfaceFrameModel model = fit_interface_frame(X, U, w, R_hat);
  const Eigen::VectorXd one = Eigen::VectorXd::Ones(1);
  EXPECT_LE((model.covariance(one) - Q * R_hat).norm(), 1e-13);
  EXPECT_LE((polar_decomposition(model.covariance(one)).R - Q * R_hat).norm(), 1e-13);
  EXPECT_LE((model.centroid(one) - (Q * model.x_hat + d)).norm(), 1e-14);
}

TEST(InterfaceFrame, FlatPatchGetsThePlanarFix) {
  std::mt19937 rng(24);
  const Mat3 axes = random_rotation(rng);
  const Vec3 normal = axes.col(2);
  const Points X = flat_square(Vec3(1, 2, 3), axes);
  const int m = static_cast<int>(X.rows());
  const Eigen::VectorXd w = random_weights(rng, m);
  const Eigen::MatrixXd U = random_basis(rng, m, 5);
  const Mat3 R_hat = random_rotation(rng);
  const double epsilon = 1e-3;
  const InterfaceFrameModel model = fit_interface_frame(X, U, w, R_hat, epsilon);
  EXPECT_TRUE(model.planar);
  EXPECT_LE(model.eigenvalue_ratio, 1e-15);
  // The fix: an extra point of weight 1 at x̂ + η N, η² = ε λ₃ − λ₁, lifts λ₁ to ε λ₃.
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(
      (X.rowwise() - model.x_hat.transpose()).transpose() * w.asDiagonal() *
      (X.rowwise() - model.x_hat.transpose()));
  const double lambda3 = eig.eigenvalues()[2];
  const double eta = std::sqrt(epsilon * lambda3 - eig.eigenvalues()[0]);
  Mat3 C_fixed = eta * eta * normal * normal.transpose();
  for (int k = 0; k < m; ++k) {
    const Vec3 D = X.row(k).transpose() - model.x_hat;
    C_fixed += w[k] * D * D.transpose();
  }
  const Vec3 lifted = Eigen::SelfAdjointEigenSolver<Mat3>(C_fixed).eigenvalues();
  EXPECT_NEAR(lifted[0], epsilon * lambda3, 1e-12 * lambda3);
  // Eq. 3 with the extra point appended, displaced by η (θ × N) = −η C'⁻¹ Bᵀ N relative to the
  // moving centroid (B the vertices' displacement sum): the model matches it.
  for (int trial = 0; trial < 3; ++trial) {
    const Eigen::VectorXd q = Eigen::VectorXd::Random(5);
    Mat3 B = Mat3::Zero();  // the displacement part of Eq. 3 (the rest part is C, A(0) = R̂)
    for (int k = 0; k < m; ++k) {
      const Vec3 Xk = X.row(k).transpose();
      B += w[k] * (U.middleRows(3 * k, 3) * q - model.a_hat * q) * (Xk - model.x_hat).transpose();
    }
    const Vec3 tilt = -eta * (C_fixed.inverse() * (B.transpose() * normal));
    B += (tilt * eta) * normal.transpose();
    const Mat3 A = R_hat + B * C_fixed.inverse() * R_hat;
    EXPECT_LE((model.covariance(q) - A).norm(), 1e-12 * A.norm());
  }
  // Tilts about the two in-plane axes are recovered exactly (not halved).
  for (int axis = 0; axis < 2; ++axis) {
    const Vec3 theta = axes.col(axis);
    Eigen::MatrixXd tilt(3 * m, 1);
    for (int k = 0; k < m; ++k)
      tilt.block<3, 1>(3 * k, 0) = theta.cross(X.row(k).transpose() - model.x_hat);
    const InterfaceFrameModel tilting = fit_interface_frame(X, tilt, w, R_hat, epsilon);
    EXPECT_LE((tilting.A(0) - hat(theta) * R_hat).norm(), 1e-12) << "axis " << axis;
  }
  // Rotation about the normal (in the plane of the patch) is recovered exactly.
  Eigen::MatrixXd spin(3 * m, 1);
  for (int k = 0; k < m; ++k)
    spin.block<3, 1>(3 * k, 0) = normal.cross(X.row(k).transpose() - model.x_hat);
  const InterfaceFrameModel spinning = fit_interface_frame(X, spin, w, R_hat, epsilon);
  EXPECT_LE((spinning.A(0) - hat(normal) * R_hat).norm(), 1e-13);
}

// A slightly bent patch (λ₁/λ₃ ≈ 1e-5 < ε): λ₁ is lifted to ε λ₃, and a rigid tilt of the
// patch is still fitted exactly.
TEST(InterfaceFrame, NearlyFlatPatchIsLiftedToEpsilon) {
  std::mt19937 rng(25);
  const Mat3 axes = random_rotation(rng);
  Points X = flat_square(Vec3(-1, 0.5, 2), axes);
  X.row(4) += 0.004 * axes.col(2).transpose();  // lift the middle point
  const int m = static_cast<int>(X.rows());
  const Eigen::VectorXd w = Eigen::VectorXd::Ones(m);
  const double epsilon = 1e-3;
  const Vec3 theta = axes.col(0);  // tilt about an in-plane axis
  Eigen::MatrixXd U(3 * m, 1);
  for (int k = 0; k < m; ++k) U.block<3, 1>(3 * k, 0) = theta.cross(X.row(k).transpose());
  const InterfaceFrameModel model = fit_interface_frame(X, U, w, Mat3::Identity(), epsilon);
  EXPECT_TRUE(model.planar);
  Mat3 C = Mat3::Zero();
  for (int k = 0; k < m; ++k) {
    const Vec3 D = X.row(k).transpose() - model.x_hat;
    C += D * D.transpose();
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(C);
  const Vec3 lambda = eig.eigenvalues();
  EXPECT_NEAR(model.eigenvalue_ratio, lambda[0] / lambda[2], 1e-12);
  EXPECT_GT(model.eigenvalue_ratio, 1e-7);
  EXPECT_LT(model.eigenvalue_ratio, epsilon);
  // A rigid tilt is recovered exactly despite the lift.
  EXPECT_LE((model.A(0) - hat(theta)).norm(), 1e-12);
}

void expect_error(const Points& X, const Eigen::MatrixXd& U, const Eigen::VectorXd& w,
                  const std::string& fragment) {
  try {
    fit_interface_frame(X, U, w);
    FAIL() << "no error; expected one mentioning \"" << fragment << "\"";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(InterfaceFrame, BadInterfacesAreErrors) {
  // Collinear vertices (also with tiny noise off the line).
  Points line(5, 3);
  for (int k = 0; k < 5; ++k) line.row(k) = Vec3(1, 2, 3) + 0.1 * k * Vec3(1, -1, 2);
  const Eigen::VectorXd w5 = Eigen::VectorXd::Ones(5);
  const Eigen::MatrixXd U5 = Eigen::MatrixXd::Zero(15, 2);
  expect_error(line, U5, w5, "collinear");
  line(2, 0) += 1e-6;
  expect_error(line, U5, w5, "collinear");
  // Coincident vertices, too few vertices, sizes that disagree, weights that are not positive.
  expect_error(Points::Constant(4, 3, 1.5), Eigen::MatrixXd::Zero(12, 1), Eigen::VectorXd::Ones(4),
               "coincide");
  std::mt19937 rng(26);
  const Points X = random_points(rng, 6);
  expect_error(X.topRows(2), Eigen::MatrixXd::Zero(6, 1), Eigen::VectorXd::Ones(2), "at least 3");
  expect_error(X, Eigen::MatrixXd::Zero(17, 1), Eigen::VectorXd::Ones(6), "rows");
  expect_error(X, Eigen::MatrixXd::Zero(18, 1), Eigen::VectorXd::Ones(5), "weights");
  Eigen::VectorXd w = Eigen::VectorXd::Ones(6);
  w[3] = 0;
  expect_error(X, Eigen::MatrixXd::Zero(18, 1), w, "positive");
  // A rigid parent (r = 0) is fine.
  const InterfaceFrameModel rigid =
      fit_interface_frame(X, Eigen::MatrixXd::Zero(18, 0), Eigen::VectorXd::Ones(6));
  EXPECT_EQ(rigid.r(), 0);
  EXPECT_EQ(rigid.covariance(Eigen::VectorXd()), Mat3::Identity());
}

}  // namespace
}  // namespace substruct
