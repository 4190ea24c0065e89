// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/kinematics/polar_decomposition.hpp"

#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "substruct/core/error.hpp"
#include "support/random_matrices.hpp"

namespace substruct {
namespace {

using testing::random_matrix;
using testing::random_rotation;

// Q diag(σ) Pᵀ with random rotations Q, P.
Mat3 with_singular_values(std::mt19937& rng, const Vec3& sigma) {
  return random_rotation(rng) * sigma.asDiagonal() * random_rotation(rng).transpose();
}

// The closest rotation from the SVD A = U Σ Vᵀ: U diag(1, 1, det(U Vᵀ)) Vᵀ.
Mat3 svd_rotation(const Mat3& A) {
  const Eigen::JacobiSVD<Mat3> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 U = svd.matrixU();
  if ((U * svd.matrixV().transpose()).determinant() < 0) U.col(2) = -U.col(2);
  return U * svd.matrixV().transpose();
}

// RᵀR = I, det R = 1, S symmetric, R S = A, R = the SVD rotation; returns the largest error of
// R S against A relative to ε ‖A‖ / (σ₂ + σ₃) (the conditioning of R as a function of A: a
// symmetric S leaves a residual of the size of R's own error).
double check_decomposition(const Mat3& A, const char* what) {
  const PolarDecomposition p = polar_decomposition(A);
  const Eigen::JacobiSVD<Mat3> svd(A);
  const Vec3 s = svd.singularValues() / svd.singularValues()[0];
  const double conditioning = 1 / std::abs(s[1] + s[2]);
  const double eps = std::numeric_limits<double>::epsilon();
  const double product = (p.R * p.S - A).norm() / A.norm() / (eps * conditioning);
  EXPECT_LE((p.R.transpose() * p.R - Mat3::Identity()).norm(), 1e-14) << what << "\n" << A;
  EXPECT_LE(std::abs(p.R.determinant() - 1), 1e-14) << what << "\n" << A;
  EXPECT_EQ((p.S - p.S.transpose()).norm(), 0) << what << "\n" << A;
  EXPECT_LE(product, 20) << what << "\n" << A;
  EXPECT_LE((p.R - svd_rotation(A)).norm(), 40 * eps * conditioning) << what << "\n" << A;
  return product;
}

TEST(PolarDecomposition, RotationIsItsOwnRotation) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 20; ++trial) {
    const Mat3 Q = random_rotation(rng);
    const PolarDecomposition p = polar_decomposition(Q);
    EXPECT_LE((p.R - Q).norm(), 1e-15);
    EXPECT_LE((p.S - Mat3::Identity()).norm(), 1e-15);
  }
}

TEST(PolarDecomposition, NearRotations) {
  std::mt19937 rng(2);
  double worst = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const Mat3 A = random_rotation(rng) * (Mat3::Identity() + 0.02 * random_matrix(rng));
    worst = std::max(worst, check_decomposition(A, "near rotation"));
  }
  fmt::print("near rotations: worst ‖RS − A‖/‖A‖ = {:.2f} ε/(σ₂+σ₃)\n", worst);
}

TEST(PolarDecomposition, FarFromRotations) {
  std::mt19937 rng(3);
  double worst = 0;
  for (int trial = 0; trial < 100; ++trial) {
    Mat3 A = random_matrix(rng);
    if (A.determinant() < 0) A.col(0) = -A.col(0);
    worst = std::max(worst, check_decomposition(A, "random, det > 0"));
  }
  for (const Vec3& sigma : {Vec3(1, 1e-3, 1e-3), Vec3(1, 0.5, 1e-7), Vec3(30, 1, 0.01),
                            Vec3(1, 1, 1e-12), Vec3(1, 1e-6, 1e-6)})
    for (int trial = 0; trial < 20; ++trial)
      worst = std::max(worst, check_decomposition(with_singular_values(rng, sigma),
                                                  "prescribed singular values"));
  fmt::print("far from rotations: worst ‖RS − A‖/‖A‖ = {:.2f} ε/(σ₂+σ₃)\n", worst);
}

TEST(PolarDecomposition, NegativeDeterminantFlipsTheSmallestSingularValue) {
  std::mt19937 rng(4);
  for (int trial = 0; trial < 50; ++trial) {
    Mat3 A = random_matrix(rng);
    if (A.determinant() > 0) A.col(1) = -A.col(1);
    check_decomposition(A, "det < 0");
    const PolarDecomposition p = polar_decomposition(A);
    // S is indefinite: its eigenvalues are σ₁, σ₂, −σ₃.
    const Eigen::JacobiSVD<Mat3> svd(A);
    const Vec3 sigma = svd.singularValues();
    Vec3 lambda = Eigen::SelfAdjointEigenSolver<Mat3>(p.S).eigenvalues();
    EXPECT_NEAR(lambda[0], -sigma[2], 1e-13 * sigma[0]);
    EXPECT_NEAR(lambda[1], sigma[1], 1e-13 * sigma[0]);
    EXPECT_NEAR(lambda[2], sigma[0], 1e-13 * sigma[0]);
    // R is the closest rotation: no nearby rotation is closer to A.
    for (int k = 0; k < 10; ++k) {
      const Vec3 axis = 1e-3 * random_matrix(rng).col(0);
      const Mat3 Q = Eigen::AngleAxisd(axis.norm(), axis.normalized()).toRotationMatrix() * p.R;
      EXPECT_LT((A - p.R).norm(), (A - Q).norm());
    }
  }
}

TEST(PolarDecomposition, SingularMatrices) {
  std::mt19937 rng(5);
  for (const Vec3& sigma : {Vec3(1, 1, 0), Vec3(2, 0, 0), Vec3(0, 0, 0)}) {
    const Mat3 A = with_singular_values(rng, sigma);
    const PolarDecomposition p = polar_decomposition(A);
    EXPECT_LE((p.R.transpose() * p.R - Mat3::Identity()).norm(), 1e-14) << sigma.transpose();
    EXPECT_NEAR(p.R.determinant(), 1, 1e-14);
    EXPECT_LE((p.R * p.S - A).norm(), 1e-14 * std::max(1.0, A.norm()));
    EXPECT_EQ((p.S - p.S.transpose()).norm(), 0);
  }
}

TEST(PolarDecomposition, Deterministic) {
  std::mt19937 rng(6);
  const Mat3 A = random_rotation(rng) * (Mat3::Identity() + 0.1 * random_matrix(rng));
  const PolarDecomposition first = polar_decomposition(A);
  for (int k = 0; k < 5; ++k) {
    const PolarDecomposition again = polar_decomposition(A);
    EXPECT_EQ(again.R, first.R);
    EXPECT_EQ(again.S, first.S);
  }
}

TEST(PolarDecomposition, NotFiniteIsAnError) {
  Mat3 A = Mat3::Identity();
  A(1, 2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(polar_decomposition(A), Error);
  A(1, 2) = std::numeric_limits<double>::infinity();
  try {
    polar_decomposition(A);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not finite"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace substruct
