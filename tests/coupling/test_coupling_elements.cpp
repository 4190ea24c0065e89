// SPDX-License-Identifier: GPL-3.0-or-later
// The coupling-elements method (Wu, Mukherjee, Wang 2015): the step's matrix is symmetric
// (App. B), the coupling forces are the derivative of the coupling elements' energy, momentum is
// conserved, the one-step scheme keeps energy better than the two-step one (Fig. 3), the
// implicit-midpoint scheme keeps it all, and a two-domain beam follows the unreduced ground truth.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "coupling_layer.hpp"
#include "interface_cubature.hpp"
#include "substruct/bench/accuracy.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/multidomain/domain_step.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/sim/simulation.hpp"
#include "substruct/solvers/solver_provider.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct::coupling_elements {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = SUBSTRUCT_SOURCE_DIR;

class CouplingElementsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<testing::SuiteDir>("CouplingElements");
    // A free 0.4 × 0.1 × 0.1 m box (no fixed vertices), 8 × 2 × 2 cells.
    write_veg(*dir_ / "box.veg", make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.1, 0.1), 8, 2, 2));
  }
  static void TearDownTestSuite() { dir_.reset(); }

  // The beam of share/meshes (1 m along y, clamped at one end), E = 1e7 Pa.
  std::vector<Setting> beam(const std::string& domains) const {
    return {{"scene.mesh", (kSource / "share/meshes/beam3_tet.veg").string(), "test"},
            {"scene.fixed", (kSource / "share/meshes/beam3.bou").string(), "test"},
            {"scene.domains", domains, "test"},
            {"reduction.cache", "false", "test"},
            {"reduction.modes", "12", "test"},
            {"reduction.linear_modes", "6", "test"}};
  }
  std::vector<Setting> box(const std::string& domains) const {
    return {{"scene.mesh", (*dir_ / "box.veg").string(), "test"},
            {"scene.domains", domains, "test"},
            {"material.youngs_modulus", "1e6", "test"},
            {"reduction.cache", "false", "test"},
            {"reduction.modes", "8", "test"},
            {"reduction.linear_modes", "4", "test"}};
  }
  Config config(std::vector<Setting> settings, const std::vector<Setting>& extra = {}) const {
    settings.insert(settings.end(), extra.begin(), extra.end());
    return Config::from_settings(settings, dir_->path(), host_);
  }

  // The domains, coupling elements and a random state (frames turned and moving, deformed).
  struct Model {
    Scene scene;
    std::vector<FloatingDomain> domains;
    std::vector<CouplingElement> coupling;
    std::vector<std::pair<int, int>> pairs;
    std::vector<int> domain_of;
    std::vector<DomainMotion> motion;
    std::vector<std::pair<Vec3, Vec3>> acceleration;
  };
  // relative = false: no deformation and no motion of the domains relative to each other (one
  // rigid motion of the whole body, random velocities).
  Model model(const Config& c, unsigned seed, bool relative = true) const {
    Model m;
    m.scene = load_scene(c);
    const SolverProvider solvers(host_, c);
    ModelCache cache{fs::path()};
    std::vector<DomainModel> models;
    m.domains = build_floating_domains(m.scene, DomainSplit::vertices,
                                       ReductionSettings::from_config(c), solvers, cache, models);
    m.coupling = find_coupling_elements(m.scene.mesh, m.domains, m.pairs);
    m.domain_of.assign(static_cast<std::size_t>(m.scene.mesh.num_vertices()), -1);
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal;
    // One rotation for the whole body, and small relative motions between the domains (the
    // coupling elements stay well shaped, so the step's matrix stays positive definite).
    const Vec3 body_axis = Vec3(normal(rng), normal(rng), normal(rng)).normalized();
    bool anchored = false;
    for (const FloatingDomain& d : m.domains) anchored = anchored || d.anchored;
    const Mat3 body =
        anchored ? Mat3::Identity() : Mat3(Eigen::AngleAxisd(1.3, body_axis).toRotationMatrix());
    for (const FloatingDomain& d : m.domains) {
      for (Index g : d.global_vertex) m.domain_of[static_cast<std::size_t>(g)] = d.id;
      DomainMotion s;
      // Equal linear elastic energy per mode, q_i ~ 0.1 / √K₀_ii (about 1 mm on the softest
      // mode): the stiff modal-derivative modes get small amplitudes.
      Eigen::VectorXd f0;
      Eigen::MatrixXd K0;
      d.model->forces->evaluate(Eigen::VectorXd::Zero(d.r()), nullptr, &f0, &K0);
      s.q = Eigen::VectorXd::NullaryExpr(d.r(), [&] { return 0.1 * normal(rng); });
      s.q.array() /= K0.diagonal().array().sqrt();
      if (!relative) s.q.setZero();
      s.qdot = Eigen::VectorXd::NullaryExpr(d.r(), [&] { return 1e-2 * normal(rng); });
      s.c = d.rest_centre;
      if (!d.anchored) {
        const Vec3 axis = Vec3(normal(rng), normal(rng), normal(rng)).normalized();
        const double turn = relative ? 2e-3 * normal(rng) : 0.0;
        s.R = Eigen::AngleAxisd(turn, axis).toRotationMatrix() * body;
        s.c = body * d.rest_centre;
        if (relative) s.c += 1e-4 * Vec3(normal(rng), normal(rng), normal(rng));
        s.v = Vec3(normal(rng), normal(rng), normal(rng));
        s.omega = Vec3(normal(rng), normal(rng), normal(rng));
      }
      m.motion.push_back(s);
      m.acceleration.emplace_back(Vec3::Zero(), Vec3::Zero());
    }
    return m;
  }
  static BlockSystem system_for(const Model& m) {
    std::vector<int> sizes;
    for (const FloatingDomain& d : m.domains) sizes.push_back(d.unknowns());
    return BlockSystem(sizes, m.pairs);
  }

  // The two-domain beam released along its first mode, no damping, no gravity: the fraction of its
  // energy `scheme` keeps after 0.6 s at time step `dt`.
  double energy_kept(const char* scheme, double dt) const {
    const Config c = config(beam("auto:2"), {{"coupling.plugin", "coupling-elements", "test"},
                                             {"coupling-elements.integration", scheme, "test"},
                                             {"run.loads", "", "test"},
                                             {"run.exporters", "", "test"},
                                             {"run.dt", fmt::format("{}", dt), "test"},
                                             {"run.initial_velocity", "mode 1 1", "test"}});
    Simulation sim(c, host_);
    sim.reset();
    const double E0 = sim.method().energies(Vec3::Zero()).total();
    StepStats stats;
    for (int s = 0; s < static_cast<int>(0.6 / dt); ++s) sim.step(stats);
    return sim.method().energies(Vec3::Zero()).total() / E0;
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  static inline std::unique_ptr<testing::SuiteDir> dir_;
};

