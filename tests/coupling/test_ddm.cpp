// SPDX-License-Identifier: GPL-3.0-or-later
// The `ddm` coupling plugin (Huang et al. 2006): exactness of the decomposition against the
// monolithic linear backward-Euler solution, rigid invariance of the rotation tracking, the
// constraint rows, user targets, the three solvers, the cache, and its numerical pieces.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "ddm_cache.hpp"
#include "domain_rotation.hpp"
#include "force_displacement.hpp"
#include "interface_constraints.hpp"
#include "linear_domain.hpp"
#include "schur_complement.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"
#include "support/clamped_box_beam.hpp"
#include "support/method_run.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;
using testing::MethodRun;

// A soft 1 m × 0.1 m × 0.1 m box beam of 8×2×2 cells clamped at x = 0 (it sags ~10 % of its length
// under gravity), and a 4×4×1-cell plate cut into quadrants (four domains around one vertical
// edge: a loop in the domain graph, vertices shared by four domains).
class DdmTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<testing::SuiteDir>("Ddm");
    testing::write_clamped_box_beam(dir_->path(), "beam", Vec3(1, 0.1, 0.1), 8, 2, 2);
    const TetMesh plate = make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.4, 0.1), 4, 4, 1);
    write_veg(dir_->path() / "plate.veg", plate);
    std::ofstream domains(dir_->path() / "plate.domains");
    for (Index e = 0; e < plate.num_elements(); ++e) {
      const int cell = e / 6, i = cell % 4, j = (cell / 4) % 4;
      domains << (i / 2) + 2 * (j / 2) << "\n";
    }
    std::ofstream bou(dir_->path() / "plate.bou");  // one corner edge
    for (Index v : plate.vertex_sets.at("xmin"))
      if (plate.vertices(v, 1) == 0) bou << v + 1 << "\n";
  }
  static void TearDownTestSuite() { dir_.reset(); }

  Config config(const std::string& mesh, const std::vector<Setting>& extra) const {
    std::vector<Setting> s{{"scene.mesh", mesh + ".veg", "test"},
                           {"scene.fixed", mesh + ".bou", "test"},
                           {"material.model", "linear", "test"},
                           {"material.youngs_modulus", "1e5", "test"},
                           {"material.poisson_ratio", "0.3", "test"},
                           {"material.density", "1000", "test"},
                           {"material.rayleigh_mass", "0.5", "test"},
                           {"material.rayleigh_stiffness", "0.002", "test"},
                           {"full.integrator", "backward-euler", "test"},
                           {"full.mass", "lumped", "test"},
                           {"run.dt", "0.01", "test"}};
    s.insert(s.end(), extra.begin(), extra.end());
    return Config::from_settings(s, dir_->path(), host_);
  }
  std::unique_ptr<MethodRun> run(const std::string& plugin, const std::string& mesh,
                                 const std::vector<Setting>& extra = {},
                                 const fs::path& cache = {}) {
    return std::make_unique<MethodRun>(host_, config(mesh, extra), plugin, cache);
  }

  static ExternalForces gravity() {
    ExternalForces f;
    f.gravity = Vec3(0, -9.81, 0);
    return f;
  }

  // Steps both runs and returns max_t ‖x_ddm − x_full‖∞ / max_t ‖x_full − X‖∞.
  static double relative_difference(MethodRun& a, MethodRun& b, int steps, double dt,
                                    const ExternalForces& f, double* motion = nullptr) {
    double difference = 0, largest = 0;
    for (int i = 0; i < steps; ++i) {
      a.run(1, dt, f);
      b.run(1, dt, f);
      difference = std::max(difference, (a.x() - b.x()).cwiseAbs().maxCoeff());
      largest = std::max(largest, b.displacement().cwiseAbs().maxCoeff());
    }
    if (motion) *motion = largest;
    return difference / largest;
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  static inline std::unique_ptr<testing::SuiteDir> dir_;
};

