// SPDX-License-Identifier: GPL-3.0-or-later
// The `spectral-hybrid` coupling plugin (Yang et al. 2010): exact rigidity of rigid modes under
// modal warping at any angle, the linear limit, the boundary rows holding the copies together,
// the saddle-point step against a dense solve, energy conservation, the dependent rows, the
// paper's twist (Fig. 2) and boundary deviation (Fig. 3), agreement with `full`, the cache.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <Eigen/LU>

#include "constrained_newmark.hpp"
#include "hybrid_constraints.hpp"
#include "region_model.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/domains/hybrid_regions.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/hybrid_bar_generator.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"
#include "support/method_run.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;
using spectral_hybrid::ConstrainedNewmark;
using spectral_hybrid::NewmarkState;
using testing::MethodRun;

void write_bou(const fs::path& file, const std::vector<Index>& fixed) {
  std::ofstream out(file);
  for (Index v : fixed) out << v + 1 << "\n";
}

// The paper's hybrid bar (0.9 m × 0.15 m × 0.05 m, 324 tets, the middle third rigid, clamped at
// x = 0) and a free 0.2 m cube cut in two halves.
class SpectralHybridTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<testing::SuiteDir>("SpectralHybrid");
    std::vector<Index> fixed, tip;
    const TetMesh bar = generate_hybrid_bar(HybridBarParameters{}, &fixed, &tip, &free_end_);
    write_veg(dir_->path() / "bar.veg", bar);
    write_bou(dir_->path() / "bar.bou", fixed);
    tip_ = tip;
    const TetMesh cube = make_box_mesh(Vec3(0, 0, 0), Vec3(0.2, 0.2, 0.2), 4, 2, 2);
    write_veg(dir_->path() / "cube.veg", cube);
    std::ofstream(dir_->path() / "cube.bou") << "";
    std::ofstream halves(dir_->path() / "cube.domains");
    for (Index e = 0; e < cube.num_elements(); ++e) halves << ((e / 6) % 4 < 2 ? 0 : 1) << "\n";
  }
  static void TearDownTestSuite() { dir_.reset(); }

  Config config(const std::string& mesh, const std::vector<Setting>& extra) const {
    std::vector<Setting> s{{"scene.mesh", mesh + ".veg", "test"},
                           {"scene.fixed", mesh + ".bou", "test"},
                           {"scene.domains", mesh == "bar" ? "sets" : "cube.domains", "test"},
                           {"material.rayleigh_mass", "2", "test"},
                           {"material.rayleigh_stiffness", "0.002", "test"},
                           {"spectral-hybrid.rigid_domains", "1", "test"},
                           {"spectral-hybrid.modes", "30", "test"},
                           {"spectral-hybrid.cache", "false", "test"},
                           {"run.dt", "0.01", "test"}};
    for (const Setting& e : extra) {
      const auto same =
          std::find_if(s.begin(), s.end(), [&](const Setting& x) { return x.key == e.key; });
      if (same != s.end())
        *same = e;
      else
        s.push_back(e);
    }
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

  // The region models of a scene, built as the plugin builds them.
  std::vector<spectral_hybrid::RegionModel> models(const MethodRun& r, int modes,
                                                   HybridRegions* out = nullptr) const {
    std::vector<bool> rigid(static_cast<std::size_t>(r.scene.num_domains()), false);
    for (Index d : spectral_hybrid::read_spectral_hybrid_settings(r.config).rigid_domains)
      rigid[static_cast<std::size_t>(d)] = true;
    const HybridRegions regions =
        hybrid_regions(r.scene.mesh, r.scene.decomposition.partition, rigid);
    if (out) *out = regions;
    std::unique_ptr<EigenSolver> eigen = r.solvers.eigen();
    return spectral_hybrid::make_region_models(r.scene.mesh, regions, r.scene.fixed_vertices, modes,
                                               *eigen, "", {});
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  static inline std::unique_ptr<testing::SuiteDir> dir_;
  static inline std::vector<Index> free_end_, tip_;
};

// World positions of one region's layout for coordinates q (the framework's kernel).
Points region_positions(const spectral_hybrid::RegionModel& m, const Eigen::VectorXd& q,
                        bool warped = true) {
  ReducedGeometry g;
  g.rest_positions = m.sub.mesh.vertices;
  DomainLayout d;
  for (Index a = 0; a < m.num_vertices(); ++a) d.global_vertex.push_back(a);
  d.rest = m.sub.mesh.vertices;
  d.U = m.Phi;
  if (warped) d.Psi = m.Psi;
  g.domains.push_back(d);
  g.finalize();
  DomainPose pose;
  pose.q = q;
  pose.qdot = Eigen::VectorXd::Zero(q.size());
  Points x;
  reduced_world_state(g, std::vector<DomainPose>{pose}, &x, nullptr);
  return x;
}

// Largest |‖x_a − x_b‖ − ‖X_a − X_b‖| / ‖X_a − X_b‖ over all vertex pairs.
double largest_distance_change(const Points& X, const Points& x) {
  double worst = 0;
  for (Index a = 0; a < X.rows(); ++a)
    for (Index b = a + 1; b < X.rows(); ++b) {
      const double rest = (X.row(a) - X.row(b)).norm();
      worst = std::max(worst, std::abs((x.row(a) - x.row(b)).norm() - rest) / rest);
    }
  return worst;
}

TEST_F(SpectralHybridTest, RigidModesMoveExactlyRigidlyAtAnyAngle) {
  // The free cube: region 0 deformable (its first 6 modes are rigid-body modes), region 1 rigid.
  auto r = run("spectral-hybrid", "cube");
  const auto m = models(*r, 12);
  ASSERT_EQ(m.size(), 2u);
  ASSERT_TRUE(m[1].rigid);
  ASSERT_EQ(m[1].r(), 6);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (const auto& region : m)
    for (double scale : {0.05, 1.0, 3.0}) {  // rotation angles up to ~3 rad (q scaled by √m)
      Eigen::VectorXd q = Eigen::VectorXd::Zero(region.r());
      const double mass = region.vertex_mass.sum();
      for (int k = 0; k < 6; ++k) q[k] = uniform(random) * scale * std::sqrt(mass) * 0.2;
      const Points x = region_positions(region, q);
      const Vec3 w = region.Psi.topRows(3) * q;
      SCOPED_TRACE(fmt::format("{}, rotation {:.2f} rad", region.name(), w.norm()));
      EXPECT_LT(largest_distance_change(region.sub.mesh.vertices, x), 1e-12);
      if (scale > 1) {
        EXPECT_GT(w.norm(), 0.5);  // a large rotation was tested
        // without warping the same coordinates stretch the region
        EXPECT_GT(
            largest_distance_change(region.sub.mesh.vertices, region_positions(region, q, false)),
            0.05);
      }
    }
}

TEST_F(SpectralHybridTest, SmallCoordinatesGiveTheLinearDisplacement) {
  auto r = run("spectral-hybrid", "bar");
  const auto m = models(*r, 30);
  Eigen::VectorXd q0 = Eigen::VectorXd::LinSpaced(m[0].r(), 1, -1);
  double previous = 0;
  for (double eps : {1e-2, 1e-3, 1e-4}) {
    const Eigen::VectorXd q = eps * q0;
    const Points x = region_positions(m[0], q);
    const Eigen::VectorXd u = m[0].Phi * q, w = m[0].Psi * q;
    double error = 0;
    for (Index a = 0; a < x.rows(); ++a)
      error = std::max(
          error,
          (x.row(a) - m[0].sub.mesh.vertices.row(a) - u.segment<3>(3 * a).transpose()).norm());
    const double relative = error / u.cwiseAbs().maxCoeff();
    // u = R̃(w) Φq and ‖R̃(w) − I‖ ≤ ½|w|: the difference is first order in the rotation
    EXPECT_LT(relative, w.cwiseAbs().maxCoeff()) << eps;
    if (previous > 0) {
      EXPECT_NEAR(relative / previous, 0.1, 0.01);  // first order in q
    }
    previous = relative;
  }
}

TEST_F(SpectralHybridTest, NewmarkStepEqualsTheDenseSaddlePointSolve) {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> uniform(-1, 1);
  const Index n = 14, m = 5;
  Eigen::VectorXd lambda(n);
  for (Index i = 0; i < n; ++i) lambda[i] = i < 3 ? 0.0 : 10.0 * i * i;
  Eigen::MatrixXd J(m, n);
  for (Index i = 0; i < m; ++i)
    for (Index j = 0; j < n; ++j) J(i, j) = uniform(random);
  auto solvers = run("spectral-hybrid", "bar");
  ConstrainedNewmark newmark(lambda, 0.5, 0.003, solvers->solvers.linear());
  const double h = 0.02;
  newmark.factor(J, h);
  NewmarkState s{Eigen::VectorXd::Random(n), Eigen::VectorXd::Random(n),
                 Eigen::VectorXd::Random(n)};
  const Eigen::VectorXd f = Eigen::VectorXd::Random(n), d = Eigen::VectorXd::Random(m);
  Eigen::VectorXd qp, vp;
  newmark.predict(s, qp, vp);
  const NewmarkState before = s;
  newmark.solve(f, qp, vp, d, s);
  // [A Jᵀ; J 0] [q̈; μ] = [f − Ĉ q̃̇ − Λ q̃; d], A = I + γhĈ + βh²Λ, Ĉ = ξI + ζΛ
  const Eigen::VectorXd c = (0.5 + 0.003 * lambda.array()).matrix();
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
  K.topLeftCorner(n, n) =
      (1 + 0.5 * h * c.array() + 0.25 * h * h * lambda.array()).matrix().asDiagonal();
  K.topRightCorner(n, m) = J.transpose();
  K.bottomLeftCorner(m, n) = J;
  Eigen::VectorXd rhs(n + m);
  const Eigen::VectorXd q_pred = before.q + h * before.qdot + 0.25 * h * h * before.qddot;
  const Eigen::VectorXd v_pred = before.qdot + 0.5 * h * before.qddot;
  rhs << f - c.cwiseProduct(v_pred) - lambda.cwiseProduct(q_pred), d;
  const Eigen::VectorXd x = K.fullPivLu().solve(rhs);
  EXPECT_LT((s.qddot - x.head(n)).norm(), 1e-10 * x.head(n).norm());
  EXPECT_LT((J * s.qddot - d).norm(), 1e-10 * d.norm());
  EXPECT_LT((s.q - (q_pred + 0.25 * h * h * s.qddot)).norm(), 1e-14 * s.q.norm());
}

// Average acceleration conserves ½q̇ᵀq̇ + ½qᵀΛq of an undamped, unforced system; constraints with
// J q = 0 do no work, so it holds with them too.
TEST_F(SpectralHybridTest, UndampedConstrainedNewmarkConservesEnergy) {
  const Index n = 10;
  Eigen::VectorXd lambda = Eigen::VectorXd::LinSpaced(n, 1, 400);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(2, n);
  J(0, 0) = 1;
  J(0, 5) = -1;
  J(1, 2) = 1;
  J(1, 9) = -2;
  auto solvers = run("spectral-hybrid", "bar");
  ConstrainedNewmark newmark(lambda, 0, 0, solvers->solvers.linear());
  newmark.factor(J, 0.01);
  NewmarkState s{Eigen::VectorXd::Zero(n), Eigen::VectorXd::Ones(n), Eigen::VectorXd::Zero(n)};
  s.qdot[5] = 1;  // J q̇ = 0
  s.qdot[9] = 0.5;
  const auto energy = [&] {
    return 0.5 * s.qdot.squaredNorm() + 0.5 * s.q.dot(lambda.cwiseProduct(s.q));
  };
  const double e0 = energy();
  Eigen::VectorXd qp, vp;
  for (int i = 0; i < 500; ++i) {
    newmark.predict(s, qp, vp);
    const Eigen::VectorXd d = -J * qp / (0.25 * 0.01 * 0.01);  // J q = 0 at the step's end
    newmark.solve(Eigen::VectorXd::Zero(n), qp, vp, d, s);
    ASSERT_LT((J * s.q).norm(), 1e-12);
  }
  EXPECT_NEAR(energy(), e0, 1e-10 * e0);
}

// Eq. 11 at the chosen nodes: the deformable and the rigid copy have the same linear displacement
// and rotation vector, so the same warped position; elsewhere on the boundary they may part a
// little (the paper's "boundary deviation", Fig. 3).
TEST_F(SpectralHybridTest, ConstrainedNodesHoldTheCopiesTogether) {
  auto r = run("spectral-hybrid", "bar");
  r->run(60, 0.01, gravity());
  HybridRegions regions;
  const auto m = models(*r, 30, &regions);
  const Eigen::VectorXd u = r->displacement();
  ASSERT_GT(u.cwiseAbs().maxCoeff(), 0.02);  // it sags by centimetres
  const auto constraints = spectral_hybrid::hybrid_constraints(
      r->scene.mesh, regions, m, spectral_hybrid::read_spectral_hybrid_settings(r->config));
  EXPECT_EQ(constraints.constrained_nodes.size(), 4u);  // 2 on each of the 2 boundaries
  EXPECT_EQ(constraints.rows.size(), 24u);
  EXPECT_EQ(constraints.dropped, 0);
  // The gap over all boundary vertices: small against the bar (0.92 m) and its sag.
  const double gap = r->method->interface_gap();
  EXPECT_GT(gap, 0);
  EXPECT_LT(gap, 1e-3 * r->scene.size());
  EXPECT_LT(gap, 0.05 * u.cwiseAbs().maxCoeff());
}

TEST_F(SpectralHybridTest, AllBoundaryNodesOverConstrainAndTheDependentRowsAreDropped) {
  auto r = run("spectral-hybrid", "bar", {{"spectral-hybrid.boundary_nodes", "all", "test"}});
  HybridRegions regions;
  const auto m = models(*r, 30, &regions);
  const auto c = spectral_hybrid::hybrid_constraints(
      r->scene.mesh, regions, m, spectral_hybrid::read_spectral_hybrid_settings(r->config));
  EXPECT_EQ(c.constrained_nodes.size(), 16u);  // 8 + 8: the paper's "all eight boundary nodes"
  EXPECT_GT(c.dropped, 0);
  EXPECT_LE(static_cast<Index>(c.rows.size()), 30 + 30 + 6);
  r->run(50, 0.01, gravity());
  EXPECT_TRUE(r->x().allFinite());
  // every boundary node held, up to the rows dropped as dependent within the tolerance
  EXPECT_LT(r->method->interface_gap(), 1e-6 * r->scene.size());
}

// Against `full` on the same scene (the rigid third 1000× stiffer there): the tracked free-end
// corners over 1.5 s, as a fraction of the reference's own motion.
TEST_F(SpectralHybridTest, FollowsTheFullModelOnTheHybridBar) {
  auto full = run("full", "bar");
  auto hybrid = run("spectral-hybrid", "bar", {{"spectral-hybrid.modes", "50", "test"}});
  double error = 0, motion = 0;
  for (int i = 0; i < 150; ++i) {
    full->run(1, 0.01, gravity());
    hybrid->run(1, 0.01, gravity());
    for (Index v : tip_) {
      error = std::max(error, (full->x().row(v) - hybrid->x().row(v)).norm());
      motion = std::max(motion, (full->x().row(v) - full->scene.mesh.vertices.row(v)).norm());
    }
  }
  std::printf(
      "free-end corners: largest error %.4f m against full's largest motion %.4f m (%.1f %%)\n",
      error, motion, 100 * error / motion);
  EXPECT_GT(motion, 0.05);
  EXPECT_LT(error / motion, 0.1);
}

// A cantilever (all deformable) under a load large enough to turn its end by tens of degrees: modal
// warping keeps the bar's length where linear modes stretch it; report both against the StVK `full`
// model.
TEST_F(SpectralHybridTest, WarpingFollowsALargeDeflectionBetterThanLinearModes) {
  const std::vector<Setting> s{{"spectral-hybrid.rigid_domains", "", "test"},
                               {"spectral-hybrid.modes", "40", "test"}};
  auto full = run("full", "bar", s);
  auto warped = run("spectral-hybrid", "bar", s);
  auto linear =
      run("spectral-hybrid", "bar", {s[0], s[1], {"spectral-hybrid.warping", "false", "test"}});
  ExternalForces load;  // 4 g: the free end sinks by a third of the length
  load.gravity = Vec3(0, -4 * 9.81, 0);
  for (int i = 0; i < 100; ++i) {
    full->run(1, 0.01, load);
    warped->run(1, 0.01, load);
    linear->run(1, 0.01, load);
  }
  const Index tip = tip_[0];
  const Vec3 X = full->scene.mesh.vertices.row(tip).transpose();
  const Vec3 ref = full->x().row(tip).transpose() - X;
  const double e_warped = (warped->x().row(tip) - full->x().row(tip)).norm();
  const double e_linear = (linear->x().row(tip) - full->x().row(tip)).norm();
  std::printf("tip displacement %.3f m (full StVK); error warped %.4f m, linear %.4f m\n",
              ref.norm(), e_warped, e_linear);
  EXPECT_GT(ref.norm(), 0.2);           // a large deflection
  EXPECT_LT(e_warped, 0.8 * e_linear);  // measured: 0.030 m against 0.042 m
  EXPECT_LT(e_warped, 0.15 * ref.norm());
}

// Fig. 2: the free end (a deformable third beyond the rigid middle) twisted half a turn about the
// bar's axis in 1 s by target rows, no gravity; the paper's 100 modes per deformable region.
class TwistTest : public SpectralHybridTest {
 protected:
  std::vector<Setting> twist(const std::string& constraint, const std::string& nodes,
                             int modes = 100) const {
    std::string targets;
    for (Index v : free_end_) targets += fmt::format("{} ", v);
    return {{"spectral-hybrid.target_vertices", targets, "test"},
            {"spectral-hybrid.target_rotation", "3.14159 0 0", "test"},
            {"spectral-hybrid.target_ramp", "1", "test"},
            {"spectral-hybrid.boundary_constraint", constraint, "test"},
            {"spectral-hybrid.boundary_nodes", nodes, "test"},
            {"spectral-hybrid.modes", std::to_string(modes), "test"}};
  }
  struct Outcome {
    double largest_energy = 0, final_kinetic = 0, final_elastic = 0, gap = 0;
    bool diverged = false;  // non-finite, or kinetic + elastic energy above 10⁶ J
  };
  // Runs 2 s: the twist, then 1 s held.
  static Outcome twist_run(MethodRun& r) {
    Outcome o;
    for (int i = 0; i < 200 && !o.diverged; ++i) {
      try {
        r.run(1, 0.01, ExternalForces{});
      } catch (const DivergenceError&) {
        o.diverged = true;
        break;
      }
      const Energies e = r.method->energies(Vec3::Zero());
      o.largest_energy = std::max(o.largest_energy, e.kinetic + e.elastic);
      o.final_kinetic = e.kinetic;
      o.final_elastic = e.elastic;
      o.gap = std::max(o.gap, r.method->interface_gap());
      o.diverged = !std::isfinite(e.kinetic + e.elastic) || e.kinetic + e.elastic > 1e6;
    }
    return o;
  }
};

TEST_F(TwistTest, Equation11WithTwoNodesStaysBoundedAndGlued) {
  auto r = run("spectral-hybrid", "bar", twist("displacement-and-rotation", "2"));
  const Outcome o = twist_run(*r);
  ASSERT_FALSE(o.diverged);
  // the free end turned half a turn: its corners swapped sides
  const Index corner = tip_[0];
  const Vec3 X = r->scene.mesh.vertices.row(corner).transpose();
  EXPECT_NEAR(r->x()(corner, 1), -X.y(), 0.01);
  EXPECT_NEAR(r->x()(corner, 2), -X.z(), 0.01);
  EXPECT_LT(o.final_kinetic, 1e-3 * o.final_elastic);  // settled, not oscillating
  EXPECT_LT(o.gap, 0.02 * r->scene.size());
  std::printf("Eq. 11, 2 nodes: largest energy %.4g J, largest gap %.3g mm\n", o.largest_energy,
              1e3 * o.gap);
}

// Fig. 2(b–d) as far as this implementation reproduces them: constraining all eight nodes of each
// boundary stiffens the twisted bar (c); Eq. 10 on all nodes blows up, and with the paper's
// "2 nodes" it blows up at 30 modes but not at 100 (b: reported, not the paper's claim in full).
TEST_F(TwistTest, OverConstrainingStiffensAndEquation10IsUnstable) {
  auto eq11 = run("spectral-hybrid", "bar", twist("displacement-and-rotation", "2"));
  auto all = run("spectral-hybrid", "bar", twist("displacement-and-rotation", "all"));
  auto eq10_all = run("spectral-hybrid", "bar", twist("warped-position", "all"));
  auto eq10_few = run("spectral-hybrid", "bar", twist("warped-position", "2", 30));
  auto eq11_few = run("spectral-hybrid", "bar", twist("displacement-and-rotation", "2", 30));
  const Outcome a = twist_run(*eq11), b = twist_run(*all), c = twist_run(*eq10_all),
                d = twist_run(*eq10_few), e = twist_run(*eq11_few);
  std::printf(
      "final elastic energy: Eq. 11 2 nodes %.4g J, all nodes %.4g J; Eq. 10 all nodes "
      "%s (final kinetic %.4g J against %.3g J with Eq. 11), Eq. 10 2 nodes 30 modes %s, "
      "Eq. 11 2 nodes 30 modes %.4g J\n",
      a.final_elastic, b.final_elastic, c.diverged ? "diverged" : "bounded", c.final_kinetic,
      a.final_kinetic, d.diverged ? "diverged" : "bounded", e.final_elastic);
  EXPECT_FALSE(b.diverged);
  EXPECT_GT(b.final_elastic, 1.1 * a.final_elastic);                   // over-constrained: stiffer
  EXPECT_TRUE(c.diverged || c.final_kinetic > 0.1 * a.final_elastic);  // still shaking
  EXPECT_TRUE(d.diverged);
  EXPECT_FALSE(e.diverged);
}

TEST_F(SpectralHybridTest, DampedStabilisationKeepsTheCopiesClose) {
  auto r = run("spectral-hybrid", "bar",
               {{"spectral-hybrid.stabilisation", "damped", "test"},
                {"spectral-hybrid.p1", "40", "test"},
                {"spectral-hybrid.p2", "40", "test"}});
  r->run(100, 0.01, gravity());
  EXPECT_TRUE(r->x().allFinite());
  EXPECT_LT(r->method->interface_gap(), 2e-3 * r->scene.size());
}

TEST_F(SpectralHybridTest, TheSameConfigGivesTheSameNumbers) {
  auto a = run("spectral-hybrid", "bar");
  auto b = run("spectral-hybrid", "bar");
  a->run(30, 0.01, gravity());
  b->run(30, 0.01, gravity());
  EXPECT_TRUE(a->x() == b->x());
  EXPECT_TRUE(a->v() == b->v());
}

TEST_F(SpectralHybridTest, BasesAreCachedAndReused) {
  const fs::path cache = dir_->path() / "cache";
  const std::vector<Setting> s{{"spectral-hybrid.cache", "true", "test"}};
  auto first = run("spectral-hybrid", "bar", s, cache);
  auto second = run("spectral-hybrid", "bar", s, cache);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(cache))
    files += entry.path().extension() == ".sssb" ? 1 : 0;
  EXPECT_EQ(files, 3);  // one per region
  first->run(10, 0.01, gravity());
  second->run(10, 0.01, gravity());
  EXPECT_TRUE(first->x() == second->x());
}

TEST_F(SpectralHybridTest, BadSettingsAreRefusedWithTheReason) {
  EXPECT_NE(testing::error_message([&] {
              run("spectral-hybrid", "bar", {{"spectral-hybrid.boundary_nodes", "0", "test"}});
            }).find("boundary_nodes = '0': expected a count of nodes ≥ 1 per boundary, or all"),
            std::string::npos);
  const Config c = config("bar", {{"spectral-hybrid.rigid_domains", "7", "test"}});
  const Scene scene = load_scene(c);
  auto method =
      host_.create<CouplingMethod>("spectral-hybrid", PluginKind::coupling, PluginContext{c});
  const CanRun can = method->can_run(scene);
  EXPECT_FALSE(can.ok);
  EXPECT_NE(can.reason.find("rigid_domains names domain 7, but the scene has 3"), std::string::npos)
      << can.reason;
}

}  // namespace
}  // namespace substruct
