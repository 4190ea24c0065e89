// SPDX-License-Identifier: GPL-3.0-or-later
// Modal derivatives of StVK: the Hessian product against finite differences of the assembled
// stiffness, and Ψ_ij against its defining equation K Ψ_ij = −(H : Φ_i) Φ_j, on the clamped
// beam3 and on a free-flying box, with modes from a dense reference eigen solve.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
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
#include "substruct/reduction/modal_derivatives.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"
#include "support/thread_process_group.hpp"

namespace substruct {
namespace {

using testing::error_message;

// The `count` lowest modes of K φ = λ M φ on the free DOFs of `dofs`, skipping the first `skip`,
// full length: a dense reference solve.
Eigen::MatrixXd dense_modes(const SparseMatrix& K, const SparseMatrix& M, const DofMap& dofs,
                            int skip, int count) {
  const Eigen::MatrixXd Kd(dofs.restrict_matrix(K)), Md(dofs.restrict_matrix(M));
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> eigen(Kd, Md);
  Eigen::MatrixXd Phi(K.rows(), count);
  for (int c = 0; c < count; ++c)
    Phi.col(c) = dofs.expand_vector(eigen.eigenvectors().col(skip + c));
  return Phi;
}

Eigen::VectorXd random_vector(Eigen::Index size, std::uint32_t seed) {
  std::mt19937 generator(seed);
  Eigen::VectorXd v(size);
  for (Eigen::Index i = 0; i < size; ++i) v[i] = double(generator()) / 2147483648.0 - 1.0;
  return v;
}

double relative(const Eigen::VectorXd& x, const Eigen::VectorXd& reference) {
  return (x - reference).norm() / reference.norm();
}

class ModalDerivatives : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::filesystem::path meshes = testing::share_dir() / "meshes";
    beam_ = new TetMesh(read_tet_mesh(meshes / "beam3_tet.veg"));
    beam_fixed_ = new std::vector<Index>(read_bou(meshes / "beam3.bou", beam_->num_vertices()));
    const ElasticForceModel model(*beam_, MaterialModel::stvk);
    beam_K_ = new SparseMatrix(model.stiffness(Eigen::VectorXd::Zero(model.num_dofs())));
    const SparseMatrix M = consistent_mass(*beam_);
    const DofMap dofs = DofMap::for_fixed_vertices(beam_->num_vertices(), *beam_fixed_);
    beam_Phi_ = new Eigen::MatrixXd(dense_modes(*beam_K_, M, dofs, 0, kModes));
  }
  static void TearDownTestSuite() {
    delete beam_;
    delete beam_fixed_;
    delete beam_K_;
    delete beam_Phi_;
  }

  std::unique_ptr<LinearSolver> cholmod() {
    const Config config = Config::from_settings({{"solvers.linear", "cholmod", "test"}},
                                                std::filesystem::temp_directory_path(), host_);
    return host_.create<LinearSolver>("cholmod", PluginKind::linear_solver, PluginContext{config});
  }

  // (K(εa) − K(−εa)) / 2ε · b, exact up to rounding because K is quadratic in u for StVK; ε
  // moves the mesh by 1e-3 of its size.
  static Eigen::VectorXd stiffness_difference(const TetMesh& mesh, const Eigen::VectorXd& a,
                                              const Eigen::VectorXd& b) {
    const ElasticForceModel model(mesh, MaterialModel::stvk);
    const double size =
        (mesh.vertices.colwise().maxCoeff() - mesh.vertices.colwise().minCoeff()).norm();
    const double eps = 1e-3 * size / a.cwiseAbs().maxCoeff();
    return (model.stiffness(eps * a) * b - model.stiffness(-eps * a) * b) / (2 * eps);
  }