// The floating domains get their models from the framework's one model provider: instances share
// their representative's model (when [reduction] instancing is on), the cache is used, and a
// cache that cannot be written is a warning, not a failure.
TEST_F(CouplingElementsTest, FloatingDomainsHonourInstancingAndTheCache) {
  // The box cut at x = 0.2 into two halves of 4 × 2 × 2 cells: translated copies.
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.1, 0.1), 8, 2, 2);
  {
    std::ofstream ids(*dir_ / "halves.domains");
    for (Index e = 0; e < mesh.num_elements(); ++e) {
      double x = 0;
      for (int a = 0; a < 4; ++a) x += mesh.vertices(mesh.tets(e, a), 0) / 4;
      ids << (x < 0.2 ? 0 : 1) << "\n";
    }
  }
  const auto origins = [&](const std::vector<Setting>& extra, const fs::path& cache_dir) {
    const Config c = config(box((*dir_ / "halves.domains").string()), extra);
    const Scene scene = load_scene(c);
    const SolverProvider solvers(host_, c);
    ModelCache cache(cache_dir);
    std::vector<DomainModel> models;
    const auto domains = build_floating_domains(
        scene, DomainSplit::elements, ReductionSettings::from_config(c), solvers, cache, models);
    EXPECT_EQ(domains.size(), 2u);
    std::vector<ModelOrigin> result;
    for (const DomainModel& m : models) result.push_back(m.origin);
    return result;
  };
  using O = ModelOrigin;
  EXPECT_EQ(origins({}, {}), (std::vector<O>{O::computed, O::instance}));
  EXPECT_EQ(origins({{"reduction.instancing", "false", "test"}}, {}),
            (std::vector<O>{O::computed, O::computed}));
  const fs::path cache_dir = *dir_ / "floating-cache";
  EXPECT_EQ(origins({{"reduction.cache", "true", "test"}}, cache_dir),
            (std::vector<O>{O::computed, O::instance}));
  EXPECT_EQ(origins({{"reduction.cache", "true", "test"}}, cache_dir),
            (std::vector<O>{O::cache, O::instance}));
  // A cache folder that is a file: nothing can be stored, the models are computed all the same.
  { std::ofstream(*dir_ / "not-a-folder") << "x"; }
  EXPECT_EQ(origins({{"reduction.cache", "true", "test"}}, *dir_ / "not-a-folder"),
            (std::vector<O>{O::computed, O::instance}));
}

