// SPDX-License-Identifier: GPL-3.0-or-later
// Mass-PCA and M-orthonormalisation against dense references on a small box mesh.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>
#include <Eigen/SVD>

#include "substruct/fem/mass.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/reduction/mass_pca.hpp"
#include "support/random_matrices.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using testing::error_message;
using testing::uniform_matrix;

double max_abs(const Eigen::MatrixXd& A) {
  return A.size() == 0 ? 0.0 : A.cwiseAbs().maxCoeff();
}

class MassPca : public ::testing::Test {
 protected:
  MassPca() {
    Material material;
    material.density = 1200;
    // 7×3×3 = 63 vertices, 189 DOFs; M has entries ~ ρV/20 ~ 0.1.
    const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1.2, 0.3, 0.2), 6, 2, 2, material);
    M = consistent_mass(mesh);
    n = M.rows();
  }
  // ‖UᵀMU − I‖_max.
  double orthonormality_error(const Eigen::MatrixXd& U) const {
    return max_abs(U.transpose() * (M * U) - Eigen::MatrixXd::Identity(U.cols(), U.cols()));
  }
  // The largest M-norm of a column of A after removing its M-projection onto span U
  // (U M-orthonormal).
  double projection_residual(const Eigen::MatrixXd& A, const Eigen::MatrixXd& U) const {
    const Eigen::MatrixXd rest = A - U * (U.transpose() * (M * A));
    return std::sqrt(std::max(0.0, (rest.transpose() * (M * rest)).diagonal().maxCoeff()));
  }

  SparseMatrix M;
  Eigen::Index n = 0;
};

TEST_F(MassPca, OrthonormalizeGivesIdentityGramKeepsLeadingSpansAndFixesSigns) {
  const Eigen::MatrixXd V = uniform_matrix(n, 8, 7);
  Eigen::MatrixXd U = V;
  mass_orthonormalize(U, M);
  EXPECT_LT(orthonormality_error(U), 1e-12);
  // Column j of V lies in the span of the first j+1 columns of U (Gram–Schmidt).
  for (int j = 0; j < 8; ++j) {
    const Eigen::MatrixXd lead = U.leftCols(j + 1);
    const Eigen::VectorXd v = V.col(j);
    const double residual = projection_residual(v, lead);
    EXPECT_LT(residual, 1e-12 * std::sqrt(v.dot(M * v))) << "column " << j;
  }
  // Largest-magnitude entry positive, and −V gives the same U.
  for (int j = 0; j < 8; ++j) {
    Eigen::Index at;
    U.col(j).cwiseAbs().maxCoeff(&at);
    EXPECT_GT(U(at, j), 0.0);
  }
  Eigen::MatrixXd U_negated = -V;
  mass_orthonormalize(U_negated, M);
  EXPECT_LT(max_abs(U_negated - U), 1e-13);
}

TEST_F(MassPca, OrthonormalizeHandlesNearlyDependentColumns) {
  // Columns differing by 1e-7: one Gram–Schmidt pass would lose orthogonality to ~1e-9.
  Eigen::MatrixXd V = uniform_matrix(n, 4, 11);
  V.col(1) = V.col(0) + 1e-7 * V.col(1);
  V.col(3) = V.col(2) - 1e-7 * V.col(3);
  mass_orthonormalize(V, M);
  EXPECT_LT(orthonormality_error(V), 1e-12);
}

TEST_F(MassPca, OrthonormalizeRejectsDependentColumns) {
  Eigen::MatrixXd V = uniform_matrix(n, 3, 5);
  V.col(2) = 2 * V.col(0) - V.col(1);
  const std::string message = error_message([&] { mass_orthonormalize(V, M); });
  EXPECT_NE(message.find("vector 3 of 3 is a combination"), std::string::npos) << message;
  Eigen::MatrixXd wrong(n + 3, 2);
  wrong.setOnes();
  EXPECT_NE(error_message([&] { mass_orthonormalize(wrong, M); }).find("192 entries"),
            std::string::npos);
}

