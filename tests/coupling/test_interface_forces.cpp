// SPDX-License-Identifier: GPL-3.0-or-later
// The interface forces of inertia's child subtrees (Barbič–Zhao 2011, Eq. 15–16, L1 and L2):
// L2's Jacobian against its definition and against a finite difference of the centre of mass,
// and the batched sum over a domain's children against the sum of the single-child terms.
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "child_frame_rows.hpp"
#include "frame_kinematics.hpp"
#include "interface_forces.hpp"
#include "substruct/core/error.hpp"
#include "substruct/kinematics/polar_decomposition_derivative.hpp"
#include "substruct/kinematics/skew.hpp"
#include "support/random_matrices.hpp"

namespace substruct::inertia {
namespace {

using testing::random_matrix;
using testing::random_rotation;

InterfaceFrameModel random_model(std::mt19937& rng, int r) {
  std::normal_distribution<double> normal;
  InterfaceFrameModel m;
  m.x_hat = Vec3(normal(rng), normal(rng), normal(rng));
  m.R_hat = random_rotation(rng);
  m.a_hat.resize(3, r);
  m.A_columns.resize(9, r);
  for (auto& x : m.a_hat.reshaped()) x = 0.3 * normal(rng);
  for (auto& x : m.A_columns.reshaped()) x = 0.05 * normal(rng);
  return m;
}

Eigen::VectorXd random_vector(std::mt19937& rng, int n, double scale) {
  std::normal_distribution<double> normal;
  Eigen::VectorXd v(n);
  for (auto& x : v) x = scale * normal(rng);
  return v;
}

Vec3 random_vec3(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  return Vec3(normal(rng), normal(rng), normal(rng));
}

struct Child {
  InterfaceFrameModel model;
  InterfaceKinematics itf;
  Subtree subtree;
};

TEST(InterfaceForces, CentreOfMassJacobianIsEquationSevenAndTheDerivativeOfC) {
  std::mt19937 rng(3);
  const int r = 7;
  for (int trial = 0; trial < 10; ++trial) {
    const InterfaceFrameModel model = random_model(rng, r);
    const Eigen::VectorXd q = random_vector(rng, r, 0.5), qdot = random_vector(rng, r, 1);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(r);
    const InterfaceKinematics itf = interface_kinematics(model, q, qdot, zero, true);
    const PolarDecomposition polar = polar_decomposition(model.evaluate(q, qdot, zero).A);
    Subtree sub;
    sub.mass = 2.5;
    sub.d = random_vec3(rng);
    Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, r);
    const ChildFrameRows rows({model});
    interface_jacobian(Lumping::center_of_mass, rows.columns(0), itf, FrameMotion{}, sub, qdot, 1.0,
                       J);
    // J_c = â − (R d)~ J_ω, J_ω column ℓ = Eq. 7 for Ȧ = A^ℓ.
    const Vec3 Rd = itf.R * sub.d;
    for (int l = 0; l < r; ++l) {
      const Vec3 expected =
          model.a_hat.col(l) - hat(Rd) * polar_angular_velocity(polar, model.A(l));
      EXPECT_LE((J.col(l) - expected).norm(), 1e-12 * (1 + expected.norm())) << trial << " " << l;
    }
    // ċ = J_c q̇ for c(q) = x(q) + R(q) d: a central difference along q̇.
    const double h = 1e-6;
    const auto c = [&](double t) {
      const InterfaceKinematics k = interface_kinematics(model, q + t * qdot, zero, zero, false);
      return Vec3(k.x + k.R * sub.d);
    };
    const Vec3 fd = (c(h) - c(-h)) / (2 * h);
    EXPECT_LE((J * qdot - fd).norm(), 1e-6 * (1 + fd.norm())) << trial;
  }
}

// L2's Jacobian needs Ω: interface kinematics made without it are refused with a message (L1's
// J = â does not need it).
TEST(InterfaceForces, CentreOfMassJacobianRefusesKinematicsWithoutTheMap) {
  std::mt19937 rng(4);
  const int r = 3;
  const InterfaceFrameModel model = random_model(rng, r);
  const Eigen::VectorXd q = random_vector(rng, r, 0.5), zero = Eigen::VectorXd::Zero(r);
  const InterfaceKinematics itf = interface_kinematics(model, q, zero, zero, false);
  const ChildFrameRows rows({model});
  Subtree sub;
  sub.mass = 1;
  Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, r);
  try {
    interface_jacobian(Lumping::center_of_mass, rows.columns(0), itf, FrameMotion{}, sub, zero, 1.0,
                       J);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("angular-velocity map"), std::string::npos) << e.what();
  }
  interface_jacobian(Lumping::interface, rows.columns(0), itf, FrameMotion{}, sub, zero, 1.0, J);
  EXPECT_LE((J - model.a_hat).norm(), 1e-14 * model.a_hat.norm());
}

