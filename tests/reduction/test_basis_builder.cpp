// SPDX-License-Identifier: GPL-3.0-or-later
// Reduced bases of whole domains through the real solver plugins (slepc, cholmod): beam3 clamped
// by beam3.bou, a free-flying box, and the timings of each stage on beam3 and the asian dragon.
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/reduction/basis_builder.hpp"
#include "substruct/reduction/mass_pca.hpp"
#include "substruct/reduction/modal_derivatives.hpp"
#include "substruct/solvers/solver_provider.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using testing::error_message;

class BasisBuilder : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::filesystem::path meshes = testing::share_dir() / "meshes";
    beam_ = new TetMesh(read_tet_mesh(meshes / "beam3_tet.veg"));
    fixed_ = new std::vector<Index>(read_bou(meshes / "beam3.bou", beam_->num_vertices()));
    beam_M_ = new SparseMatrix(consistent_mass(*beam_));
  }
  static void TearDownTestSuite() {
    delete beam_;
    delete fixed_;
    delete beam_M_;
  }

  // UᵀMU − I, largest entry.
  static double orthonormality_error(const Eigen::MatrixXd& U, const SparseMatrix& M) {
    return (U.transpose() * (M * U) - Eigen::MatrixXd::Identity(U.cols(), U.cols()))
        .cwiseAbs()
        .maxCoeff();
  }
  // max over the columns a of A of ‖a − U UᵀM a‖_M / ‖a‖_M (U M-orthonormal).
  static double span_residual(const Eigen::MatrixXd& A, const Eigen::MatrixXd& U,
                              const SparseMatrix& M) {
    const Eigen::MatrixXd rest = A - U * (U.transpose() * (M * A));
    const Eigen::VectorXd rest2 = (rest.transpose() * (M * rest)).diagonal();
    const Eigen::VectorXd norm2 = (A.transpose() * (M * A)).diagonal();
    return (rest2.cwiseMax(0.0).array() / norm2.array()).sqrt().maxCoeff();
  }
  static void expect_zero_rows(const Eigen::MatrixXd& U, const std::vector<Index>& vertices) {
    for (Index v : vertices)
      for (int c = 0; c < 3; ++c)
        for (Eigen::Index j = 0; j < U.cols(); ++j) ASSERT_EQ(U(3 * v + c, j), 0.0);
  }

  std::unique_ptr<EigenSolver> slepc() const { return solvers_.eigen(); }
  std::unique_ptr<LinearSolver> cholmod() const { return solvers_.linear(); }

  static TetMesh* beam_;
  static std::vector<Index>* fixed_;
  static SparseMatrix* beam_M_;
  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  Config config_ = Config::from_settings(
      {{"solvers.eigen", "slepc", "test"}, {"solvers.linear", "cholmod", "test"}},
      std::filesystem::temp_directory_path(), host_);
  SolverProvider solvers_{host_, config_};
};

TetMesh* BasisBuilder::beam_ = nullptr;
std::vector<Index>* BasisBuilder::fixed_ = nullptr;
SparseMatrix* BasisBuilder::beam_M_ = nullptr;

TEST(BasisDerivativeCount, CountsThePairsOfTheLinearModesUsed) {
  EXPECT_EQ(basis_derivative_count(BasisSettings{20, 10, true}), 55);
  EXPECT_EQ(basis_derivative_count(BasisSettings{14, 4, true}), 10);
  EXPECT_EQ(basis_derivative_count(BasisSettings{6, 10, true}), 0);  // the linear modes suffice
  EXPECT_EQ(basis_derivative_count(BasisSettings{10, 10, true}), 0);
  EXPECT_EQ(basis_derivative_count(BasisSettings{0, 10, true}), 0);
}

