// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/independent_rows.hpp"

#include <limits>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Dense>

#include "substruct/core/error.hpp"
#include "support/random_matrices.hpp"

namespace substruct {
namespace {

using Rows = std::vector<Eigen::Index>;
using testing::uniform_matrix;

Eigen::MatrixXd rows_of(const Eigen::MatrixXd& J, const Rows& keep) {
  Eigen::MatrixXd K(static_cast<Eigen::Index>(keep.size()), J.cols());
  for (std::size_t i = 0; i < keep.size(); ++i)
    K.row(static_cast<Eigen::Index>(i)) = J.row(keep[i]);
  return K;
}

/// The largest distance of a row of J from the row space of K, relative to J's largest row.
double largest_residual(const Eigen::MatrixXd& J, const Eigen::MatrixXd& K) {
  const Eigen::MatrixXd Q =
      K.transpose().householderQr().householderQ() * Eigen::MatrixXd::Identity(K.cols(), K.rows());
  const Eigen::MatrixXd R = J.transpose() - Q * (Q.transpose() * J.transpose());
  return R.colwise().norm().maxCoeff() / J.rowwise().norm().maxCoeff();
}

TEST(IndependentRows, KeepsABasis) {
  // Independent rows are all kept; more rows than columns keep the first n (generic rows).
  EXPECT_EQ(independent_rows(uniform_matrix(5, 8, 1)), (Rows{0, 1, 2, 3, 4}));
  EXPECT_EQ(independent_rows(uniform_matrix(8, 8, 2)), (Rows{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(independent_rows(uniform_matrix(12, 4, 3)), (Rows{0, 1, 2, 3}));
  // Rank 4 in 20 × 10: four rows kept, and they span every row.
  const Eigen::MatrixXd J = uniform_matrix(20, 4, 4) * uniform_matrix(4, 10, 5);
  const Rows keep = independent_rows(J);
  EXPECT_EQ(keep, (Rows{0, 1, 2, 3}));
  EXPECT_LT(largest_residual(J, rows_of(J, keep)), 1e-12);
  EXPECT_EQ(Eigen::FullPivLU<Eigen::MatrixXd>(rows_of(J, keep)).rank(), 4);
}

TEST(IndependentRows, DropsDuplicatesAndCombinations) {
  const Eigen::MatrixXd A = uniform_matrix(3, 6, 6);
  Eigen::MatrixXd J(8, 6);
  J.row(0) = A.row(0);
  J.row(1) = A.row(1);
  J.row(2) = A.row(0);                         // exact duplicate
  J.row(3) = -2.5 * A.row(1);                  // scaled duplicate
  J.row(4) = A.row(0) + 2.0 * A.row(1);        // combination
  J.row(5) = A.row(2);                         // new
  J.row(6) = A.row(2) / 3.0 - A.row(0) / 7.0;  // combination of kept rows 5 and 0
  J.row(7) = 1e3 * (A.row(1) - A.row(2));      // large combination
  EXPECT_EQ(independent_rows(J), (Rows{0, 1, 5}));
  // The first of a dependent group wins: reversed order keeps other rows, as many.
  const Eigen::MatrixXd reversed = J.colwise().reverse();
  const Rows keep = independent_rows(reversed);
  EXPECT_EQ(keep.size(), 3u);
  EXPECT_EQ(keep.front(), 0);
  EXPECT_LT(largest_residual(reversed, rows_of(reversed, keep)), 1e-12);
}

TEST(IndependentRows, RespectsTheTolerance) {
  // Row 1 is row 0 plus δ times a unit vector orthogonal to it: its distance from row 0's span is
  // δ, relative to J's largest row norm ≈ 1.
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(2, 4);
  J.row(0) << 0.6, 0.8, 0.0, 0.0;
  for (const double delta : {1e-3, 1e-6, 1e-9}) {
    J.row(1) = J.row(0);
    J(1, 2) = delta;
    EXPECT_EQ(independent_rows(J, delta / 10), (Rows{0, 1})) << delta;
    EXPECT_EQ(independent_rows(J, delta * 10), (Rows{0})) << delta;
  }
  // The default (1e-10) keeps a difference of 1e-9 and drops rounding noise.
  J.row(1) = J.row(0);
  J(1, 2) = 1e-9;
  EXPECT_EQ(independent_rows(J), (Rows{0, 1}));
  J.row(1) = J.row(0) * (1 + 1e-15);
  J(1, 3) = 1e-15;
  EXPECT_EQ(independent_rows(J), (Rows{0}));
  EXPECT_EQ(independent_rows(J, 0.0), (Rows{0, 1}));  // only exact dependence is dropped then
  // Scaling J as a whole changes nothing; scaling one row can (the threshold is J's scale).
  J(1, 3) = 1e-6;
  EXPECT_EQ(independent_rows(J, 1e-7), (Rows{0, 1}));
  EXPECT_EQ(independent_rows(1e-9 * J, 1e-7), (Rows{0, 1}));
  EXPECT_EQ(independent_rows(1e12 * J, 1e-7), (Rows{0, 1}));
  J.row(0) *= 100;
  EXPECT_EQ(independent_rows(J, 1e-7), (Rows{0}));
}

TEST(IndependentRows, HandlesZeroAndNegligibleRows) {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(5, 3);
  EXPECT_TRUE(independent_rows(J).empty());
  EXPECT_TRUE(independent_rows(J, 0.0).empty());
  J.row(1) << 1, 2, 3;
  J.row(3) << 0, 1e-14, 0;  // negligible against row 1
  J.row(4) << 0, 0, 1;
  EXPECT_EQ(independent_rows(J), (Rows{1, 4}));
  EXPECT_EQ(independent_rows(J, 0.0), (Rows{1, 3, 4}));
  EXPECT_TRUE(independent_rows(Eigen::MatrixXd(0, 4)).empty());
  EXPECT_TRUE(independent_rows(Eigen::MatrixXd(4, 0)).empty());
  // A block of a larger matrix, without a copy.
  const Eigen::MatrixXd big = uniform_matrix(6, 6, 9);
  EXPECT_EQ(independent_rows(big.topRightCorner(3, 2)), (Rows{0, 1}));
}

TEST(IndependentRows, RejectsNonFiniteInput) {
  Eigen::MatrixXd J = Eigen::MatrixXd::Identity(2, 2);
  EXPECT_THROW(independent_rows(J, -1e-10), Error);
  EXPECT_THROW(independent_rows(J, std::numeric_limits<double>::quiet_NaN()), Error);
  EXPECT_THROW(independent_rows(J, std::numeric_limits<double>::infinity()), Error);
  J(1, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(independent_rows(J), Error);
}

}  // namespace
}  // namespace substruct