TEST_F(DdmTest, WithoutRotationAnyPartitionReproducesTheMonolithicLinearSolution) {
  for (const std::string domains : {"single", "auto:3", "auto:5"}) {
    SCOPED_TRACE(domains);
    auto full = run("full", "beam", {{"scene.domains", domains, "test"}});
    auto ddm =
        run("ddm", "beam", {{"scene.domains", domains, "test"}, {"ddm.rotation", "none", "test"}});
    double motion = 0;
    EXPECT_LT(relative_difference(*ddm, *full, 40, 0.01, gravity(), &motion), 1e-9);
    EXPECT_GT(motion, 0.01);  // it moved: a centimetre and more
    EXPECT_LT(ddm->method->interface_gap(), 1e-12);
  }
}

TEST_F(DdmTest, WithTheConsistentMassItIsExactToo) {
  auto full = run("full", "beam",
                  {{"scene.domains", "auto:3", "test"}, {"full.mass", "consistent", "test"}});
  auto ddm = run("ddm", "beam",
                 {{"scene.domains", "auto:3", "test"},
                  {"ddm.rotation", "none", "test"},
                  {"ddm.mass", "consistent", "test"}});
  EXPECT_LT(relative_difference(*ddm, *full, 30, 0.01, gravity()), 1e-9);
}

// The Stanford-derived dragon (../shared/data, where present): 959 vertices, 2,591 tets, in six
// METIS domains; without rotation tracking, exact against full; with it, it runs and keeps the
// copies together.
TEST_F(DdmTest, TheDragonInSixDomainsIsExactWithoutRotationAndRunsWithIt) {
  SUBSTRUCT_REQUIRE_SHARED("asianDragon/asianDragon.veg");
  const fs::path data = testing::shared_data() / "asianDragon";
  const std::vector<Setting> s{{"scene.mesh", (data / "asianDragon.veg").string(), "test"},
                               {"scene.fixed", (data / "asianDragon.bou").string(), "test"},
                               {"scene.domains", "auto:6", "test"},
                               {"material.youngs_modulus", "1e6", "test"}};
  auto full = run("full", "beam", s);
  auto linear = run("ddm", "beam", {s[0], s[1], s[2], s[3], {"ddm.rotation", "none", "test"}});
  ASSERT_EQ(linear->scene.num_domains(), 6);
  EXPECT_LT(relative_difference(*linear, *full, 10, 0.01, gravity()), 1e-9);
  auto tracked = run("ddm", "beam", s);
  tracked->run(20, 0.01, gravity());
  EXPECT_TRUE(tracked->x().allFinite());
  EXPECT_LT(tracked->method->interface_gap(), 1e-10);
}

TEST_F(DdmTest, TheLoopOfFourQuadrantsIsExactToo) {
  auto full = run("full", "plate", {{"scene.domains", "plate.domains", "test"}});
  auto ddm = run("ddm", "plate",
                 {{"scene.domains", "plate.domains", "test"}, {"ddm.rotation", "none", "test"}});
  ASSERT_EQ(ddm->scene.num_domains(), 4);
  EXPECT_LT(relative_difference(*ddm, *full, 30, 0.01, gravity()), 1e-9);
  EXPECT_LT(ddm->method->interface_gap(), 1e-12);
}

TEST_F(DdmTest, ThePapersVelocityRowsAndTheConjugateGradientBaselineAreExactToo) {
  auto full = run("full", "beam", {{"scene.domains", "auto:3", "test"}});
  auto paper = run("ddm", "beam",
                   {{"scene.domains", "auto:3", "test"},
                    {"ddm.rotation", "none", "test"},
                    {"ddm.gap_correction", "false", "test"},
                    {"ddm.hybrid_correction", "solve", "test"}});
  EXPECT_LT(relative_difference(*paper, *full, 20, 0.01, gravity()), 1e-9);
  auto full2 = run("full", "beam", {{"scene.domains", "auto:3", "test"}});
  auto cg = run("ddm", "beam",
                {{"scene.domains", "auto:3", "test"},
                 {"ddm.rotation", "none", "test"},
                 {"ddm.solver", "cg", "test"},
                 {"ddm.cg_tolerance", "1e-13", "test"}});
  EXPECT_LT(relative_difference(*cg, *full2, 20, 0.01, gravity()), 1e-7);
}

