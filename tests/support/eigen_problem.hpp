// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// FEM eigenproblems for the eigen-solver plugins' tests (slepc, spectra): K and M of a mesh on
// its free DOFs, the dense reference solve, and the M-inner-product measures the tests assert.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Dense>

#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/dof_map.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/solvers/eigen_solver.hpp"

namespace substruct::testing {

/// K (the stiffness at rest) and M (consistent) on the DOFs left free by some fixed vertices.
struct EigenProblem {
  SparseMatrix K, M;
};

inline EigenProblem eigen_problem_of(const TetMesh& mesh, const std::vector<Index>& fixed,
                                     MaterialModel model = MaterialModel::linear) {
  const DofMap dofs = DofMap::for_fixed_vertices(mesh.num_vertices(), fixed);
  const ElasticForceModel forces(mesh, model);
  return {dofs.restrict_matrix(forces.stiffness(Eigen::VectorXd::Zero(3 * mesh.num_vertices()))),
          dofs.restrict_matrix(consistent_mass(mesh))};
}

/// A 1 m × 0.25 m × 0.15 m box of nx × ny × nz cells: its cross-section is not square, so its
/// lowest eigenvalues are simple and the eigenvectors unique up to sign (8 × 3 × 2 by default).
inline TetMesh eigen_test_box(int nx = 8, int ny = 3, int nz = 2) {
  Material material;
  material.youngs_modulus = 2e6;
  material.poisson_ratio = 0.3;
  material.density = 1100;
  return make_box_mesh(Vec3(0, 0, 0), Vec3(1, 0.25, 0.15), nx, ny, nz, material);
}

/// Every eigenpair of the dense problem, ascending, vectors M-normalised.
inline Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> dense_eigensolve(
    const EigenProblem& p) {
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> dense(
      Eigen::MatrixXd(p.K), Eigen::MatrixXd(p.M), Eigen::ComputeEigenvectors | Eigen::Ax_lBx);
  EXPECT_EQ(dense.info(), Eigen::Success);
  return dense;
}

/// |cos| of the angle between x and y in the M inner product.
inline double m_cosine(const Eigen::VectorXd& x, const Eigen::VectorXd& y, const SparseMatrix& M) {
  return std::abs(x.dot(M * y)) / std::sqrt(x.dot(M * x) * y.dot(M * y));
}

/// max |XᵀMX − I|.
inline double m_orthonormality_error(const Eigen::MatrixXd& X, const SparseMatrix& M) {
  return (X.transpose() * (M * X) - Eigen::MatrixXd::Identity(X.cols(), X.cols()))
      .cwiseAbs()
      .maxCoeff();
}

/// Eigenvalues `first`… of `pairs` against the dense ones `dense_first`… to 1e-8 relative;
/// eigenvectors to |cos| ≥ 1 − 1e-8 in the M inner product.
inline void expect_eigenpairs_match(
    const EigenPairs& pairs, int first, int count,
    const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>& dense, int dense_first,
    const SparseMatrix& M, const std::string& what) {
  for (int i = 0; i < count; ++i) {
    const double expected = dense.eigenvalues()[dense_first + i];
    EXPECT_NEAR(pairs.values[first + i], expected, 1e-8 * std::abs(expected))
        << what << ", eigenvalue " << first + i;
    EXPECT_GE(m_cosine(pairs.vectors.col(first + i), dense.eigenvectors().col(dense_first + i), M),
              1 - 1e-8)
        << what << ", eigenvector " << first + i;
  }
}

}  // namespace substruct::testing
