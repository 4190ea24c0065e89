// SPDX-License-Identifier: GPL-3.0-or-later
// The per-child products over an interface frame model's 12-value columns against Eigen's.
#include "substruct/kinematics/interface_frame_columns.hpp"

#include <random>

#include <gtest/gtest.h>
#include <Eigen/Core>

#include "substruct/kinematics/skew.hpp"
#include "support/random_matrices.hpp"

namespace substruct {
namespace {

double max_abs(const Eigen::MatrixXd& m) {
  return m.size() ? m.cwiseAbs().maxCoeff() : 0.0;
}

TEST(InterfaceFrameColumns, SumsEqualTheDenseProduct) {
  std::mt19937 rng(21);
  std::normal_distribution<double> normal;
  for (const int r : {1, 5, 8, 19, 20}) {
    Eigen::Matrix<double, 12, Eigen::Dynamic> C(12, r);
    for (auto& x : C.reshaped()) x = normal(rng);
    Eigen::MatrixXd X(r, 3);
    for (auto& x : X.reshaped()) x = normal(rng);
    Eigen::Matrix<double, 12, 3> y;  // Eq. 1, 2, 6: y_n = C x_n
    interface_frame_sums(r, C.data(), X.col(0).data(), X.col(1).data(), X.col(2).data(), y.data());
    const Eigen::Matrix<double, 12, 3> want = C * X;
    EXPECT_LE(max_abs(y - want), 1e-13 * (1 + max_abs(want))) << r;
  }
  double y[36];
  interface_frame_sums(0, nullptr, nullptr, nullptr, nullptr, y);  // no columns: zero sums
  for (const double v : y) EXPECT_EQ(v, 0);
}

// J = T â′ − (R d)~ Ω vec(T A′^ℓ Tᵀ) column by column (T = I or a rotation; Ω null: J = T â′),
// scaled and written into a child's three rows of a taller matrix, and J x (unscaled).
TEST(InterfaceFrameColumns, PointJacobianIsItsDefinition) {
  std::mt19937 rng(22);
  std::normal_distribution<double> normal;
  for (const int r : {1, 5, 19}) {
    Eigen::Matrix<double, 12, Eigen::Dynamic> C(12, r);
    for (auto& x : C.reshaped()) x = normal(rng);
    Eigen::Matrix<double, 3, 9> omega;
    for (auto& x : omega.reshaped()) x = normal(rng);
    const Vec3 Rd(normal(rng), normal(rng), normal(rng));
    Eigen::VectorXd x(r);
    for (auto& v : x) v = normal(rng);
    for (const bool turned : {false, true})
      for (const bool point : {false, true}) {
        const Mat3 T = turned ? testing::random_rotation(rng) : Mat3::Identity();
        Eigen::Matrix<double, 3, Eigen::Dynamic> want(3, r);
        for (int l = 0; l < r; ++l) {
          const Mat3 A = T * Eigen::Map<const Mat3>(C.col(l).data() + 3) * T.transpose();
          want.col(l) = T * C.col(l).head<3>();
          if (point) want.col(l) -= hat(Rd) * (omega * A.reshaped());
        }
        const double scale = point ? 1.0 : 2.5;
        Eigen::MatrixXd tall = Eigen::MatrixXd::Constant(9, r, 7.0);
        double Jx[4];
        interface_point_jacobian(r, C.data(), turned ? T.data() : nullptr, Rd.data(),
                                 point ? omega.data() : nullptr, x.data(), scale, tall.data() + 3,
                                 tall.outerStride(), Jx);
        EXPECT_LE(max_abs(tall.middleRows(3, 3) - scale * want), 1e-13 * (1 + max_abs(want)))
            << r << turned << point;
        EXPECT_TRUE((tall.topRows(3).array() == 7.0).all() &&
                    (tall.bottomRows(3).array() == 7.0).all())
            << "only the child's three rows are written";
        const Vec3 want_Jx = want * x;
        EXPECT_LE((Eigen::Map<const Vec3>(Jx) - want_Jx).norm(), 1e-13 * (1 + want_Jx.norm()));
        EXPECT_EQ(Jx[3], 0);
      }
  }
}

}  // namespace
}  // namespace substruct