TEST_F(BasisBuilder, Beam3TwentyModesFromTenLinearModes) {
  const DomainBoundary boundary{*fixed_, false};
  const BasisSettings settings{20, 10, true};
  Progress::set_enabled(false);
  Progress progress("modal derivatives", std::size_t(basis_derivative_count(settings)));
  const ReducedBasis basis = build_basis(*beam_, boundary, settings, solvers_, &progress);
  ASSERT_EQ(basis.U.rows(), 3 * beam_->num_vertices());
  ASSERT_EQ(basis.U.cols(), 20);
  EXPECT_LT(orthonormality_error(basis.U, *beam_M_), 1e-12);
  expect_zero_rows(basis.U, *fixed_);
  // The basis holds the 10 linear modes exactly, φ₁ first of all.
  const EigenPairs modes = linear_modes(*beam_, boundary, 10, *slepc());
  ASSERT_EQ(basis.linear_eigenvalues.size(), 10);
  EXPECT_LT((basis.linear_eigenvalues - modes.values).cwiseAbs().maxCoeff(),
            1e-12 * modes.values[9]);
  EXPECT_LT(span_residual(modes.vectors.col(0), basis.U, *beam_M_), 1e-10);
  EXPECT_LT(span_residual(modes.vectors, basis.U, *beam_M_), 1e-10);
  // The other 10 columns are combinations of the modal derivatives (and modes).
  const Eigen::MatrixXd Psi = modal_derivatives(*beam_, modes.vectors, boundary, *cholmod());
  Eigen::MatrixXd span(Psi.rows(), 10 + Psi.cols());
  span << modes.vectors, Psi;
  mass_orthonormalize(span, *beam_M_);
  EXPECT_LT(span_residual(basis.U, span, *beam_M_), 1e-8);
  // and capture the strongest derivative, Ψ₁₁ (weight 1), well beyond the linear modes alone.
  const Eigen::VectorXd psi11 = Psi.col(0);
  const double linear_only = span_residual(psi11, modes.vectors, *beam_M_);
  const double with_derivatives = span_residual(psi11, basis.U, *beam_M_);
  EXPECT_LT(with_derivatives, 1e-3 * linear_only);
  RecordProperty("psi11_residual_linear_modes", fmt::format("{:.3g}", linear_only));
  RecordProperty("psi11_residual_basis", fmt::format("{:.3g}", with_derivatives));
  fmt::print(
      "beam3 (r = 20, k = 10): assembly {:.4f} s, linear modes {:.4f} s, 55 modal "
      "derivatives {:.4f} s, PCA {:.4f} s; Ψ₁₁ residual {:.3g} → {:.3g}\n",
      basis.seconds_assembly, basis.seconds_linear_modes, basis.seconds_derivatives,
      basis.seconds_pca, linear_only, with_derivatives);
}

TEST_F(BasisBuilder, SpansEveryDerivativeWhenRIsKPlusAllPairs) {
  // k = 4: 4 modes + 10 derivatives = 14 columns, nothing is truncated.
  const DomainBoundary boundary{*fixed_, false};
  const ReducedBasis basis = build_basis(*beam_, boundary, BasisSettings{14, 4, true}, solvers_);
  ASSERT_EQ(basis.U.cols(), 14);
  const EigenPairs modes = linear_modes(*beam_, boundary, 4, *slepc());
  const Eigen::MatrixXd Psi = modal_derivatives(*beam_, modes.vectors, boundary, *cholmod());
  EXPECT_LT(span_residual(modes.vectors, basis.U, *beam_M_), 1e-10);
  EXPECT_LT(span_residual(Psi, basis.U, *beam_M_), 1e-8);
  EXPECT_LT(orthonormality_error(basis.U, *beam_M_), 1e-12);
}