// The children's kinematics from the side-by-side columns equal the single-child evaluation;
// a detached child's entry is left as it was.
TEST(InterfaceForces, ChildFrameRowsMatchOneChildAtATime) {
  std::mt19937 rng(9);
  const int r = 11, K = 5;
  std::vector<InterfaceFrameModel> frames;
  for (int k = 0; k < K; ++k) frames.push_back(random_model(rng, r));
  const ChildFrameRows rows(frames);
  const Eigen::VectorXd q = random_vector(rng, r, 0.4), qdot = random_vector(rng, r, 1),
                        qddot = random_vector(rng, r, 2);
  const std::vector<char> attached{1, 1, 0, 1, 1};
  std::vector<InterfaceKinematics> out(K);
  out[2].x = Vec3(7, 7, 7);
  rows.kinematics(q, qdot, qddot, true, attached, out);
  for (int k = 0; k < K; ++k) {
    const auto& got = out[static_cast<std::size_t>(k)];
    if (k == 2) {
      EXPECT_EQ(got.x, Vec3(7, 7, 7));
      continue;
    }
    const InterfaceKinematics want =
        interface_kinematics(frames[static_cast<std::size_t>(k)], q, qdot, qddot, true);
    const auto near = [](const auto& a, const auto& b) {
      return (a - b).norm() <= 1e-12 * (1 + b.norm());
    };
    EXPECT_TRUE(near(got.x, want.x) && near(got.v, want.v) && near(got.a, want.a)) << k;
    EXPECT_TRUE(near(got.R, want.R) && near(got.omega, want.omega)) << k;
    EXPECT_TRUE(near(got.alpha, want.alpha) && near(got.alpha_free, want.alpha_free)) << k;
  }
  // A rigid parent (r = 0): the interfaces at rest.
  std::vector<InterfaceFrameModel> rigid{random_model(rng, 0)};
  std::vector<InterfaceKinematics> rest(1);
  const Eigen::VectorXd none(0);
  ChildFrameRows(rigid).kinematics(none, none, none, true, {1}, rest);
  EXPECT_EQ(rest[0].x, rigid[0].x_hat);
}

// A domain's turned copy X̄ = T X̄′ + δ, U = (I ⊗ T) U′ has its children's frame models turned
// (x̂ = T x̂′ + δ, R̂ = T R̂′ Tᵀ, â = T â′, A^ℓ = T A′^ℓ Tᵀ): the rows shared with a turn give
// the kinematics and Jacobians of the turned models' own rows, and turns compose.
TEST(InterfaceForces, TurnedRowsAreTheTurnedCopysOwn) {
  std::mt19937 rng(13);
  const int r = 6, K = 4;
  std::vector<InterfaceFrameModel> frames;
  for (int k = 0; k < K; ++k) frames.push_back(random_model(rng, r));
  const auto turn = [](std::vector<InterfaceFrameModel> fs, const Mat3& T, const Vec3& delta) {
    for (InterfaceFrameModel& f : fs) {
      f.x_hat = T * f.x_hat + delta;
      f.R_hat = T * f.R_hat * T.transpose();
      f.a_hat = T * f.a_hat;
      for (int l = 0; l < f.r(); ++l) {
        const Mat3 A = T * f.A(l) * T.transpose();
        f.A_columns.col(l) = A.reshaped();
      }
    }
    return fs;
  };
  const Mat3 T1 = random_rotation(rng), T2 = random_rotation(rng);
  const Vec3 d1 = random_vec3(rng), d2 = random_vec3(rng);
  const ChildFrameRows rows(frames);
  const ChildFrameRows shared = rows.turned(T1, d1);
  const std::vector<InterfaceFrameModel> turned = turn(frames, T1, d1);
  const ChildFrameRows own(turned);
  EXPECT_TRUE(shared.shares_columns());
  EXPECT_TRUE(shared.equals(turned));
  EXPECT_FALSE(shared.equals(frames));
  EXPECT_TRUE(rows.equals(frames));
  EXPECT_TRUE(shared.turned(T2, d2).equals(turn(turned, T2, d2)));

  const Eigen::VectorXd q = random_vector(rng, r, 0.4), qdot = random_vector(rng, r, 1),
                        qddot = random_vector(rng, r, 2);
  const std::vector<char> attached(K, 1);
  std::vector<InterfaceKinematics> got(K), want(K);
  shared.kinematics(q, qdot, qddot, true, attached, got);
  own.kinematics(q, qdot, qddot, true, attached, want);
  const FrameMotion parent{random_vec3(rng), random_vec3(rng), random_vec3(rng), random_vec3(rng)};
  const auto near = [](const auto& a, const auto& b) {
    return (a - b).norm() <= 1e-12 * (1 + b.norm());
  };
  for (int k = 0; k < K; ++k) {
    const auto& g = got[static_cast<std::size_t>(k)];
    const auto& w = want[static_cast<std::size_t>(k)];
    EXPECT_TRUE(near(g.x, w.x) && near(g.v, w.v) && near(g.a, w.a)) << k;
    EXPECT_TRUE(near(g.R, w.R) && near(g.omega, w.omega) && near(g.alpha, w.alpha)) << k;
    EXPECT_TRUE(near(g.alpha_free, w.alpha_free) && near(g.omega_map, w.omega_map)) << k;
    Subtree sub;
    sub.mass = 1.5;
    sub.force = random_vec3(rng);
    sub.d = random_vec3(rng);
    for (const Lumping lumping : {Lumping::interface, Lumping::center_of_mass}) {
      Eigen::Matrix<double, 3, Eigen::Dynamic> J_got(3, r), J_want(3, r);
      const Vec3 n_got =
          interface_jacobian(lumping, shared.columns(k), w, parent, sub, qdot, 1.0, J_got);
      const Vec3 n_want =
          interface_jacobian(lumping, own.columns(k), w, parent, sub, qdot, 1.0, J_want);
      EXPECT_TRUE(near(J_got, J_want) && near(n_got, n_want)) << k;
    }
  }
  // A rigid parent's (r = 0) children at rest, turned.
  const std::vector<InterfaceFrameModel> rigid{random_model(rng, 0)};
  std::vector<InterfaceKinematics> rest(1);
  const Eigen::VectorXd none(0);
  ChildFrameRows(rigid).turned(T1, d1).kinematics(none, none, none, true, {1}, rest);
  EXPECT_TRUE(near(rest[0].x, Vec3(T1 * rigid[0].x_hat + d1)));
  EXPECT_TRUE(near(rest[0].R, Mat3(T1 * rigid[0].R_hat * T1.transpose())));
}

