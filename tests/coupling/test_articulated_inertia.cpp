// SPDX-License-Identifier: GPL-3.0-or-later
// The articulated coupling of `inertia` (coupling/inertia/articulated_body.hpp): a domain's
// spatial inertia and modal coupling against the kinetic energy of its vertices, and undamped
// runs that keep their energy where the paper's lumped masses gain it: a free object, the
// free-flying letters of Barbič–Zhao 2011 (Table 1) and the flower.
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>

#include "articulated_body.hpp"
#include "discrete_gradient.hpp"
#include "domain_energy.hpp"
#include "substruct/config/config.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/figure_generator.hpp"
#include "substruct/scene/scene.hpp"
#include "support/method_run.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;
using inertia::ArticulatedNode;

const fs::path kSource = SUBSTRUCT_SOURCE_DIR;

// ½ zᵀ [[I, B], [Bᵀ, UᵀMU]] z with z = (ν, ω, q̇) is the kinetic energy ½ VᵀMV of the vertices
// moving at V = ν + ω × y + U q̇, y = X̄ + U q: I and B at a deformed state, checked against the
// system-force integrals' kinetic energy (domain_energy.hpp, itself checked against ½ VᵀMV).
TEST(ArticulatedBody, SpatialInertiaAndModalCouplingGiveTheKineticEnergy) {
  const TetMesh mesh = make_box_mesh(Vec3(-0.1, 0, 0.05), Vec3(0.3, 0.1, 0.15), 3, 2, 2);
  const SparseMatrix M = consistent_mass(mesh);
  const Index n = mesh.num_vertices();
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  const int r = 4;
  Eigen::MatrixXd U(3 * n, r);
  for (Index k = 0; k < U.size(); ++k) U.data()[k] = 0.01 * uniform(random);
  // M-orthonormal (UᵀMU = I), as the reduced bases are and kinetic_energy assumes.
  const Eigen::MatrixXd UtMU = U.transpose() * (M * U);
  U = U * Eigen::LLT<Eigen::MatrixXd>(UtMU).matrixU().solve(Eigen::MatrixXd::Identity(r, r));
  Eigen::VectorXd q(r), qdot(r);
  for (int k = 0; k < r; ++k) {
    q[k] = uniform(random);
    qdot[k] = uniform(random);
  }
  const Vec3 nu(0.3, -0.2, 0.5), omega(1.5, -0.7, 2.0);
  ArticulatedNode node;
  inertia::domain_rigid_terms(M, U, mesh.vertices, q, qdot, Vec3::Zero(), Vec3::Zero(), {}, node);
  Eigen::VectorXd z(6 + r);
  z << nu, omega, qdot;
  Eigen::MatrixXd full(6 + r, 6 + r);
  full << node.I, node.B, node.B.transpose(), U.transpose() * (M * U);
  const double energy = 0.5 * z.dot(full * z);

  const SystemForceIntegrals integrals(mesh.vertices, M, U);
  Eigen::VectorXd work[4];
  const double expected = inertia::kinetic_energy(integrals, nu, omega, q, qdot, work);
  EXPECT_NEAR(energy, expected, 1e-10 * expected);
  // The mass and first moment in I's translational block.
  const double mass = lumped_vertex_mass(mesh).sum();
  EXPECT_NEAR(node.I(0, 0), mass, 1e-12 * mass);
  EXPECT_LT((node.I - node.I.transpose()).norm(), 1e-14 * node.I.norm());
}

// The known forces: gravity's wrench is (m g, S × g) about the frame's origin and its modal part
// UᵀM E g.
TEST(ArticulatedBody, GravityWrenchIsWeightAndItsMoment) {
  const TetMesh mesh = make_box_mesh(Vec3(0.2, 0, 0), Vec3(0.4, 0.1, 0.1), 2, 1, 1);
  const SparseMatrix M = consistent_mass(mesh);
  const Eigen::VectorXd m = lumped_vertex_mass(mesh);
  const Vec3 S = mesh.vertices.transpose() * m;
  const Vec3 g(0, -9.81, 0);
  ArticulatedNode node;
  inertia::domain_rigid_terms(M, Eigen::MatrixXd(3 * mesh.num_vertices(), 0), mesh.vertices,
                              Eigen::VectorXd(), Eigen::VectorXd(), Vec3::Zero(), g, {}, node);
  EXPECT_LT((node.P.head<3>() - m.sum() * g).norm(), 1e-12);
  EXPECT_LT((node.P.tail<3>() - S.cross(g)).norm(), 1e-12);
}