TEST_F(DdmTest, AChangedTimeStepRefactorsAndStaysExact) {
  auto full = run("full", "beam", {{"scene.domains", "auto:2", "test"}});
  auto ddm =
      run("ddm", "beam", {{"scene.domains", "auto:2", "test"}, {"ddm.rotation", "none", "test"}});
  EXPECT_LT(relative_difference(*ddm, *full, 5, 0.01, gravity()), 1e-9);
  EXPECT_LT(relative_difference(*ddm, *full, 5, 0.004, gravity()), 1e-9);
}

// A free cube turned rigidly: the rotation tracking sees no deformation (no elastic energy, no
// force, it stays as it is); plain linear FEM reads the turn as a strain.
TEST_F(DdmTest, ARigidlyTurnedObjectHasNoElasticEnergyWithRotationTracking) {
  const TetMesh cube = make_box_mesh(Vec3(0, 0, 0), Vec3(0.2, 0.2, 0.2), 3, 3, 3);
  write_veg(dir_->path() / "cube.veg", cube);
  std::ofstream(dir_->path() / "cube.bou") << "";
  const Mat3 Q = Eigen::AngleAxisd(2.0, Vec3(1, 1, 0.5).normalized()).toRotationMatrix();
  Eigen::VectorXd u0(3 * cube.num_vertices());
  for (Index a = 0; a < cube.num_vertices(); ++a) {
    const Vec3 X = cube.vertices.row(a).transpose();
    u0.segment<3>(3 * a) = Q * X + Vec3(0.3, -0.1, 0.2) - X;
  }
  const std::vector<Setting> s{{"scene.domains", "auto:3", "test"},
                               {"scene.fixed", "cube.bou", "test"}};
  auto tracked = run("ddm", "cube", s);
  auto linear = run("ddm", "cube", {s[0], s[1], {"ddm.rotation", "none", "test"}});
  tracked->method->reset(u0, Eigen::VectorXd());
  linear->method->reset(u0, Eigen::VectorXd());
  const double scale = 0.5 * 1e5 * 0.008;  // ½ E V: the energy of a unit strain
  EXPECT_LT(tracked->method->energies(Vec3::Zero()).elastic, 1e-12 * scale);  // round-off
  EXPECT_GT(linear->method->energies(Vec3::Zero()).elastic, 0.1 * scale);
  const Points turned = tracked->x();
  tracked->run(20, 0.01, ExternalForces{});
  EXPECT_LT((tracked->x() - turned).cwiseAbs().maxCoeff(), 1e-12);  // no force: it stays
  EXPECT_LT(tracked->method->energies(Vec3::Zero()).kinetic, 1e-20);
}