TEST_F(BasisBuilder, FewerModesThanLinearModesAreTheLowestModes) {
  const DomainBoundary boundary{*fixed_, false};
  const EigenPairs modes = linear_modes(*beam_, boundary, 6, *slepc());
  for (bool derivatives : {true, false}) {
    const ReducedBasis basis = build_basis(
        *beam_, boundary, BasisSettings{6, derivatives ? 10 : 6, derivatives}, solvers_);
    ASSERT_EQ(basis.U.cols(), 6);
    EXPECT_LT((basis.U - modes.vectors).cwiseAbs().maxCoeff(), 1e-10);
    EXPECT_EQ(basis.seconds_derivatives, 0.0);
    ASSERT_EQ(basis.linear_eigenvalues.size(), 6);
  }
}

TEST_F(BasisBuilder, ZeroModesGiveARigidDomain) {
  const ReducedBasis basis =
      build_basis(*beam_, {*fixed_, false}, BasisSettings{0, 10, true}, solvers_);
  EXPECT_EQ(basis.U.rows(), 3 * beam_->num_vertices());
  EXPECT_EQ(basis.U.cols(), 0);
  EXPECT_EQ(basis.linear_eigenvalues.size(), 0);
}

TEST_F(BasisBuilder, FreeFlyingBasisAvoidsTheRigidModes) {
  Material material;
  material.youngs_modulus = 2e6;
  const TetMesh box = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 0.25, 0.15), 10, 3, 2, material);
  const SparseMatrix M = consistent_mass(box);
  const ReducedBasis basis = build_basis(box, {{}, true}, BasisSettings{12, 6, true}, solvers_);
  ASSERT_EQ(basis.U.cols(), 12);
  EXPECT_LT(orthonormality_error(basis.U, M), 1e-12);
  const Eigen::MatrixXd R = rigid_body_modes(box.vertices, M);
  const double rigid = (R.transpose() * (M * basis.U)).cwiseAbs().maxCoeff();
  EXPECT_LT(rigid, 1e-10);
  EXPECT_GT(basis.linear_eigenvalues[0], 0.0);
  RecordProperty("rigid_overlap", fmt::format("{:.3g}", rigid));
}

TEST_F(BasisBuilder, IsBitIdenticalFromRunToRun) {
  const DomainBoundary boundary{*fixed_, false};
  const ReducedBasis a = build_basis(*beam_, boundary, BasisSettings{20, 10, true}, solvers_);
  const ReducedBasis b = build_basis(*beam_, boundary, BasisSettings{20, 10, true}, solvers_);
  ASSERT_EQ(a.U.size(), b.U.size());
  EXPECT_EQ(std::memcmp(a.U.data(), b.U.data(), sizeof(double) * std::size_t(a.U.size())), 0);
}

TEST_F(BasisBuilder, RejectsSettingsItCannotMeet) {
  const DomainBoundary boundary{*fixed_, false};
  std::string message = error_message([&] {
    build_basis(*beam_, boundary, BasisSettings{20, 10, false}, solvers_);
  });
  EXPECT_NE(message.find("need modal derivatives"), std::string::npos) << message;
  message = error_message([&] {
    build_basis(*beam_, boundary, BasisSettings{6, 2, true}, solvers_);
  });
  EXPECT_NE(message.find("more than 2 linear modes and their 3 modal derivatives"),
            std::string::npos)
      << message;
  message = error_message([&] {
    build_basis(*beam_, boundary, BasisSettings{5, 0, true}, solvers_);
  });
  EXPECT_NE(message.find("at least one linear mode"), std::string::npos) << message;
  const TetMesh cube = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 1, 1);
  message = error_message([&] {
    build_basis(cube, {{0, 1, 2, 3, 4}, false}, BasisSettings{10, 10, true}, solvers_);
  });
  EXPECT_NE(message.find("only 9 deformable degrees of freedom"), std::string::npos) << message;
  message = error_message([&] {
    build_basis(cube, {{}, true}, BasisSettings{19, 10, true}, solvers_);
  });
  EXPECT_NE(message.find("only 18 deformable"), std::string::npos) << message;
}

