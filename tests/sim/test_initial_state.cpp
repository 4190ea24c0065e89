// SPDX-License-Identifier: GPL-3.0-or-later
// [run] initial_displacement / initial_velocity = "mode K AMPLITUDE": the parsed values, the
// mode shapes of the whole mesh (against a dense eigen solve), the scaling to the amplitude, the
// state Simulation starts from, and the errors for malformed values.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/dof_map.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/initial_state.hpp"
#include "substruct/sim/simulation.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using testing::error_message;

double largest_vertex_norm(const Eigen::VectorXd& x) {
  double largest = 0;
  for (Eigen::Index v = 0; v < x.size(); v += 3)
    largest = std::max(largest, x.segment<3>(v).norm());
  return largest;
}

// |aᵀMb| / (‖a‖_M ‖b‖_M): 1 when a ∥ b.
double m_cosine(const SparseMatrix& M, const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return std::abs(a.dot(M * b)) / std::sqrt(a.dot(M * a) * b.dot(M * b));
}

TEST(ModeSpec, ParsesModeAndAmplitude) {
  EXPECT_FALSE(parse_mode_spec("run.initial_velocity", "").has_value());
  EXPECT_FALSE(parse_mode_spec("run.initial_velocity", "  \t").has_value());
  const auto spec = parse_mode_spec("run.initial_velocity", " mode  3 2.5e-1 ");
  ASSERT_TRUE(spec.has_value());
  EXPECT_EQ(spec->mode, 3);
  EXPECT_EQ(spec->amplitude, 0.25);
}

TEST(ModeSpec, RejectsMalformedValues) {
  const auto message = [](const std::string& text) {
    return error_message([&] { parse_mode_spec("run.initial_velocity", text); });
  };
  for (const std::string text :
       {"mode 0 1", "mode x", "mode 1 -0.5", "mode -2 1", "mode 1.5 1", "mode 1 abc", "mode 1",
        "shape 1 1", "mode 1 1 extra", "mode 1 nan", "mode 1 inf"}) {
    const std::string m = message(text);
    EXPECT_NE(m.find("initial_velocity"), std::string::npos) << text << ": " << m;
    EXPECT_NE(m.find("mode K AMPLITUDE"), std::string::npos) << text << ": " << m;
    EXPECT_NE(m.find("'" + text + "'"), std::string::npos) << text << ": " << m;
  }
  EXPECT_NE(message("mode 0 1").find("numbered from 1"), std::string::npos);
  EXPECT_NE(message("mode x").find("missing"), std::string::npos);
  EXPECT_NE(message("mode x 1").find("'x' is not an integer"), std::string::npos);
  EXPECT_NE(message("mode 1 -0.5").find("≥ 0"), std::string::npos);
}

TEST(ScaleToAmplitude, LargestVertexValueIsTheAmplitude) {
  Eigen::VectorXd shape(6);
  shape << 3, 0, -4, 1, 1, 1;  // vertex norms 5 and √3
  const Eigen::VectorXd scaled = scale_to_amplitude(shape, 2.0);
  EXPECT_DOUBLE_EQ(scaled[0], 1.2);
  EXPECT_DOUBLE_EQ(scaled[2], -1.6);
  EXPECT_DOUBLE_EQ(scaled[3], 0.4);
  EXPECT_NE(error_message([] { scale_to_amplitude(Eigen::VectorXd::Zero(6), 1.0); }).find("zero"),
            std::string::npos);
}

// The public-domain beam (share/meshes: 208 vertices, 1 m along y, 0.12 m along x, 0.04 m along
// z, E = 1e7 Pa, ν = 0.45, ρ = 1000), clamped at y = 1, simulated by `full` without gravity.
class InitialStateBeam : public ::testing::Test {
 protected:
  Config config(const std::vector<Setting>& extra) const {
    std::vector<Setting> settings{{"scene.mesh", "beam3_tet.veg", "test"},
                                  {"scene.fixed", "beam3.bou", "test"},
                                  {"coupling.plugin", "full", "test"},
                                  {"run.exporters", "", "test"},
                                  {"run.dt", "0.001", "test"},
                                  {"reduction.cache", "false", "test"}};
    settings.insert(settings.end(), extra.begin(), extra.end());
    return Config::from_settings(settings, testing::share_dir() / "meshes", host_);
  }