// Spun at ω: each backward-Euler step moves straight along v for h, which stretches the cube by
// O((hω)²) before the elastic forces pull it back; that error stays bounded with the rotation
// tracked, while plain linear FEM inflates the cube as it turns (Fig. 1b's exaggeration).
TEST_F(DdmTest, ASpinningObjectKeepsItsShapeWithRotationTracking) {
  const TetMesh cube = make_box_mesh(Vec3(0, 0, 0), Vec3(0.2, 0.2, 0.2), 3, 3, 3);
  write_veg(dir_->path() / "spin.veg", cube);
  std::ofstream(dir_->path() / "spin.bou") << "";
  const Vec3 omega(0, 0, 6.0);  // rad/s: a quarter turn in 0.26 s
  const Vec3 centre(0.1, 0.1, 0.1);
  Eigen::VectorXd v0(3 * cube.num_vertices());
  for (Index a = 0; a < cube.num_vertices(); ++a)
    v0.segment<3>(3 * a) = omega.cross(cube.vertices.row(a).transpose() - centre);
  const Index last = cube.num_vertices() - 1;  // corners 0 and last: the diagonal
  const double diagonal = (cube.vertices.row(last) - cube.vertices.row(0)).norm();
  double stretch[2] = {0, 0};
  const char* tracking[2] = {"per-domain", "none"};
  for (int k = 0; k < 2; ++k) {
    auto ddm = run("ddm", "spin",
                   {{"scene.domains", "auto:2", "test"},
                    {"scene.fixed", "spin.bou", "test"},
                    {"material.youngs_modulus", "1e8", "test"},
                    {"material.rayleigh_mass", "0", "test"},
                    {"ddm.rotation", tracking[k], "test"}});
    ddm->method->reset(Eigen::VectorXd(), v0);
    for (int i = 0; i < 100; ++i) {  // almost a full turn
      ddm->run(1, 0.01, ExternalForces{});
      const Points x = ddm->x();
      stretch[k] = std::max(stretch[k], std::abs((x.row(last) - x.row(0)).norm() / diagonal - 1));
    }
  }
  EXPECT_LT(stretch[0], 0.01 * 6.0 * 0.01 * 6.0);  // below (hω)² = 0.0036
  EXPECT_GT(stretch[1], 0.2);
}

TEST_F(DdmTest, RotationTrackingBendsLessThanPlainLinearUnderLargeSag) {
  // Softer beam: plain linear FEM stretches it along its length as it rotates (Fig. 1b); the
  // tracked domains keep the length.
  const std::vector<Setting> soft{{"scene.domains", "auto:4", "test"},
                                  {"material.youngs_modulus", "2e4", "test"}};
  auto linear = run("ddm", "beam", {soft[0], soft[1], {"ddm.rotation", "none", "test"}});
  auto tracked = run("ddm", "beam", soft);
  linear->run(60, 0.01, gravity());
  tracked->run(60, 0.01, gravity());
  // The beam's length: the free end's mean x.
  const auto tip_x = [](const MethodRun& r) {
    double sum = 0;
    int n = 0;
    const Points x = r.x();
    for (Index v = 0; v < x.rows(); ++v)
      if (r.scene.mesh.vertices(v, 0) == 1.0) sum += x(v, 0), ++n;
    return sum / n;
  };
  EXPECT_LT(tip_x(*tracked), tip_x(*linear));  // linear FEM keeps x ≈ 1 as it sags: it stretches
}

TEST_F(DdmTest, UserTargetsDriveTheirVertexExactly) {
  const Index tip = 8;  // (1, 0, 0): the free end's corner, vertex i = 8 of row j = k = 0
  auto ddm = run("ddm", "beam",
                 {{"scene.domains", "auto:3", "test"},
                  {"ddm.target_vertices", std::to_string(tip), "test"},
                  {"ddm.target_offset", "0 0.2 0", "test"},
                  {"ddm.target_ramp", "0.1", "test"}});
  ASSERT_EQ(ddm->scene.mesh.vertices(tip, 0), 1.0);
  ddm->run(5, 0.01, gravity());  // half-way up the ramp
  EXPECT_NEAR(ddm->x()(tip, 1), 0.1, 1e-9);
  ddm->run(10, 0.01, gravity());
  EXPECT_NEAR(ddm->x()(tip, 1), 0.2, 1e-9);
  EXPECT_LT(ddm->method->interface_gap(), 1e-10);
}

TEST_F(DdmTest, BadTargetsAreClearErrors) {
  const auto message = [&](const std::string& vertices) {
    return testing::error_message([&] {
      run("ddm", "beam", {{"ddm.target_vertices", vertices, "test"}});
    });
  };
  EXPECT_NE(message("0").find("vertex 0 is fixed"), std::string::npos) << message("0");
  EXPECT_NE(message("100000").find("does not exist"), std::string::npos);
  EXPECT_NE(message("8 8").find("listed twice"), std::string::npos);
}