TEST_F(MassPca, MatchesTheSvdOfTheMassWeightedVectors) {
  // Reference: M = LLᵀ, Lᵀ V = Y Σ Zᵀ, U = L⁻ᵀ Y_r (the M-orthonormal principal directions).
  Eigen::MatrixXd V = uniform_matrix(n, 12, 3);
  V *= Eigen::VectorXd::LinSpaced(12, 12.0, 1.0).asDiagonal();  // distinct variances
  const Eigen::MatrixXd dense_M(M);
  const Eigen::LLT<Eigen::MatrixXd> llt(dense_M);
  ASSERT_EQ(llt.info(), Eigen::Success);
  const Eigen::MatrixXd LtV = llt.matrixU() * V;
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(LtV, Eigen::ComputeThinU);
  const int r = 5;
  const Eigen::MatrixXd U_ref = llt.matrixU().solve(svd.matrixU().leftCols(r));

  const Eigen::MatrixXd U = mass_pca(V, M, r);
  ASSERT_EQ(U.rows(), n);
  ASSERT_EQ(U.cols(), r);
  EXPECT_LT(orthonormality_error(U), 1e-12);
  // Same directions, one by one, up to sign: |u_cᵀ M u_ref,c| = 1.
  for (int c = 0; c < r; ++c) {
    const double cosine = U.col(c).dot(M * U_ref.col(c));
    EXPECT_NEAR(std::abs(cosine), 1.0, 1e-10) << "component " << c;
  }
  // The captured M-variance is the sum of the r largest σ².
  const Eigen::MatrixXd coefficients = U.transpose() * (M * V);
  EXPECT_NEAR(coefficients.squaredNorm(), svd.singularValues().head(r).squaredNorm(),
              1e-10 * svd.singularValues().squaredNorm());
}

TEST_F(MassPca, RecoversTheDominantSubspaceUnderSmallNoise) {
  // Φ: 4 M-orthonormal directions with weights 4, 3, 2, 1; then 10 noise vectors of size 1e-6.
  Eigen::MatrixXd Phi = uniform_matrix(n, 4, 21);
  mass_orthonormalize(Phi, M);
  Eigen::MatrixXd V(n, 14);
  V << Phi * Eigen::Vector4d(4, 3, 2, 1).asDiagonal(), 1e-6 * uniform_matrix(n, 10, 22);
  const Eigen::MatrixXd U = mass_pca(V, M, 4);
  EXPECT_LT(orthonormality_error(U), 1e-12);
  // span U = span Φ up to O(noise²): every φ is captured to 1e-10 in the M norm.
  EXPECT_LT(projection_residual(Phi, U), 1e-10);
  // Ordered by variance: u₁ ≈ ±φ₁.
  EXPECT_NEAR(std::abs(U.col(0).dot(M * Phi.col(0))), 1.0, 1e-10);
  EXPECT_NEAR(std::abs(U.col(3).dot(M * Phi.col(3))), 1.0, 1e-10);
}

TEST_F(MassPca, IsDeterministic) {
  const Eigen::MatrixXd V = uniform_matrix(n, 30, 9);
  const Eigen::MatrixXd a = mass_pca(V, M, 10);
  const Eigen::MatrixXd b = mass_pca(V, M, 10);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(double) * std::size_t(a.size())), 0);
}

TEST_F(MassPca, EdgeCasesAndErrors) {
  const Eigen::MatrixXd V = uniform_matrix(n, 6, 1);
  const Eigen::MatrixXd none = mass_pca(V, M, 0);
  EXPECT_EQ(none.rows(), n);
  EXPECT_EQ(none.cols(), 0);
  EXPECT_NE(error_message([&] { mass_pca(V, M, 7); }).find("cannot keep 7 components of 6"),
            std::string::npos);
  // Rank 3 data cannot give 4 components.
  Eigen::MatrixXd low(n, 6);
  Eigen::Matrix3d mix;
  mix << 1, 2, 0, -1, 0.5, 3, 0, 1, -2;
  low << V.leftCols(3), V.leftCols(3) * mix;
  const std::string message = error_message([&] { mass_pca(low, M, 4); });
  EXPECT_NE(message.find("span fewer than 4 directions"), std::string::npos) << message;
  EXPECT_EQ(mass_pca(low, M, 3).cols(), 3);
}

}  // namespace
}  // namespace substruct