// The discrete gradient of a quartic energy W = ¼(qᵀAq)² + ½qᵀKq (StVK's reduced energy is a
// quartic polynomial in q): f̄·Δq is W(q₊) − W(q) to round-off for a large step, where the
// midpoint force's work is not, and f̄ − f(q_mid) shrinks as |Δq|².
TEST(ArticulatedBody, DiscreteGradientDoesTheElasticEnergysWork) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> uniform(-1, 1);
  const int r = 5;
  Eigen::MatrixXd A(r, r), K(r, r), M(r, r);
  for (Index k = 0; k < A.size(); ++k) {
    A.data()[k] = uniform(random);
    K.data()[k] = uniform(random);
    M.data()[k] = 0.2 * uniform(random);
  }
  A = A * A.transpose();
  K = K * K.transpose();
  M = M * M.transpose() + Eigen::MatrixXd::Identity(r, r);
  const auto W = [&](const Eigen::VectorXd& q) {
    const double a = q.dot(A * q);
    return 0.25 * a * a + 0.5 * q.dot(K * q);
  };
  const auto f = [&](const Eigen::VectorXd& q) -> Eigen::VectorXd {
    return q.dot(A * q) * (A * q) + K * q;
  };
  Eigen::VectorXd q(r), dq(r);
  for (int k = 0; k < r; ++k) {
    q[k] = uniform(random);
    dq[k] = uniform(random);
  }
  const auto correction = [&](const Eigen::VectorXd& step) {
    return inertia::discrete_gradient_correction(W(q), W(q + step), f(q + 0.5 * step), step, M,
                                                 q.dot(M * q));
  };
  const double work = W(q + dq) - W(q);
  const Eigen::VectorXd c = correction(dq);
  EXPECT_NEAR((f(q + 0.5 * dq) + c).dot(dq), work, 1e-12 * std::abs(work));
  EXPECT_GT(std::abs(f(q + 0.5 * dq).dot(dq) - work), 1e-3 * std::abs(work));
  const double ratio = correction(0.02 * dq).norm() / correction(0.01 * dq).norm();
  EXPECT_NEAR(ratio, 4, 0.2);
  // A step below round-off's reach: no correction.
  EXPECT_EQ(correction(1e-10 * dq).norm(), 0);
}

class ArticulatedInertiaTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<testing::SuiteDir>("ArticulatedInertia");
    write_veg(*dir_ / "box.veg", make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.1, 0.1), 4, 1, 1));
    FigureParameters letters;
    letters.shape = FigureShape::chain;
    letters.material.youngs_modulus = figure_youngs_modulus(FigureShape::chain);
    write_veg(*dir_ / "letters.veg", generate_figure(letters));
  }
  static void TearDownTestSuite() { dir_.reset(); }

  std::unique_ptr<testing::MethodRun> run(std::vector<Setting> settings) {
    settings.push_back({"reduction.cache", "false", "test"});
    return std::make_unique<testing::MethodRun>(
        host_, Config::from_settings(settings, dir_->path(), host_), "inertia");
  }

  // Undamped, no loads, from rest shape with velocity v(x): the total energy after each step
  // relative to the first step's; the largest |E/E₁ − 1| over the run.
  static double energy_drift(testing::MethodRun& r, const Eigen::VectorXd& v0, int steps,
                             double dt) {
    r.method->reset({}, v0);
    StepStats stats;
    const ExternalForces none;
    double first = 0, drift = 0;
    for (int k = 0; k < steps; ++k) {
      r.method->step(dt, none, stats);
      const double e = r.method->energies(Vec3::Zero()).total();
      if (k == 0) first = e;
      drift = std::max(drift, std::abs(e / first - 1));
    }
    return drift;
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  static inline std::unique_ptr<testing::SuiteDir> dir_;
};

// A bending velocity along x: v = s (x − x̄)² ŷ over the mesh, plus a spin about x.
Eigen::VectorXd bending_velocity(const Points& X, double s) {
  const double mid = X.col(0).mean();
  const double zc = X.col(2).mean(), yc = X.col(1).mean();
  Eigen::VectorXd v(3 * X.rows());
  for (Index k = 0; k < X.rows(); ++k) {
    const double dx = X(k, 0) - mid;
    v.segment<3>(3 * k) =
        Vec3(0, s * dx * dx, 0) + 0.5 * s * Vec3(0, -(X(k, 2) - zc), X(k, 1) - yc);
  }
  return v;
}