// Both clustering solvers are exact when every component is kept: the Galerkin step's basis spans
// every unknown, Eq. 7's clusters reproduce their rows.
TEST_F(DdmTest, ClusteringWithEveryComponentMatchesTheHybridSolver) {
  const std::vector<Setting> base{{"scene.domains", "auto:3", "test"}};
  for (const char* solver : {"clustering", "clustering-rows"}) {
    auto hybrid = run("ddm", "beam", base);
    auto exact = run("ddm", "beam",
                     {base[0],
                      {"ddm.solver", solver, "test"},
                      {"ddm.clusters", "2", "test"},
                      {"ddm.components", "400", "test"}});
    EXPECT_LT(relative_difference(*exact, *hybrid, 20, 0.01, gravity()), 1e-8) << solver;
    // Clusters found on dimension-reduced rows (12 node clusters), fitted on the full rows.
    auto hybrid2 = run("ddm", "beam", base);
    auto reduced = run("ddm", "beam",
                       {base[0],
                        {"ddm.solver", solver, "test"},
                        {"ddm.clusters", "2", "test"},
                        {"ddm.components", "400", "test"},
                        {"ddm.node_clusters", "12", "test"}});
    EXPECT_LT(relative_difference(*reduced, *hybrid2, 20, 0.01, gravity()), 1e-8) << solver;
  }
}

// The compressed G̃ loses what its clusters' few components do not span. Eq. 7's row-wise G̃
// (clustering-rows) is not symmetric, so backward Euler loses its unconditional stability; the
// Galerkin step (clustering) keeps it (test_ddm_clustering.cpp on the shipped scenes). With a
// budget near the rank both are close to hybrid and the interface rows keep the copies together.
TEST_F(DdmTest, CompressedClusteringConvergesToTheHybridSolverWithItsBudget) {
  const std::vector<Setting> base{{"scene.domains", "auto:3", "test"},
                                  {"material.youngs_modulus", "1e8", "test"}};
  for (const char* solver : {"clustering", "clustering-rows"})
    for (const char* budget : {"60", "400"}) {
      auto hybrid = run("ddm", "beam", base);
      auto compressed = run("ddm", "beam",
                            {base[0],
                             base[1],
                             {"ddm.solver", solver, "test"},
                             {"ddm.clusters", "3", "test"},
                             {"ddm.floats_per_node", budget, "test"}});
      const double error = relative_difference(*compressed, *hybrid, 40, 0.01, gravity());
      std::printf("%s, floats per node %s: relative trajectory error %.4g\n", solver, budget,
                  error);
      if (std::string(budget) == "400") {
        EXPECT_LT(error, 0.01) << solver;
        EXPECT_LT(compressed->method->interface_gap(), 1e-10) << solver;
      }
    }
}