  static constexpr int kModes = 6;
  static TetMesh* beam_;
  static std::vector<Index>* beam_fixed_;
  static SparseMatrix* beam_K_;
  static Eigen::MatrixXd* beam_Phi_;
  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

TetMesh* ModalDerivatives::beam_ = nullptr;
std::vector<Index>* ModalDerivatives::beam_fixed_ = nullptr;
SparseMatrix* ModalDerivatives::beam_K_ = nullptr;
Eigen::MatrixXd* ModalDerivatives::beam_Phi_ = nullptr;

TEST(DerivativeColumns, PairsAreOrderedRowByRow) {
  EXPECT_EQ(derivative_count(0), 0);
  EXPECT_EQ(derivative_count(20), 210);
  int expected = 0;
  for (int i = 0; i < 5; ++i)
    for (int j = i; j < 5; ++j) EXPECT_EQ(derivative_column(i, j, 5), expected++);
  EXPECT_EQ(expected, derivative_count(5));
}

TEST_F(ModalDerivatives, HessianProductIsTheDirectionalDerivativeOfTheStiffness) {
  const Eigen::MatrixXd& Phi = *beam_Phi_;
  const Eigen::VectorXd random = random_vector(Phi.rows(), 17);
  for (int i : {0, 2, 5}) {
    for (int j : {0, 1, 4}) {
      const Eigen::VectorXd H = stvk_hessian_product(*beam_, Phi.col(i), Phi.col(j));
      const Eigen::VectorXd fd = stiffness_difference(*beam_, Phi.col(i), Phi.col(j));
      EXPECT_LT(relative(H, fd), 1e-6) << "(H : Φ_" << i << ") Φ_" << j;
      // Symmetric in its two arguments.
      EXPECT_LT(relative(stvk_hessian_product(*beam_, Phi.col(j), Phi.col(i)), H), 1e-12);
    }
    const Eigen::VectorXd H = stvk_hessian_product(*beam_, Phi.col(i), random);
    EXPECT_LT(relative(H, stiffness_difference(*beam_, Phi.col(i), random)), 1e-6);
  }
}

TEST_F(ModalDerivatives, HessianProductUsesEachElementsMaterial) {
  Material soft, hard;
  soft.youngs_modulus = 1e5;
  soft.poisson_ratio = 0.3;
  hard.youngs_modulus = 5e7;
  hard.poisson_ratio = 0.45;
  TetMesh box = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 0.25, 0.25), 8, 2, 2, soft);
  box.materials.push_back(hard);
  for (Index e = 0; e < box.num_elements(); e += 3) box.element_material[std::size_t(e)] = 1;
  const Eigen::VectorXd a = random_vector(3 * box.num_vertices(), 1);
  const Eigen::VectorXd b = random_vector(3 * box.num_vertices(), 2);
  EXPECT_LT(relative(stvk_hessian_product(box, a, b), stiffness_difference(box, a, b)), 1e-6);
}

TEST_F(ModalDerivatives, SolveTheirEquationWithFixedVerticesHeld) {
  const Eigen::MatrixXd& Phi = *beam_Phi_;
  auto solver = cholmod();
  const Eigen::MatrixXd Psi = modal_derivatives(*beam_, Phi, {*beam_fixed_, false}, *solver);
  ASSERT_EQ(Psi.rows(), Phi.rows());
  ASSERT_EQ(Psi.cols(), derivative_count(kModes));
  const DofMap dofs = DofMap::for_fixed_vertices(beam_->num_vertices(), *beam_fixed_);
  double worst = 0;
  for (int i = 0; i < kModes; ++i)
    for (int j = i; j < kModes; ++j) {
      const Eigen::VectorXd psi = Psi.col(derivative_column(i, j, kModes));
      // K Ψ_ij = −(H : Φ_i) Φ_j on the free DOFs.
      const Eigen::VectorXd rhs = -stvk_hessian_product(*beam_, Phi.col(i), Phi.col(j));
      const Eigen::VectorXd lhs = *beam_K_ * psi;
      worst = std::max(worst, relative(dofs.restrict_vector(lhs), dofs.restrict_vector(rhs)));
      // Exactly zero at the fixed vertices.
      for (Index v : *beam_fixed_)
        for (int c = 0; c < 3; ++c) ASSERT_EQ(psi[3 * v + c], 0.0);
    }
  EXPECT_LT(worst, 1e-8);
  RecordProperty("worst_relative_residual", fmt::format("{:.3g}", worst));
}

TEST_F(ModalDerivatives, AreSymmetricInTheirTwoModes) {
  // With the modes in reverse order, pair (a, b), a ≤ b, is Ψ_ji for i = k−1−b < j = k−1−a:
  // computed from (H : Φ_j) Φ_i instead of (H : Φ_i) Φ_j.
  const Eigen::MatrixXd& Phi = *beam_Phi_;
  const Eigen::MatrixXd reversed = Phi.rowwise().reverse();
  auto solver = cholmod();
  const DomainBoundary boundary{*beam_fixed_, false};
  const Eigen::MatrixXd Psi = modal_derivatives(*beam_, Phi, boundary, *solver);
  const Eigen::MatrixXd Psi_reversed = modal_derivatives(*beam_, reversed, boundary, *solver);
  for (int i = 0; i < kModes; ++i)
    for (int j = i + 1; j < kModes; ++j) {
      const Eigen::VectorXd ij = Psi.col(derivative_column(i, j, kModes));
      const Eigen::VectorXd ji =
          Psi_reversed.col(derivative_column(kModes - 1 - j, kModes - 1 - i, kModes));
      EXPECT_LT(relative(ji, ij), 1e-10) << "Ψ_" << i << j;
    }
}