// A [reduction] key the method cannot honour is refused in can_run, not ignored.
TEST_F(CouplingElementsTest, RefusesABoundaryItCannotHonour) {
  for (const std::string boundary : {"parent-interface", "free"}) {
    const Config c = config(box("auto:2"), {{"reduction.boundary", boundary, "test"}});
    const Scene scene = load_scene(c);
    auto method =
        host_.create<CouplingMethod>("coupling-elements", PluginKind::coupling, PluginContext{c});
    const CanRun verdict = method->can_run(scene);
    EXPECT_FALSE(verdict) << boundary;
    EXPECT_NE(verdict.reason.find("cannot honour [reduction] boundary = " + boundary),
              std::string::npos)
        << verdict.reason;
  }
  for (const std::vector<Setting>& extra :
       {std::vector<Setting>{},
        std::vector<Setting>{{"reduction.boundary", "fixed-vertices", "t"}}}) {
    const Config c = config(box("auto:2"), extra);
    auto method =
        host_.create<CouplingMethod>("coupling-elements", PluginKind::coupling, PluginContext{c});
    EXPECT_TRUE(method->can_run(load_scene(c))) << method->can_run(load_scene(c)).reason;
  }
}

TEST_F(CouplingElementsTest, StepMatrixIsSymmetricPositiveDefinite) {
  // App. B: every coupling term has its transpose in another equation — in any state. Positive
  // definite (Cholesky applies) where the coupling elements are unstressed; a random relative
  // motion of the domains can stress them enough to make the linearisation indefinite.
  for (const auto& settings : {beam("auto:3"), box("auto:4")})
    for (const bool relative : {true, false}) {
      const Model m = model(config(settings), 7, relative);
      ASSERT_GE(m.coupling.size(), 1u);
      BlockSystem system = system_for(m);
      const DomainStepState state{&m.motion, &m.acceleration, 0.1, 0.01};
      ExternalForces forces;
      forces.gravity = Vec3(0, -9.81, 0);
      assemble_domain_step(m.domains, m.domain_of, state, forces, 0.01, system);
      add_coupling_terms(m.coupling, m.domains, m.motion, MaterialModel::stvk, 0.01, &system);
      const Eigen::MatrixXd A = system.matrix();
      const double asymmetry = (A - A.transpose()).cwiseAbs().maxCoeff() / A.cwiseAbs().maxCoeff();
      EXPECT_LT(asymmetry, 1e-13);
      EXPECT_TRUE(system.b().allFinite());
      if (relative) continue;
      EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(A).info(), Eigen::Success)
          << "smallest eigenvalue "
          << Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A).eigenvalues().minCoeff() << " of "
          << A.rows();
    }
}

