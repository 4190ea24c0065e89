// SPDX-License-Identifier: GPL-3.0-or-later
// Constrained linear modes through the slepc eigen-solver plugin: the eigen equation, mass
// orthonormality, fixed DOFs, the rigid modes of free-flying domains, and a dense reference.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include "substruct/config/config.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/dof_map.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/reduction/linear_modes.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using testing::error_message;

struct Matrices {
  SparseMatrix K, M;
  explicit Matrices(const TetMesh& mesh) {
    const ElasticForceModel model(mesh, MaterialModel::stvk);
    K = model.stiffness(Eigen::VectorXd::Zero(model.num_dofs()));
    M = consistent_mass(mesh);
  }
};

// All eigenvalues of K x = λ M x on the free DOFs, ascending: a dense reference.
Eigen::VectorXd dense_eigenvalues(const Matrices& m, const DofMap& dofs) {
  const Eigen::MatrixXd K(dofs.restrict_matrix(m.K)), M(dofs.restrict_matrix(m.M));
  return Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>(K, M, Eigen::EigenvaluesOnly)
      .eigenvalues();
}

double max_abs(const Eigen::MatrixXd& A) {
  return A.cwiseAbs().maxCoeff();
}

class LinearModes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::filesystem::path meshes = testing::share_dir() / "meshes";
    beam_ = new TetMesh(read_tet_mesh(meshes / "beam3_tet.veg"));
    fixed_ = new std::vector<Index>(read_bou(meshes / "beam3.bou", beam_->num_vertices()));
  }
  static void TearDownTestSuite() {
    delete beam_;
    delete fixed_;
  }

  std::unique_ptr<EigenSolver> slepc() {
    const Config config = Config::from_settings({{"solvers.eigen", "slepc", "test"}},
                                                std::filesystem::temp_directory_path(), host_);
    return host_.create<EigenSolver>("slepc", PluginKind::eigen_solver, PluginContext{config});
  }

  // max over modes of ‖K φ − λ M φ‖ / ‖K φ‖ on the free DOFs (the fixed rows hold reactions).
  static double worst_residual(const Matrices& m, const EigenPairs& p, const DofMap& dofs) {
    double worst = 0;
    for (Eigen::Index c = 0; c < p.vectors.cols(); ++c) {
      const Eigen::VectorXd Kphi = dofs.restrict_vector(m.K * p.vectors.col(c));
      const Eigen::VectorXd Mphi = dofs.restrict_vector(m.M * p.vectors.col(c));
      worst = std::max(worst, (Kphi - p.values[c] * Mphi).norm() / Kphi.norm());
    }
    return worst;
  }
  static double orthonormality_error(const Matrices& m, const Eigen::MatrixXd& Phi) {
    return max_abs(Phi.transpose() * (m.M * Phi) -
                   Eigen::MatrixXd::Identity(Phi.cols(), Phi.cols()));
  }

  // Two boxes side by side that share no vertex: 12 rigid modes.
  static TetMesh two_boxes() {
    TetMesh a = make_box_mesh(Vec3(0, 0, 0), Vec3(0.5, 0.2, 0.2), 4, 2, 2);
    const TetMesh b = make_box_mesh(Vec3(1, 0, 0), Vec3(1.5, 0.2, 0.2), 4, 2, 2);
    const Index n = a.num_vertices();
    a.vertices.conservativeResize(2 * n, 3);
    a.vertices.bottomRows(n) = b.vertices;
    const Index m = a.num_elements();
    a.tets.conservativeResize(2 * m, 4);
    a.tets.bottomRows(m) = b.tets.array() + n;
    a.element_material.resize(std::size_t(2 * m), 0);
    return a;
  }

  static TetMesh* beam_;
  static std::vector<Index>* fixed_;
  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

TetMesh* LinearModes::beam_ = nullptr;
std::vector<Index>* LinearModes::fixed_ = nullptr;

TEST_F(LinearModes, ClampedBeamModesSolveTheEigenproblem) {
  const Matrices m(*beam_);
  auto eigen = slepc();
  const EigenPairs modes = linear_modes(*beam_, {*fixed_, false}, 10, *eigen);
  ASSERT_EQ(modes.values.size(), 10);
  ASSERT_EQ(modes.vectors.rows(), 3 * beam_->num_vertices());
  ASSERT_EQ(modes.vectors.cols(), 10);
  const DofMap dofs = DofMap::for_fixed_vertices(beam_->num_vertices(), *fixed_);
  const double residual = worst_residual(m, modes, dofs);
  EXPECT_LT(residual, 1e-8);
  EXPECT_LT(orthonormality_error(m, modes.vectors), 1e-10);
  for (Index v : *fixed_)
    for (int c = 0; c < 3; ++c)
      for (int j = 0; j < 10; ++j) ASSERT_EQ(modes.vectors(3 * v + c, j), 0.0);
  // The 10 lowest eigenvalues of the dense problem, ascending.
  const Eigen::VectorXd reference = dense_eigenvalues(m, dofs);
  for (int j = 0; j < 10; ++j) {
    EXPECT_NEAR(modes.values[j], reference[j], 1e-8 * reference[j]) << "mode " << j;
    if (j > 0) {
      EXPECT_LE(modes.values[j - 1], modes.values[j]);
    }
  }
  // Deterministic signs: the largest-magnitude entry of each mode is positive.
  for (int j = 0; j < 10; ++j) {
    Eigen::Index at;
    modes.vectors.col(j).cwiseAbs().maxCoeff(&at);
    EXPECT_GT(modes.vectors(at, j), 0.0);
  }
  RecordProperty("worst_relative_residual", fmt::format("{:.3g}", residual));
  RecordProperty("lowest_frequency_hz",
                 fmt::format("{:.4g}", std::sqrt(modes.values[0]) / (2 * M_PI)));
}