// The clustering solver's G̃ = Q (QᵀAQ)⁻¹ Qᵀ on a domain of the beam: symmetric, a Galerkin
// solve (G̃ A G̃ = G̃), below A⁻¹ (the eigenvalues of Lᵀ G̃ L, A = L Lᵀ, in [0, 1]), its boundary
// block G̃_bb, and the velocity projection onto its range idempotent, keeping the boundary
// unknowns and never raising the kinetic energy. Eq. 7's rows (clustering-rows) are not symmetric.
TEST_F(DdmTest, TheGalerkinClusteringInverseIsSymmetricAndBelowTheExactOne) {
  auto r = run("ddm", "beam", {{"scene.domains", "auto:3", "test"}});
  const SubMesh& sub = r->scene.decomposition.domains[1];
  const ddm::LinearDomain d = ddm::make_linear_domain(sub, r->scene.fixed_vertices, true);
  const SparseMatrix A = ddm::backward_euler_matrix(d, 0.5, 0.002, 0.01);
  const SparseMatrix M = d.dofs.restrict_matrix(d.M);
  auto solver = r->solvers.linear();
  solver->analyze(A, MatrixProperties{true, true, {}});
  solver->factorize(A);
  ddm::DdmSettings settings;
  settings.clusters = 2;
  settings.components = 4;
  std::vector<Index> free_vertices;
  for (std::size_t k = 0; k < d.dofs.free_dofs().size(); k += 3)
    free_vertices.push_back(d.dofs.free_dofs()[k] / 3);
  const ddm::CompressedInverse g =
      ddm::compress_inverse(A, *solver, settings, sub.mesh, free_vertices);
  const std::vector<Index> boundary{0, 1, 2, 9, 10, 11};
  auto galerkin = ddm::make_galerkin_clustering(g, A, M, boundary, false);
  auto rows = ddm::make_row_clustering(g, boundary, false);
  const Index n = A.rows();
  const auto dense = [n](ddm::ForceDisplacement& f) {
    Eigen::MatrixXd G(n, n);
    Eigen::VectorXd e = Eigen::VectorXd::Zero(n), y;
    for (Index j = 0; j < n; ++j) {
      e[j] = 1;
      f.apply(e, y);
      G.col(j) = y;
      e[j] = 0;
    }
    return G;
  };
  const Eigen::MatrixXd G = dense(*galerkin), G_rows = dense(*rows), Ad(A);
  EXPECT_LT((G - G.transpose()).norm(), 1e-12 * G.norm());
  EXPECT_GT((G_rows - G_rows.transpose()).norm(), 1e-3 * G_rows.norm());
  EXPECT_LT((G * Ad * G - G).norm(), 1e-9 * G.norm());
  const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(Ad).matrixL();
  const Eigen::VectorXd eig =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(L.transpose() * G * L).eigenvalues();
  EXPECT_GT(eig.minCoeff(), -1e-10);
  EXPECT_LT(eig.maxCoeff(), 1 + 1e-10);
  const Index rank = (eig.array() > 1e-8).count();
  EXPECT_GE(rank, 6);  // every boundary unknown
  EXPECT_LE(rank, 2 * 4 + 6);
  Eigen::MatrixXd G_bb(6, 6);
  for (Index i = 0; i < 6; ++i)
    for (Index j = 0; j < 6; ++j)
      G_bb(i, j) = G(boundary[static_cast<std::size_t>(i)], boundary[static_cast<std::size_t>(j)]);
  EXPECT_LT((galerkin->boundary_block() - G_bb).norm(), 1e-12 * G_bb.norm());
  ASSERT_TRUE(galerkin->projects());
  const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(n, -1, 2).array().sin();
  Eigen::VectorXd p = v;
  galerkin->project(p);
  EXPECT_LT(p.dot(M * p), v.dot(M * v));
  for (Index b : boundary) EXPECT_EQ(p[b], v[b]);
  Eigen::VectorXd twice = p;
  galerkin->project(twice);
  EXPECT_LT((twice - p).norm(), 1e-12 * p.norm());
  EXPECT_LT((G * (Ad * p) - p).norm(), 1e-9 * p.norm());  // in range(G̃): G̃ A p = p
}

TEST_F(DdmTest, TheCompressedInversesAreCachedAndACorruptFileIsRecomputed) {
  const fs::path cache = dir_->path() / "cache-clustering";
  fs::remove_all(cache);
  const std::vector<Setting> s{{"scene.domains", "auto:2", "test"},
                               {"ddm.solver", "clustering", "test"},
                               {"ddm.floats_per_node", "40", "test"}};
  auto first = run("ddm", "beam", s, cache);
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(cache)) files.push_back(entry.path());
  ASSERT_EQ(files.size(), 2u);  // one per domain
  auto second = run("ddm", "beam", s, cache);
  first->run(10, 0.01, gravity());
  second->run(10, 0.01, gravity());
  EXPECT_TRUE(first->x() == second->x());  // bit-identical from the cache
  // A flipped byte in the payload: rejected, recomputed, rewritten, same numbers.
  {
    std::fstream f(files[0], std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x7f');
  }
  auto third = run("ddm", "beam", s, cache);
  third->run(10, 0.01, gravity());
  EXPECT_TRUE(first->x() == third->x());
}