TEST_F(CouplingElementsTest, CouplingForceIsTheEnergyGradient) {
  // b = −Δt Jᵀ f with f = ∂E/∂x: moving every domain by δ = (δq, δc, δθ) changes the coupling
  // energy by Σ fᵀ J δ to first order.
  Model m = model(config(box("auto:3")), 11);
  BlockSystem system = system_for(m);
  const double E0 =
      add_coupling_terms(m.coupling, m.domains, m.motion, MaterialModel::stvk, 1.0, &system);
  // Only the coupling's share of b: the domains' rows start at zero here.
  const Eigen::VectorXd force = -system.b();  // Jᵀ f
  std::mt19937 rng(3);
  std::normal_distribution<double> normal;
  Eigen::VectorXd delta = Eigen::VectorXd::NullaryExpr(system.size(), [&] { return normal(rng); });
  const auto moved = [&](double h) {
    std::vector<DomainMotion> motion = m.motion;
    for (const FloatingDomain& d : m.domains) {
      DomainMotion& s = motion[static_cast<std::size_t>(d.id)];
      const Index o = system.offset(d.id);
      s.q += h * delta.segment(o, d.r());
      if (!d.anchored) {
        s.c += h * delta.segment<3>(o + d.r());
        const Vec3 w = h * delta.segment<3>(o + d.r() + 3);
        s.R = Eigen::AngleAxisd(w.norm(), w.normalized()).toRotationMatrix() * s.R;
      }
    }
    return add_coupling_terms(m.coupling, m.domains, motion, MaterialModel::stvk, 1.0, nullptr);
  };
  const double h = 1e-6;
  const double fd = (moved(h) - moved(-h)) / (2 * h);
  EXPECT_NEAR(fd, force.dot(delta), 1e-5 * std::abs(force.dot(delta)) + 1e-9 * std::abs(E0));
}

TEST_F(CouplingElementsTest, FreeBoxConservesLinearMomentum) {
  // No gravity, a push on one end for 10 steps, then free: the coupling forces are internal, so
  // the total momentum Σ m_i v_i equals the impulse (the bases carry no translation, UᵀM1 = 0).
  const Config c = config(box("auto:3"), {{"coupling.plugin", "coupling-elements", "test"},
                                          {"run.loads", "", "test"},
                                          {"run.exporters", "", "test"}});
  Simulation sim(c, host_);
  sim.reset();
  const Scene& scene = sim.scene();
  auto& method = sim.method();
  ExternalForces push;
  push.point_forces.push_back({0, Vec3(0.3, 1.0, 0.2)});
  StepStats stats;
  const double dt = 0.005;
  for (int k = 0; k < 40; ++k) method.step(dt, k < 10 ? push : ExternalForces{}, stats);
  Points v;
  method.velocities(v);
  const SparseMatrix M = consistent_mass(scene.mesh);
  // Σ over the domains' vertices of their lumped mass (own elements plus the coupling elements'
  // share) × velocity.
  Vec3 momentum = Vec3::Zero();
  for (const auto& d : model(c, 1).domains) {
    const Eigen::VectorXd m1 = d.mass * Eigen::VectorXd::Ones(d.mass.cols());
    for (std::size_t s = 0; s < d.global_vertex.size(); ++s)
      momentum += m1.segment<3>(3 * static_cast<Index>(s))
                      .cwiseProduct(v.row(d.global_vertex[s]).transpose());
  }
  const Vec3 impulse = 10 * dt * Vec3(0.3, 1.0, 0.2);
  EXPECT_LT((momentum - impulse).norm(), 1e-9 * impulse.norm()) << momentum.transpose();
}

TEST_F(CouplingElementsTest, OneStepSchemeLosesLessEnergyThanTwoStep) {
  // Fig. 3: backward Euler dissipates in both schemes, the two-step scheme much more.
  for (double dt : {0.005, 0.02}) {
    const double one = energy_kept("one-step", dt), two = energy_kept("two-step", dt);
    EXPECT_GT(one, two) << "dt " << dt;
    EXPECT_LT(one, 1.0 + 1e-9) << "dt " << dt;  // backward Euler never gains energy here
    std::printf("dt %g: energy kept after 0.6 s: one-step %.3f, two-step %.3f\n", dt, one, two);
  }
}

TEST_F(CouplingElementsTest, MidpointSchemeKeepsTheVibration) {
  // The implicit midpoint rule (backward Euler system of Δt/2, then extrapolated) keeps the
  // energy where backward Euler dissipates it. It is exact for a linear system; here the forces
  // are linearized at the step's start, which loses a little at large Δt (measured: 0.9994 at
  // Δt = 0.005 s, 0.891 at 0.02 s, against 0.711 and 0.217 for one-step).
  for (double dt : {0.005, 0.02}) {
    const double one = energy_kept("one-step", dt), mid = energy_kept("midpoint", dt);
    std::printf("dt %g: energy kept after 0.6 s: one-step %.3f, midpoint %.4f\n", dt, one, mid);
    EXPECT_GT(mid, one + 0.25) << "dt " << dt;
    EXPECT_NEAR(mid, 1.0, dt < 0.01 ? 0.01 : 0.15) << "dt " << dt;
  }
}