TEST(InterfaceForces, BatchEqualsTheSumOverChildren) {
  std::mt19937 rng(5);
  const int r = 9, K = 6;
  const Eigen::VectorXd q = random_vector(rng, r, 0.4), qdot = random_vector(rng, r, 1),
                        qddot = random_vector(rng, r, 2);
  const FrameMotion parent{random_vec3(rng), random_vec3(rng), random_vec3(rng), random_vec3(rng)};
  std::vector<Child> children;
  for (int k = 0; k < K; ++k) {
    Child c;
    c.model = random_model(rng, r);
    c.itf = interface_kinematics(c.model, q, qdot, qddot, true);
    c.subtree.mass = 0.5 + k;
    c.subtree.force = random_vec3(rng);
    c.subtree.d = random_vec3(rng);
    children.push_back(c);
  }
  // One batch for every evaluation, as a domain keeps it from step to step: child 2's rows of
  // an evaluation before it detached must not count.
  std::vector<InterfaceFrameModel> frames;
  for (const Child& c : children) frames.push_back(c.model);
  const ChildFrameRows rows(frames);
  InterfaceForceBatch batch;
  batch.reset(K, r);
  batch.set(2, Lumping::center_of_mass, rows.columns(2), children[2].itf, parent,
            children[2].subtree, qdot);
  for (const Lumping lumping : {Lumping::interface, Lumping::center_of_mass}) {
    // Child 2 is detached: neither sum has it.
    Eigen::MatrixXd M_sum = Eigen::MatrixXd::Identity(r, r), M_batch = M_sum;
    Eigen::VectorXd f_sum = Eigen::VectorXd::Ones(r), f_batch = f_sum;
    batch.reset(K, r);
    for (int k = 0; k < K; ++k) {
      if (k == 2) {
        batch.skip(2);
        continue;
      }
      const Child& c = children[static_cast<std::size_t>(k)];
      add_interface_force(lumping, rows.columns(k), c.itf, parent, c.subtree, qdot, &M_sum, f_sum);
      batch.set(k, lumping, rows.columns(k), c.itf, parent, c.subtree, qdot);
    }
    batch.add_to(&M_batch, f_batch);
    EXPECT_LE((M_batch - M_sum).norm(), 1e-12 * M_sum.norm());
    EXPECT_LE((f_batch - f_sum).norm(), 1e-12 * f_sum.norm());
    // Without M, only f0.
    Eigen::VectorXd f_only = Eigen::VectorXd::Ones(r);
    batch.add_to(nullptr, f_only);
    EXPECT_EQ(f_only, f_batch);
    // The detached child's terms would have changed both sums.
    Eigen::MatrixXd M2 = M_sum;
    Eigen::VectorXd f2 = f_sum;
    add_interface_force(lumping, rows.columns(2), children[2].itf, parent, children[2].subtree,
                        qdot, &M2, f2);
    EXPECT_GT((M2 - M_batch).norm(), 1e-3);
  }
}

}  // namespace
}  // namespace substruct::inertia