// Vega's precompute stages (vega-baseline.md): 20 linear modes, their 210 modal derivatives,
// and a mass-PCA of all 230 vectors down to 20; prints and records the time of each.
void time_vega_stages(const TetMesh& mesh, const DomainBoundary& boundary,
                      const SolverProvider& solvers, const std::string& name) {
  const SparseMatrix M = consistent_mass(mesh);
  auto start = Clock::now();
  const EigenPairs modes = linear_modes(mesh, boundary, 20, *solvers.eigen());
  const double t_modes = seconds_since(start);
  start = Clock::now();
  Progress::set_enabled(false);
  Progress progress("modal derivatives", 210);
  const Eigen::MatrixXd Psi =
      modal_derivatives(mesh, modes.vectors, boundary, *solvers.linear(), &progress);
  const double t_derivatives = seconds_since(start);
  ASSERT_EQ(Psi.cols(), 210);
  start = Clock::now();
  Eigen::MatrixXd all(Psi.rows(), 230);
  all << modes.vectors, Psi;
  const Eigen::MatrixXd U = mass_pca(all, M, 20);
  const double t_pca = seconds_since(start);
  EXPECT_EQ(U.cols(), 20);
  EXPECT_LT((U.transpose() * (M * U) - Eigen::MatrixXd::Identity(20, 20)).cwiseAbs().maxCoeff(),
            1e-12);
  const double f_low = std::sqrt(modes.values[0]) / (2 * M_PI);
  const double f_high = std::sqrt(modes.values[19]) / (2 * M_PI);
  fmt::print(
      "{} ({} v, {} tets): 20 linear modes {:.4f} s ({:.3f}–{:.3f} Hz), 210 modal derivatives "
      "{:.4f} s, mass-PCA 230 → 20 {:.4f} s\n",
      name, mesh.num_vertices(), mesh.num_elements(), t_modes, f_low, f_high, t_derivatives, t_pca);
  ::testing::Test::RecordProperty("linear_modes_20_s", fmt::format("{:.4f}", t_modes));
  ::testing::Test::RecordProperty("modal_derivatives_210_s", fmt::format("{:.4f}", t_derivatives));
  ::testing::Test::RecordProperty("mass_pca_230_to_20_s", fmt::format("{:.4f}", t_pca));
}

TEST_F(BasisBuilder, Beam3VegaStages) {
  time_vega_stages(*beam_, {*fixed_, false}, solvers_, "beam3");
}

TEST_F(BasisBuilder, AsianDragonBasisAndVegaStages) {
  SUBSTRUCT_REQUIRE_SHARED("asianDragon/asianDragon.veg");
  const std::filesystem::path folder = testing::shared_data() / "asianDragon";
  const TetMesh dragon = read_tet_mesh(folder / "asianDragon.veg");
  const DomainBoundary boundary{read_bou(folder / "asianDragon.bou", dragon.num_vertices()), false};
  // The default basis: r = 20 from 10 linear modes and their 55 derivatives.
  const ReducedBasis basis = build_basis(dragon, boundary, BasisSettings{}, solvers_);
  ASSERT_EQ(basis.U.cols(), 20);
  EXPECT_LT(orthonormality_error(basis.U, consistent_mass(dragon)), 1e-12);
  expect_zero_rows(basis.U, boundary.fixed_vertices);
  // Vega's material and fixed vertices: lowest frequency 0.448 Hz (vega-baseline.md).
  EXPECT_NEAR(std::sqrt(basis.linear_eigenvalues[0]) / (2 * M_PI), 0.448, 0.0005);
  fmt::print(
      "asianDragon build_basis(r = 20, k = 10): assembly {:.4f} s, linear modes {:.4f} s, 55 "
      "derivatives {:.4f} s, PCA {:.4f} s\n",
      basis.seconds_assembly, basis.seconds_linear_modes, basis.seconds_derivatives,
      basis.seconds_pca);
  time_vega_stages(dragon, boundary, solvers_, "asianDragon");
}

}  // namespace
}  // namespace substruct