TEST_F(LinearModes, MatrixFormMatchesMeshForm) {
  const Matrices m(*beam_);
  auto eigen = slepc();
  const EigenPairs from_mesh = linear_modes(*beam_, {*fixed_, false}, 6, *eigen);
  const EigenPairs from_matrices = linear_modes(m.K, m.M, {*fixed_, false}, 6, *eigen);
  EXPECT_EQ(from_mesh.values, from_matrices.values);
  EXPECT_EQ(from_mesh.vectors, from_matrices.vectors);
}

TEST_F(LinearModes, FreeFlyingModesAreOrthogonalToTheRigidModes) {
  Material material;
  material.youngs_modulus = 5e6;
  const TetMesh box = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 0.3, 0.2), 10, 3, 2, material);
  const Matrices m(box);
  const Eigen::MatrixXd R = rigid_body_modes(box.vertices, m.M);
  EXPECT_LT(orthonormality_error(m, R), 1e-12);
  EXPECT_LT((m.K * R).norm() / m.K.norm(), 1e-12);  // they cost no energy
  auto eigen = slepc();
  const EigenPairs modes = linear_modes(box, {{}, true}, 8, *eigen);
  ASSERT_EQ(modes.vectors.cols(), 8);
  EXPECT_LT(max_abs(R.transpose() * (m.M * modes.vectors)), 1e-10);
  const DofMap all(3 * box.num_vertices(), {});
  EXPECT_LT(worst_residual(m, modes, all), 1e-8);
  EXPECT_LT(orthonormality_error(m, modes.vectors), 1e-10);
  // Eigenvalues 7…14 of the dense problem (1…6 are the rigid modes, ≈ 0).
  const Eigen::VectorXd reference = dense_eigenvalues(m, all);
  EXPECT_LT(std::abs(reference[5]), 1e-8 * reference[6]);
  for (int j = 0; j < 8; ++j)
    EXPECT_NEAR(modes.values[j], reference[6 + j], 1e-8 * reference[6 + j]) << "mode " << j;
  // The matrix form drops the solver's near-zero modes: the same eigenvalues.
  const EigenPairs from_matrices = linear_modes(m.K, m.M, {{}, true}, 8, *eigen);
  for (int j = 0; j < 8; ++j)
    EXPECT_NEAR(from_matrices.values[j], reference[6 + j], 1e-8 * reference[6 + j]);
}

TEST_F(LinearModes, AreBitIdenticalFromRunToRun) {
  const EigenPairs a = linear_modes(*beam_, {*fixed_, false}, 8, *slepc());
  const EigenPairs b = linear_modes(*beam_, {*fixed_, false}, 8, *slepc());
  ASSERT_EQ(a.vectors.size(), b.vectors.size());
  EXPECT_EQ(std::memcmp(a.vectors.data(), b.vectors.data(), sizeof(double) * a.vectors.size()), 0);
  EXPECT_EQ(std::memcmp(a.values.data(), b.values.data(), sizeof(double) * a.values.size()), 0);
}

TEST_F(LinearModes, ZeroCountGivesNoModes) {
  auto eigen = slepc();
  const EigenPairs none = linear_modes(*beam_, {*fixed_, false}, 0, *eigen);
  EXPECT_EQ(none.values.size(), 0);
  EXPECT_EQ(none.vectors.rows(), 3 * beam_->num_vertices());
  EXPECT_EQ(none.vectors.cols(), 0);
}

TEST_F(LinearModes, RejectsWhatCannotBeComputed) {
  auto eigen = slepc();
  std::string message = error_message([&] { linear_modes(*beam_, {*fixed_, true}, 4, *eigen); });
  EXPECT_NE(message.find("no rigid-body modes to remove"), std::string::npos) << message;
  const TetMesh tet = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 1, 1);  // 8 vertices
  message = error_message([&] { linear_modes(tet, {{0, 1, 2, 3}, false}, 13, *eigen); });
  EXPECT_NE(message.find("only 12 free degrees of freedom"), std::string::npos) << message;
  message = error_message([&] { linear_modes(tet, {{}, true}, 19, *eigen); });
  EXPECT_NE(message.find("plus its 6 rigid modes"), std::string::npos) << message;
  const Matrices m(*beam_);
  const SparseMatrix small(30, 30);
  message = error_message([&] { linear_modes(m.K, small, {}, 2, *eigen); });
  EXPECT_NE(message.find("same size"), std::string::npos) << message;
  // Two disconnected boxes have 12 zero-energy modes, not 6.
  message = error_message([&] { linear_modes(two_boxes(), {{}, true}, 4, *eigen); });
  EXPECT_NE(message.find("exactly 6 zero-frequency"), std::string::npos) << message;
}

}  // namespace
}  // namespace substruct