TEST(DdmCache, RejectsOtherInputsTruncationAndCorruption) {
  ddm::CompressedInverse g;
  g.size = 6;
  g.cluster_of_group = {0, 0};
  g.clusters.push_back({{0, 1}, Eigen::MatrixXd::Random(6, 2), Eigen::MatrixXd::Random(6, 2)});
  const std::string bytes = ddm::encode_compressed_inverse(g, 42);
  const ddm::CompressedInverse back = ddm::decode_compressed_inverse(bytes, 42);
  EXPECT_TRUE(back.clusters[0].basis == g.clusters[0].basis);
  const auto why = [](const std::string& b, std::uint64_t hash) {
    return testing::error_message([&] { ddm::decode_compressed_inverse(b, hash); });
  };
  EXPECT_NE(why(bytes, 43).find("other inputs"), std::string::npos);
  EXPECT_NE(why(bytes.substr(0, bytes.size() - 3), 42).find("truncated"), std::string::npos);
  std::string corrupt = bytes;
  corrupt[60] ^= 1;
  EXPECT_NE(why(corrupt, 42).find("corrupt"), std::string::npos);
  EXPECT_NE(why("SUBSTMDL" + bytes.substr(8), 42).find("wrong magic"), std::string::npos);
}

TEST(DdmConstraints, AVertexSharedByKDomainsGetsKMinusOneRowsAndFixedOnesNone) {
  // Four domains of one tet each around the vertical edge (0,1) of a fan.
  TetMesh mesh;
  mesh.vertices.resize(6, 3);
  mesh.vertices << 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, -1, 0, 0, 0, -1, 0;
  mesh.tets.resize(4, 4);
  mesh.tets << 0, 1, 2, 3, 0, 1, 3, 4, 0, 1, 4, 5, 0, 1, 5, 2;
  std::vector<SubMesh> domains;
  for (Index e = 0; e < 4; ++e) domains.push_back(extract_sub_mesh(mesh, {e}, e));
  const auto rows = ddm::interface_rows(domains, {});
  // vertices 0 and 1 in 4 domains: 3 rows each; 2, 3, 4, 5 in 2 domains: 1 row each
  EXPECT_EQ(rows.size(), 3u + 3u + 4u);
  EXPECT_EQ(ddm::interface_rows(domains, {0}).size(), 3u + 4u);  // vertex 0 fixed
  const auto couplings = ddm::domain_couplings(rows, 4);
  for (const auto& c : couplings) EXPECT_EQ(c.vertices.size(), 4u);  // every vertex of each tet
  // B has full row rank: W = B Bᵀ (G = I) is positive definite.
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(3 * rows.size(), 3 * rows.size());
  for (const auto& c : couplings) ddm::add_domain_block(c, Eigen::MatrixXd::Identity(12, 12), W);
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(W).eigenvalues().minCoeff(), 0.1);
}

TEST(DdmRotation, TheBestFitRecoversARigidMotionExactly) {
  const TetMesh cube = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 2, 3), 2, 2, 2);
  const Mat3 Q = Eigen::AngleAxisd(2.5, Vec3(1, 2, -1).normalized()).toRotationMatrix();
  Eigen::VectorXd x(3 * cube.num_vertices());
  for (Index a = 0; a < cube.num_vertices(); ++a)
    x.segment<3>(3 * a) = Q * cube.vertices.row(a).transpose() + Vec3(4, -1, 2);
  Eigen::VectorXd mass = Eigen::VectorXd::LinSpaced(cube.num_vertices(), 1, 3);
  EXPECT_LT((ddm::best_fit_rotation(cube.vertices, x, mass) - Q).norm(), 1e-12);
  Eigen::MatrixXd G = Eigen::MatrixXd::Random(6, 6), J;
  ddm::rotate_boundary_block(G, Q, J);
  EXPECT_LT((J.block<3, 3>(3, 0) - Q * G.block<3, 3>(3, 0) * Q.transpose()).norm(), 1e-12);
}

}  // namespace
}  // namespace substruct