TEST_F(CouplingElementsTest, TwoDomainBeamFollowsTheGroundTruth) {
  // The beam sagging under gravity, cut in two: the tip against the unreduced full method.
  Eigen::MatrixXd tip[2];
  int k = 0;
  double size = 0;
  for (const char* method : {"full", "coupling-elements"}) {
    const Config c = config(beam("auto:2"), {{"coupling.plugin", method, "test"},
                                             {"run.exporters", "", "test"},
                                             {"run.loads", "gravity", "test"},
                                             {"gravity.acceleration", "-9.81 0 0", "test"}});
    Simulation sim(c, host_);
    sim.reset();
    size = sim.scene().size();
    const Index v = sim.scene().tracked_vertices.front();
    tip[k] = Eigen::MatrixXd(101, 3);
    tip[k].row(0) = sim.positions().row(v);
    StepStats stats;
    for (int s = 1; s <= 100; ++s) {
      sim.step(stats);
      tip[k].row(s) = sim.positions().row(v);
    }
    ++k;
  }
  const TrajectoryError e = trajectory_error(tip[1], tip[0], size);
  const double ratio = vibration_frequency(tip[1], 0.01) / vibration_frequency(tip[0], 0.01);
  std::printf("two-domain beam: tip RMS error %.4f, max %.4f of the size; frequency ratio %.3f\n",
              e.rms, e.max, ratio);
  EXPECT_LT(e.rms, 0.04);  // measured 0.032 (12 modes per domain)
  EXPECT_GT(ratio, 0.95);
  EXPECT_LT(ratio, 1.25);
}

TEST_F(CouplingElementsTest, InterfaceCubatureErrorFallsWithTheNumberOfSamples) {
  // §5, Fig. 5 (uniform weights): the worst layer's force error on held-out poses falls as the
  // layers keep more elements; weights are positive, and the step's matrix stays symmetric.
  const Model m = model(config(box("auto:4")), 3, false);
  double last_training = 2, first_held_out = 0, last_held_out = 0;
  for (int samples : {2, 4, 8, 1000}) {
    InterfaceCubatureSettings settings;
    settings.max_samples = samples;
    settings.tolerance = 1e-6;
    InterfaceCubatureReport report;
    const auto kept =
        fit_interface_cubature(m.coupling, m.domains, MaterialModel::stvk, settings, report);
    std::printf(
        "interface cubature, ≤ %d per layer: %d of %d elements, error %.4f (training) "
        "%.4f (held out)\n",
        samples, report.samples, report.elements, report.training_error, report.held_out_error);
    EXPECT_LE(report.training_error, last_training + 1e-12);
    last_training = report.training_error;
    if (samples == 2) first_held_out = report.held_out_error;
    last_held_out = report.held_out_error;
    for (const CouplingElement& c : kept) EXPECT_GT(c.weight, 0);
    BlockSystem system = system_for(m);
    add_coupling_terms(kept, m.domains, m.motion, MaterialModel::stvk, 0.01, &system);
    const Eigen::MatrixXd A = system.matrix();
    EXPECT_LT((A - A.transpose()).cwiseAbs().maxCoeff(), 1e-13 * A.cwiseAbs().maxCoeff());
  }
  EXPECT_LT(last_held_out, 0.5 * first_held_out);
  EXPECT_LT(last_training, 1e-3);  // every element available: the fit is (nearly) exact

  // Non-uniform weights on the same samples: at most the uniform error on the training poses.
  for (int samples : {2, 4, 8}) {
    InterfaceCubatureReport uniform, split;
    InterfaceCubatureSettings settings;
    settings.max_samples = samples;
    settings.tolerance = 1e-6;
    fit_interface_cubature(m.coupling, m.domains, MaterialModel::stvk, settings, uniform);
    settings.non_uniform = true;
    const auto kept =
        fit_interface_cubature(m.coupling, m.domains, MaterialModel::stvk, settings, split);
    std::printf(
        "≤ %d per layer: uniform %.4f / %.4f, non-uniform %.4f / %.4f (training / held "
        "out)\n",
        samples, uniform.training_error, uniform.held_out_error, split.training_error,
        split.held_out_error);
    EXPECT_EQ(split.samples, uniform.samples);
    EXPECT_LE(split.training_error, uniform.training_error + 1e-12);
    for (const CouplingElement& c : kept) ASSERT_TRUE(c.split.has_value());
  }
}

