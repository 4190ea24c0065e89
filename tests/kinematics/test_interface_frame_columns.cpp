// The per-child products over an interface frame model's 12-value columns against Eigen's.
#include "substruct/kinematics/interface_frame_columns.hpp"

#include <random>

#include <gtest/gtest.h>
#include <Eigen/Core>

namespace substruct {
namespace {

TEST(InterfaceFrameColumns, SumsAndMapEqualTheDenseProducts) {
  std::mt19937 rng(21);
  std::normal_distribution<double> normal;
  for (const int r : {1, 5, 8, 19, 20}) {
    Eigen::Matrix<double, 12, Eigen::Dynamic> C(12, r);
    for (auto& x : C.reshaped()) x = normal(rng);
    Eigen::MatrixXd X(r, 3);
    for (auto& x : X.reshaped()) x = normal(rng);
    // Eq. 1, 2, 6: y_n = C x_n.
    Eigen::Matrix<double, 12, 3> y;
    interface_frame_sums(r, C.data(), X.col(0).data(), X.col(1).data(), X.col(2).data(), y.data());
    const Eigen::Matrix<double, 12, 3> want = C * X;
    EXPECT_LE((y - want).cwiseAbs().maxCoeff(), 1e-13 * (1 + want.cwiseAbs().maxCoeff())) << r;
    // J = P C into every third row of a taller matrix (a child's rows of a batch), and J x.
    Eigen::Matrix<double, 3, 12> P;
    for (auto& x : P.reshaped()) x = normal(rng);
    Eigen::MatrixXd tall = Eigen::MatrixXd::Constant(9, r, 7.0);
    double Jx[3];
    interface_frame_map(r, C.data(), P.data(), tall.data() + 3, tall.outerStride(), X.col(0).data(),
                        Jx);
    const Eigen::Matrix<double, 3, Eigen::Dynamic> J = P * C;
    EXPECT_LE((tall.middleRows(3, 3) - J).cwiseAbs().maxCoeff(),
              1e-13 * (1 + J.cwiseAbs().maxCoeff()))
        << r;
    EXPECT_TRUE((tall.topRows(3).array() == 7.0).all() && (tall.bottomRows(3).array() == 7.0).all())
        << "only the child's three rows are written";
    const Eigen::Vector3d want_Jx = J * X.col(0);
    EXPECT_LE((Eigen::Map<const Eigen::Vector3d>(Jx) - want_Jx).norm(),
              1e-13 * (1 + want_Jx.norm()))
        << r;
  }
  // No columns (a rigid parent): zero sums.
  double y[36], Jx[3] = {1, 1, 1};
  const double P[36] = {};
  interface_frame_sums(0, nullptr, nullptr, nullptr, nullptr, y);
  interface_frame_map(0, nullptr, P, nullptr, 3, nullptr, Jx);
  for (const double v : y) EXPECT_EQ(v, 0);
  for (const double v : Jx) EXPECT_EQ(v, 0);
}

}  // namespace
}  // namespace substruct