TEST_F(ModalDerivatives, FreeFlyingDerivativesAvoidTheRigidModes) {
  // A free box: K is singular (6 rigid modes). Ψ_ij solves K Ψ = −Pᵀ (H : Φ_i) Φ_j with
  // P = I − R RᵀM and is M-orthogonal to the rigid modes R.
  Material material;
  material.youngs_modulus = 3e6;
  const TetMesh box = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 0.3, 0.2), 8, 3, 2, material);
  const ElasticForceModel model(box, MaterialModel::stvk);
  const SparseMatrix K = model.stiffness(Eigen::VectorXd::Zero(model.num_dofs()));
  const SparseMatrix M = consistent_mass(box);
  const Eigen::MatrixXd Phi = dense_modes(K, M, DofMap(model.num_dofs(), {}), 6, 4);
  const Eigen::MatrixXd R = rigid_body_modes(box.vertices, M);
  auto solver = cholmod();
  const Eigen::MatrixXd Psi = modal_derivatives(box, Phi, {{}, true}, *solver);
  for (int i = 0; i < 4; ++i)
    for (int j = i; j < 4; ++j) {
      const Eigen::VectorXd psi = Psi.col(derivative_column(i, j, 4));
      Eigen::VectorXd b = -stvk_hessian_product(box, Phi.col(i), Phi.col(j));
      b -= M * (R * (R.transpose() * b));
      EXPECT_LT(relative(K * psi, b), 1e-8) << "Ψ_" << i << j;
      const double norm = std::sqrt(psi.dot(M * psi));
      EXPECT_LT((R.transpose() * (M * psi)).cwiseAbs().maxCoeff(), 1e-12 * norm);
    }
}

TEST_F(ModalDerivatives, AreBitIdenticalFromRunToRun) {
  auto solver = cholmod();
  const DomainBoundary boundary{*beam_fixed_, false};
  Progress::set_enabled(false);
  Progress progress("modal derivatives", std::size_t(derivative_count(kModes)));
  const Eigen::MatrixXd a = modal_derivatives(*beam_, *beam_Phi_, boundary, *solver, &progress);
  const Eigen::MatrixXd b = modal_derivatives(*beam_, *beam_Phi_, boundary, *cholmod());
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(double) * std::size_t(a.size())), 0);
}

TEST_F(ModalDerivatives, SharedOverRanksGiveEveryRankOneProcesssBits) {
  // Each rank (a thread here) factors K with its own solver and solves its share of the
  // columns; every rank gets them all, each column the bits one process computes.
  const DomainBoundary boundary{*beam_fixed_, false};
  const Eigen::MatrixXd serial = modal_derivatives(*beam_, *beam_Phi_, boundary, *cholmod());
  for (int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    std::vector<std::unique_ptr<LinearSolver>> solvers;
    for (int p = 0; p < ranks; ++p) solvers.push_back(cholmod());
    std::vector<Eigen::MatrixXd> got(static_cast<std::size_t>(ranks));
    testing::run_on_ranks(ranks, [&](ProcessGroup& group) {
      const auto p = static_cast<std::size_t>(group.rank());
      got[p] = modal_derivatives(*beam_, *beam_Phi_, boundary, *solvers[p], nullptr, &group);
    });
    for (const Eigen::MatrixXd& Psi : got) {
      ASSERT_EQ(Psi.size(), serial.size());
      EXPECT_EQ(std::memcmp(Psi.data(), serial.data(), sizeof(double) * std::size_t(Psi.size())),
                0);
    }
  }
}

TEST_F(ModalDerivatives, RejectsInconsistentInput) {
  auto solver = cholmod();
  const Eigen::MatrixXd short_modes(30, 2);
  std::string message = error_message([&] { modal_derivatives(*beam_, short_modes, {}, *solver); });
  EXPECT_NE(message.find("30 entries"), std::string::npos) << message;
  EXPECT_NE(message.find("624"), std::string::npos) << message;
  message = error_message([&] {
    modal_derivatives(*beam_, *beam_Phi_, {*beam_fixed_, true}, *solver);
  });
  EXPECT_NE(message.find("no rigid-body modes to remove"), std::string::npos) << message;
  EXPECT_EQ(modal_derivatives(*beam_, Eigen::MatrixXd(624, 0), {}, *solver).cols(), 0);
}

}  // namespace
}  // namespace substruct