  // The lowest eigenpairs of K x = λ M x on the free DOFs by a dense solve (the reference).
  struct Dense {
    SparseMatrix M;
    Eigen::VectorXd values;
    Eigen::MatrixXd vectors;  // full length, zero at the fixed DOFs
  };
  static Dense dense_modes(const Scene& scene) {
    const ElasticForceModel model(scene.mesh, scene.material_model);
    const SparseMatrix K = model.stiffness(Eigen::VectorXd::Zero(model.num_dofs()));
    Dense d;
    d.M = consistent_mass(scene.mesh);
    const DofMap dofs = DofMap::for_fixed_vertices(scene.mesh.num_vertices(), scene.fixed_vertices);
    const Eigen::MatrixXd Kf(dofs.restrict_matrix(K)), Mf(dofs.restrict_matrix(d.M));
    const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> eig(Kf, Mf);
    d.values = eig.eigenvalues().head(3);
    d.vectors.resize(K.rows(), 3);
    for (int c = 0; c < 3; ++c) d.vectors.col(c) = dofs.expand_vector(eig.eigenvectors().col(c));
    return d;
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

TEST_F(InitialStateBeam, VelocityIsTheFirstModeScaledToTheAmplitude) {
  Simulation sim(config({{"run.initial_velocity", "mode 1 0.5", "test"}}), host_);
  sim.reset();
  const Scene& scene = sim.scene();
  const Dense dense = dense_modes(scene);
  // The lowest bending mode of the beam is across its thin side (z): f₁ = √λ₁ / 2π.
  const double f1 = std::sqrt(dense.values[0]) / (2 * M_PI);
  // Euler–Bernoulli gives 1.875² / 2π √(EI / ρA) / L² = 0.646 Hz; this coarse mesh of linear
  // tets (two cells across) is stiffer in bending: 1.58 Hz.
  EXPECT_GT(f1, 0.646);
  EXPECT_LT(f1, 2.0);

  const Eigen::VectorXd v = flat(sim.velocities());
  const Eigen::VectorXd u = flat(sim.positions()) - flat(scene.mesh.vertices);
  EXPECT_EQ(u.norm(), 0.0);
  EXPECT_NEAR(largest_vertex_norm(v), 0.5, 1e-12);
  EXPECT_GT(m_cosine(dense.M, v, dense.vectors.col(0)), 1 - 1e-8);
  EXPECT_LT(m_cosine(dense.M, v, dense.vectors.col(1)), 1e-6);
  for (Index f : scene.fixed_vertices) EXPECT_EQ(v.segment<3>(3 * f).norm(), 0.0);
  // The free end (vertex 0, y = 0, a corner) moves across the thin side, along z (98 %; the
  // rest is the axial motion of the rotating end section), and fastest: it has the amplitude.
  EXPECT_GT(std::abs(v[2]), 0.95 * v.segment<3>(0).norm());
  EXPECT_NEAR(v.segment<3>(0).norm(), 0.5, 1e-12);
  // Deterministic sign: the largest-magnitude entry is positive.
  Eigen::Index largest = 0;
  v.cwiseAbs().maxCoeff(&largest);
  EXPECT_GT(v[largest], 0);
}

TEST_F(InitialStateBeam, FullMethodsFirstStepMovesAlongTheMode) {
  Simulation sim(config({{"run.initial_velocity", "mode 1 0.5", "test"}}), host_);
  sim.reset();
  const Eigen::VectorXd v0 = flat(sim.velocities());
  StepStats stats;
  sim.step(stats);
  const Eigen::VectorXd u1 = flat(sim.positions()) - flat(sim.scene().mesh.vertices);
  const SparseMatrix M = consistent_mass(sim.scene().mesh);
  // Newmark (trapezoidal) from u = 0: u₁ = dt v₀ + dt²/4 a₁, a₁ ≈ −λ₁ u₁, so u₁ ≈ dt v₀.
  EXPECT_GT(m_cosine(M, u1, v0), 1 - 1e-6);
  EXPECT_NEAR(u1.norm() / (0.001 * v0.norm()), 1.0, 1e-3);
  // The free end keeps moving along +z.
  EXPECT_GT(u1[2] * v0[2], 0);
}

TEST_F(InitialStateBeam, DisplacementAndVelocityFromDifferentModes) {
  Simulation sim(config({{"run.initial_displacement", "mode 2 0.01", "test"},
                         {"run.initial_velocity", "mode 1 0.2", "test"}}),
                 host_);
  sim.reset();
  const Dense dense = dense_modes(sim.scene());
  const Eigen::VectorXd u = flat(sim.positions()) - flat(sim.scene().mesh.vertices);
  const Eigen::VectorXd v = flat(sim.velocities());
  EXPECT_NEAR(largest_vertex_norm(u), 0.01, 1e-12);
  EXPECT_NEAR(largest_vertex_norm(v), 0.2, 1e-12);
  EXPECT_GT(m_cosine(dense.M, u, dense.vectors.col(1)), 1 - 1e-8);
  EXPECT_GT(m_cosine(dense.M, v, dense.vectors.col(0)), 1 - 1e-8);
  // An explicit state replaces the configured one; back to rest with zero vectors.
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(u.size());
  sim.reset(zero, zero);
  EXPECT_EQ(flat(sim.velocities()).norm(), 0.0);
  EXPECT_EQ((flat(sim.positions()) - flat(sim.scene().mesh.vertices)).norm(), 0.0);
  // The default reset goes back to the configured state.
  sim.reset();
  EXPECT_NEAR(largest_vertex_norm(flat(sim.velocities())), 0.2, 1e-12);
}

TEST_F(InitialStateBeam, RestWhenTheKeysAreEmpty) {
  Simulation sim(config({}), host_);
  sim.reset();
  EXPECT_TRUE(sim.initial_state().at_rest());
  EXPECT_EQ(flat(sim.velocities()).norm(), 0.0);
}

TEST_F(InitialStateBeam, ErrorsNameTheKeyBeforeAnyWork) {
  const auto message = [&](const std::string& key, const std::string& value) {
    return error_message([&] { Simulation sim(config({{key, value, "test"}}), host_); });
  };
  EXPECT_NE(message("run.initial_velocity", "mode 0 1").find("initial_velocity"),
            std::string::npos);
  EXPECT_NE(message("run.initial_velocity", "mode x").find("initial_velocity"), std::string::npos);
  EXPECT_NE(message("run.initial_displacement", "mode 1 -1").find("initial_displacement"),
            std::string::npos);
  // 208 vertices, 8 fixed: 600 modes.
  EXPECT_EQ(message("run.initial_velocity", "mode 600 1"), "(no error)");
  const std::string too_many = message("run.initial_velocity", "mode 601 1");
  EXPECT_NE(too_many.find("initial_velocity = 'mode 601 1'"), std::string::npos) << too_many;
  EXPECT_NE(too_many.find("only 600 vibration modes"), std::string::npos) << too_many;
}

// A free-flying box (no fixed vertex): mode 1 is its lowest elastic mode, not a rigid motion.
class InitialStateFree : public testing::TempDirTest {};

TEST_F(InitialStateFree, SkipsTheRigidBodyModes) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.1, 0.1), 4, 1, 1);
  write_veg(dir() / "box.veg", mesh);
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Config config = Config::from_settings({{"scene.mesh", "box.veg", "test"},
                                               {"material.youngs_modulus", "1e6", "test"},
                                               {"material.poisson_ratio", "0.3", "test"},
                                               {"material.density", "1000", "test"},
                                               {"run.exporters", "", "test"},
                                               {"run.initial_velocity", "mode 1 1", "test"}},
                                              dir(), host);
  Simulation sim(config, host);
  sim.reset();
  const Eigen::VectorXd v = flat(sim.velocities());
  const TetMesh& scene_mesh = sim.scene().mesh;  // with the [material] values
  const SparseMatrix M = consistent_mass(scene_mesh);
  const ElasticForceModel model(scene_mesh, MaterialModel::stvk);
  const SparseMatrix K = model.stiffness(Eigen::VectorXd::Zero(model.num_dofs()));
  // Elastic: K v = λ M v with λ well above zero; no net momentum (M-orthogonal to translations).
  const double lambda = v.dot(K * v) / v.dot(M * v);
  EXPECT_GT(lambda, 1.0);
  EXPECT_LT((K * v - lambda * (M * v)).norm(), 1e-6 * (K * v).norm());
  const Eigen::VectorXd Mv = M * v;
  for (int c = 0; c < 3; ++c) {
    double momentum = 0;
    for (Eigen::Index i = c; i < Mv.size(); i += 3) momentum += Mv[i];
    EXPECT_LT(std::abs(momentum), 1e-9 * std::sqrt(v.dot(Mv)));
  }
  EXPECT_NEAR(largest_vertex_norm(v), 1.0, 1e-12);
  // 3N − 6 elastic modes (N vertices, 6 rigid-body modes).
  const Index vertices = mesh.num_vertices();
  const std::string too_many = error_message([&] {
    Simulation s(Config::from_settings(
                     {{"scene.mesh", "box.veg", "test"},
                      {"material.youngs_modulus", "1e6", "test"},
                      {"material.poisson_ratio", "0.3", "test"},
                      {"material.density", "1000", "test"},
                      {"run.initial_velocity", fmt::format("mode {} 1", 3 * vertices - 5), "test"}},
                     dir(), host),
                 host);
  });
  EXPECT_NE(too_many.find(fmt::format("only {} vibration modes", 3 * vertices - 6)),
            std::string::npos)
      << too_many;
  EXPECT_NE(too_many.find("rigid-body"), std::string::npos) << too_many;
}

}  // namespace
}  // namespace substruct