// A free object in two domains: the root frame and the modes together keep the energy and the
// momentum of an undamped run.
TEST_F(ArticulatedInertiaTest, FreeObjectKeepsEnergyAndMomentum) {
  auto r = run({{"scene.mesh", (*dir_ / "box.veg").string(), "test"},
                {"scene.domains", "auto:2", "test"},
                {"material.youngs_modulus", "1e6", "test"},
                {"reduction.modes", "8", "test"},
                {"reduction.linear_modes", "4", "test"},
                {"inertia.lumping", "articulated", "test"},
                {"inertia.newmark_gamma", "0.5", "test"}});
  const Eigen::VectorXd v0 = bending_velocity(r->scene.mesh.vertices, 2);
  const double drift = energy_drift(*r, v0, 400, 0.005);
  std::printf("[ articulated ] free box: energy within %.3g %% over 2 s\n", 100 * drift);
  EXPECT_LT(drift, 0.02);
  // Momentum of the vertices' velocities (consistent mass) against the initial field's.
  const SparseMatrix M = consistent_mass(r->scene.mesh);
  const auto momentum = [&](const Eigen::VectorXd& v) {
    const Eigen::VectorXd Mv = M * v;
    Vec3 P = Vec3::Zero();
    for (Index k = 0; k < r->scene.mesh.num_vertices(); ++k) P += Mv.segment<3>(3 * k);
    return P;
  };
  const Vec3 P0 = momentum(flat(r->v()));  // after the 400 steps
  r->method->reset({}, v0);
  const Vec3 P_start = momentum(flat(r->v()));
  // (The vertices' velocities average the domains' copies of an interface vertex.)
  std::printf("[ articulated ] free box: momentum %.4g → %.4g kg m/s\n", P_start.norm(), P0.norm());
  EXPECT_LT((P0 - P_start).norm(), 1e-2 * P_start.norm());
}

// The letters (Barbič–Zhao 2011, Table 1; links rigid), free-flying and undamped: 5 s within
// 0.03 % with the articulated coupling (0.09 % with the midpoint rule's elastic force instead of
// the discrete gradient), where the lumped L2 gains many times its energy.
TEST_F(ArticulatedInertiaTest, LettersKeepTheirEnergy) {
  const std::vector<Setting> letters = {{"scene.mesh", (*dir_ / "letters.veg").string(), "test"},
                                        {"scene.domains", "sets", "test"},
                                        {"inertia.rigid_domains", "8-14", "test"},
                                        {"inertia.newmark_gamma", "0.5", "test"}};
  std::vector<Setting> s = letters;
  s.push_back({"inertia.lumping", "articulated", "test"});
  auto articulated = run(s);
  const Eigen::VectorXd v0 = bending_velocity(articulated->scene.mesh.vertices, 0.3);
  const double drift = energy_drift(*articulated, v0, 500, 0.01);
  auto lumped = run(letters);
  const double lumped_drift = energy_drift(*lumped, v0, 100, 0.01);
  std::printf("[ articulated ] letters: energy within %.3g %% over 5 s (L2: %.3g %% in 1 s)\n",
              100 * drift, 100 * lumped_drift);
  EXPECT_LT(drift, 3e-4);
  EXPECT_GT(lumped_drift, 10 * drift);
}

// The flower released with a bending velocity, undamped at dt = 0.01 s: within 0.5 % over 3 s.
TEST_F(ArticulatedInertiaTest, FlowerKeepsItsEnergy) {
  auto r = run({{"scene.mesh", (kSource / "share/meshes/flower.veg").string(), "test"},
                {"scene.fixed", (kSource / "share/meshes/flower.bou").string(), "test"},
                {"scene.domains", "sets", "test"},
                {"material.rayleigh_mass", "0", "test"},
                {"material.rayleigh_stiffness", "0", "test"},
                {"inertia.lumping", "articulated", "test"},
                {"inertia.newmark_gamma", "0.5", "test"}});
  const Points& X = r->scene.mesh.vertices;
  Eigen::VectorXd v0 = Eigen::VectorXd::Zero(3 * X.rows());
  const double top = X.col(1).maxCoeff();
  for (Index k = 0; k < X.rows(); ++k) v0[3 * k] = 0.03 * std::pow(X(k, 1) / top, 2);
  const double drift = energy_drift(*r, v0, 300, 0.01);
  std::printf("[ articulated ] flower: energy within %.3g %% over 3 s\n", 100 * drift);
  EXPECT_LT(drift, 0.005);
}

}  // namespace
}  // namespace substruct
