// SPDX-License-Identifier: GPL-3.0-or-later
// Four interfaces' polar decompositions and rotation rates at once against the one-interface
// functions, lane by lane, and the lanes they must leave to them.
#include "substruct/kinematics/polar_rotation_rates_batch.hpp"

#include <random>

#include <gtest/gtest.h>

#include "substruct/kinematics/polar_decomposition.hpp"
#include "substruct/kinematics/polar_decomposition_derivative.hpp"
#include "support/random_matrices.hpp"

namespace substruct {
namespace {

using testing::random_matrix;
using testing::random_rotation;

TEST(PolarRotationRatesBatch, EveryLaneIsTheOneInterfaceResult) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> stretch(0.7, 1.4);
  for (int n = 1; n <= 4; ++n)
    for (int trial = 0; trial < 20; ++trial) {
      Mat3 A[4], A_dot[4], A_ddot[4];
      for (int k = 0; k < n; ++k) {
        // Near rotations (an interface that deforms mostly rigidly) and strongly stretched ones
        // (Newton's scaled start).
        const Vec3 sigma = trial % 2 ? Vec3(stretch(rng), stretch(rng), stretch(rng))
                                     : Vec3(1 + 1e-3 * stretch(rng), 1, 1 - 2e-3 * stretch(rng));
        A[k] = random_rotation(rng) * sigma.asDiagonal() * random_rotation(rng).transpose();
        A_dot[k] = random_matrix(rng);
        A_ddot[k] = random_matrix(rng);
      }
      PolarRatesBatch batch;
      polar_rotation_rates_batch(n, A, A_dot, A_ddot, true, batch);
      for (int k = 0; k < n; ++k) {
        ASSERT_TRUE(batch.ok[k]) << n << " " << trial << " " << k;
        const PolarDecomposition polar = polar_decomposition(A[k]);
        Eigen::Matrix<double, 3, 9> map;
        const PolarRotationRates rates = polar_rotation_rates(polar, A_dot[k], A_ddot[k], &map);
        const auto near = [](const auto& a, const auto& b) {
          return (a - b).norm() <= 1e-13 * (1 + b.norm());
        };
        EXPECT_TRUE(near(batch.R[k], polar.R) && near(batch.S[k], polar.S)) << n << trial << k;
        EXPECT_TRUE(near(batch.omega[k], rates.omega)) << n << trial << k;
        EXPECT_TRUE(near(batch.omega_dot[k], rates.omega_dot)) << n << trial << k;
        EXPECT_TRUE(near(batch.omega_map[k], map)) << n << trial << k;
      }
    }
}

// A reflected A (det < 0: the SVD's case) and a singular one are left to the general path; the
// other lanes are unaffected.
TEST(PolarRotationRatesBatch, LanesNewtonCannotTakeAreLeftToTheGeneralPath) {
  std::mt19937 rng(32);
  Mat3 A[4], A_dot[4], A_ddot[4];
  for (int k = 0; k < 4; ++k) {
    A[k] = random_rotation(rng);
    A_dot[k] = random_matrix(rng);
    A_ddot[k] = random_matrix(rng);
  }
  A[1].col(2) = -A[1].col(2);  // det = −1
  A[3].col(0).setZero();       // singular
  PolarRatesBatch batch;
  polar_rotation_rates_batch(4, A, A_dot, A_ddot, false, batch);
  EXPECT_TRUE(batch.ok[0] && batch.ok[2]);
  EXPECT_FALSE(batch.ok[1] || batch.ok[3]);
  const PolarDecomposition polar = polar_decomposition(A[2]);
  EXPECT_LE((batch.R[2] - polar.R).norm(), 1e-13);
  EXPECT_LE((batch.omega[2] - polar_rotation_rates(polar, A_dot[2], A_ddot[2]).omega).norm(),
            1e-12 * (1 + batch.omega[2].norm()));
}

}  // namespace
}  // namespace substruct
