// SPDX-License-Identifier: GPL-3.0-or-later
// Spectral bases of hybrid-solid regions (Yang et al. 2010, Eq. 2–4, 8): M-orthonormal linear
// modes (M̂ = I, K̂ = Λ) through the slepc plugin, the 6 exact rigid-body modes for rigid or free
// regions, and their cache files.
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/reduction/spectral_basis.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

class SpectralBasisTest : public testing::TempDirTest {
 protected:
  std::unique_ptr<EigenSolver> slepc() {
    const Config config = Config::from_settings({{"solvers.eigen", "slepc", "test"}},
                                                std::filesystem::temp_directory_path(), host_);
    return host_.create<EigenSolver>("slepc", PluginKind::eigen_solver, PluginContext{config});
  }
  const TetMesh bar_ = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 0.2, 0.2), 6, 2, 2);
  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

TEST_F(SpectralBasisTest, AFreeDeformableRegionHasItsRigidModesThenItsLowestElasticOnes) {
  auto solver = slepc();
  const SpectralBasis b = spectral_basis(bar_, {}, false, 10, *solver);
  ASSERT_EQ(b.Phi.cols(), 10);
  EXPECT_EQ(b.rigid_modes, 6);
  const SparseMatrix M = consistent_mass(bar_);
  const SparseMatrix K =
      ElasticForceModel(bar_, MaterialModel::linear).stiffness(Eigen::VectorXd::Zero(3 * 63));
  const Eigen::MatrixXd Mhat = b.Phi.transpose() * M * b.Phi;
  const Eigen::MatrixXd Khat = b.Phi.transpose() * K * b.Phi;
  EXPECT_LT((Mhat - Eigen::MatrixXd::Identity(10, 10)).cwiseAbs().maxCoeff(), 1e-9);  // M̂ = I
  const double scale = b.Lambda.maxCoeff();
  EXPECT_LT((Khat - Eigen::MatrixXd(b.Lambda.asDiagonal())).cwiseAbs().maxCoeff(), 1e-8 * scale);
  EXPECT_LT(b.Lambda.head(6).cwiseAbs().maxCoeff(), 1e-12 * scale);  // K̂ = Λ, rigid part zero
  // The elastic eigenvalues are the 4 lowest non-zero ones of the dense problem.
  const Eigen::VectorXd dense = Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>(
                                    Eigen::MatrixXd(K), Eigen::MatrixXd(M), Eigen::EigenvaluesOnly)
                                    .eigenvalues();
  for (int k = 6; k < 10; ++k) EXPECT_NEAR(b.Lambda[k], dense[k], 1e-6 * dense[k]);
}

TEST_F(SpectralBasisTest, ARigidRegionHasExactlyTheSixRigidModesOrNoneWhenHeld) {
  auto solver = slepc();
  const SpectralBasis b = spectral_basis(bar_, {}, true, 50, *solver);
  EXPECT_EQ(b.Phi.cols(), 6);
  EXPECT_EQ(b.rigid_modes, 6);
  const SparseMatrix K =
      ElasticForceModel(bar_, MaterialModel::linear).stiffness(Eigen::VectorXd::Zero(3 * 63));
  EXPECT_LT((K * b.Phi).cwiseAbs().maxCoeff(), 1e-9 * bar_.materials[0].youngs_modulus);
  EXPECT_EQ(spectral_basis(bar_, {0, 1, 2}, true, 50, *solver).Phi.cols(), 0);
}

TEST_F(SpectralBasisTest, AFixedDeformableRegionHasConstrainedModes) {
  auto solver = slepc();
  const std::vector<Index> fixed = bar_.vertex_sets.at("xmin");
  const SpectralBasis b = spectral_basis(bar_, fixed, false, 5, *solver);
  EXPECT_EQ(b.rigid_modes, 0);
  EXPECT_GT(b.Lambda.minCoeff(), 0);
  for (Index v : fixed) EXPECT_EQ(b.Phi.row(3 * v).cwiseAbs().maxCoeff(), 0);
  EXPECT_THROW(spectral_basis(bar_, {}, false, 4, *solver), Error);  // fewer than its rigid modes
}

TEST_F(SpectralBasisTest, TheCacheReusesTrustedFilesOnlyAndNeverAReducedModel) {
  auto solver = slepc();
  const std::filesystem::path dir = this->dir() / "cache";
  bool loaded = true;
  const SpectralBasis a = cached_spectral_basis(dir, bar_, {}, false, 8, *solver, "slepc", &loaded);
  EXPECT_FALSE(loaded);
  const SpectralBasis b = cached_spectral_basis(dir, bar_, {}, false, 8, *solver, "slepc", &loaded);
  EXPECT_TRUE(loaded);
  EXPECT_TRUE(a.Phi == b.Phi);
  // Other inputs, another file; a corrupt file is recomputed.
  EXPECT_NE(spectral_basis_hash(bar_, {}, false, 8, "slepc"),
            spectral_basis_hash(bar_, {}, false, 9, "slepc"));
  EXPECT_NE(spectral_basis_hash(bar_, {}, false, 8, "slepc"),
            spectral_basis_hash(bar_, {}, true, 8, "slepc"));
  const std::filesystem::path file =
      spectral_basis_file(dir, spectral_basis_hash(bar_, {}, false, 8, "slepc"));
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(80);
    f.put('\x55');
  }
  const SpectralBasis c = cached_spectral_basis(dir, bar_, {}, false, 8, *solver, "slepc", &loaded);
  EXPECT_FALSE(loaded);
  EXPECT_TRUE(c.Phi == a.Phi);
  const std::string bytes = encode_spectral_basis(a, 7);
  EXPECT_NE(testing::error_message([&] {
              decode_spectral_basis("SUBSTMDL" + bytes.substr(8), 7);
            }).find("wrong magic"),
            std::string::npos);
}

}  // namespace
}  // namespace substruct