TEST_F(CouplingElementsTest, NonUniformInterfaceCubatureRunsWithBlockLU) {
  // The unsymmetric system of non-uniform weights is solved by block LU; the free box keeps its
  // momentum (the f and τ weights are shared by both domains of a layer).
  const Config c =
      config(box("auto:3"), {{"coupling.plugin", "coupling-elements", "test"},
                             {"coupling-elements.interface_samples", "4", "test"},
                             {"coupling-elements.interface_weights", "non-uniform", "test"},
                             {"run.loads", "", "test"},
                             {"run.exporters", "", "test"}});
  Simulation sim(c, host_);
  sim.reset();
  ExternalForces push;
  push.point_forces.push_back({0, Vec3(0.3, 1.0, 0.2)});
  StepStats stats;
  for (int k = 0; k < 20; ++k) sim.method().step(0.005, k < 5 ? push : ExternalForces{}, stats);
  Points v;
  sim.method().velocities(v);
  EXPECT_TRUE(v.allFinite());
}

TEST_F(CouplingElementsTest, FullSpaceDomainsJoinTheSameSystem) {
  // §7: a domain simulated in full space inside the same system. With both halves of the beam in
  // full space the method has the full model's DOFs and its error against the full method is at
  // most that of the reduced halves (what is left is backward Euler against Newmark).
  // The tip over 60 steps of the beam in two domains sagging under gravity, and the DOFs.
  auto run = [&](const std::string& method, const std::string& full_space, Index& dofs) {
    const Config c =
        config(beam("auto:2"), {{"coupling.plugin", method, "test"},
                                {"coupling-elements.full_space_domains", full_space, "test"},
                                {"run.exporters", "", "test"},
                                {"run.loads", "gravity", "test"},
                                {"gravity.acceleration", "-9.81 0 0", "test"}});
    Simulation sim(c, host_);
    sim.reset();
    dofs = sim.method().dofs();
    const Index v = sim.scene().tracked_vertices.front();
    Eigen::MatrixXd tip(61, 3);
    tip.row(0) = sim.positions().row(v);
    StepStats stats;
    for (int s = 1; s <= 60; ++s) {
      sim.step(stats);
      tip.row(s) = sim.positions().row(v);
    }
    return tip;
  };
  Index dofs_full = 0, dofs_reduced = 0, dofs_both = 0, dofs_one = 0;
  const Eigen::MatrixXd tip = run("full", "", dofs_full);
  const double size = load_scene(config(beam("auto:2"))).size();
  const double reduced =
      trajectory_error(run("coupling-elements", "", dofs_reduced), tip, size).rms;
  const double one = trajectory_error(run("coupling-elements", "1", dofs_one), tip, size).rms;
  const double both = trajectory_error(run("coupling-elements", "0 1", dofs_both), tip, size).rms;
  std::printf(
      "full-space domains: none %.4f (%ld DOFs), one %.4f (%ld), both %.4f (%ld; full %ld)\n",
      reduced, static_cast<long>(dofs_reduced), one, static_cast<long>(dofs_one), both,
      static_cast<long>(dofs_both), static_cast<long>(dofs_full));
  EXPECT_EQ(dofs_both, dofs_full);
  EXPECT_GT(dofs_one, dofs_reduced);
  EXPECT_LE(both, reduced * 1.05);
  EXPECT_LT(both, 0.03);
  EXPECT_THROW(run("coupling-elements", "7", dofs_one), Error);  // no domain 7
}

TEST_F(CouplingElementsTest, BadSettingsAreClearErrors) {
  EXPECT_THROW(
      {
        const Config c =
            config(beam("auto:2"), {{"coupling.plugin", "coupling-elements", "test"},
                                    {"coupling-elements.integration", "three-step", "test"}});
        Simulation sim(c, host_);
      },
      Error);
  const Config c = config(beam("auto:2"), {{"coupling.plugin", "coupling-elements", "test"},
                                           {"material.model", "linear", "test"}});
  try {
    Simulation sim(c, host_);
    FAIL() << "a linear material with the polynomial force model should be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stvk"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace substruct::coupling_elements
