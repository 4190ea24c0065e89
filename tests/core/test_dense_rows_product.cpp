// SPDX-License-Identifier: GPL-3.0-or-later
// y = A x and y' = A x' in one pass over a row-major A: Eigen's products to round-off for every
// shape the kernel splits differently (rows not a multiple of 3, columns not of 4, one column,
// unaligned data), y alone the same bit for bit as y with y', and a column-major matrix read as
// its row-major transpose.
#include "substruct/core/dense_rows_product.hpp"

#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/core/types.hpp"

namespace substruct {
namespace {

TEST(DenseRowsProduct, MatchesEigenForEveryShape) {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (Index rows : {1, 2, 3, 4, 7, 30, 151})
    for (Index cols : {1, 2, 3, 4, 5, 7, 8, 9, 16, 50, 53}) {
      // One extra element in front of each array: the kernel must not assume alignment.
      std::vector<double> a(std::size_t(rows * cols) + 1), x(std::size_t(cols) + 1),
          x2(std::size_t(cols) + 1);
      for (double& v : a) v = unit(random);
      for (double& v : x) v = unit(random);
      for (double& v : x2) v = unit(random);
      const Eigen::Map<const RowMajorMatrix> A(a.data() + 1, rows, cols);
      const Eigen::Map<const Eigen::VectorXd> X(x.data() + 1, cols), X2(x2.data() + 1, cols);
      std::vector<double> y(std::size_t(rows) + 1), y2(std::size_t(rows) + 1),
          alone(std::size_t(rows) + 1);
      dense_rows_product(std::size_t(rows), std::size_t(cols), a.data() + 1, x.data() + 1,
                         x2.data() + 1, y.data() + 1, y2.data() + 1);
      dense_rows_product(std::size_t(rows), std::size_t(cols), a.data() + 1, x.data() + 1, nullptr,
                         alone.data() + 1, nullptr);
      const Eigen::VectorXd expected = A * X, expected2 = A * X2;
      const double tol = 1e-14 * double(cols);
      for (Index i = 0; i < rows; ++i) {
        EXPECT_NEAR(y[std::size_t(i) + 1], expected[i], tol) << rows << "×" << cols;
        EXPECT_NEAR(y2[std::size_t(i) + 1], expected2[i], tol) << rows << "×" << cols;
        EXPECT_EQ(alone[std::size_t(i) + 1], y[std::size_t(i) + 1]) << rows << "×" << cols;
      }
    }
}

TEST(DenseRowsProduct, AColumnMajorMatrixIsItsRowMajorTranspose) {
  std::mt19937 random(4);
  std::uniform_real_distribution<double> unit(-1, 1);
  const Eigen::MatrixXd Phi = Eigen::MatrixXd::NullaryExpr(300, 17, [&] { return unit(random); });
  const Eigen::VectorXd f = Eigen::VectorXd::NullaryExpr(300, [&] { return unit(random); });
  Eigen::VectorXd y(17);
  dense_rows_product(17, 300, Phi.data(), f.data(), nullptr, y.data(), nullptr);
  EXPECT_LE((y - Phi.transpose() * f).cwiseAbs().maxCoeff(), 1e-12);
}

}  // namespace
}  // namespace substruct
