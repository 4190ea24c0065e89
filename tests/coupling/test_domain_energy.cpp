// SPDX-License-Identifier: GPL-3.0-or-later
// The kinetic energy and first moment of an inertia domain from its system-force integrals
// against the sums over its vertices (½VᵀMV, EᵀMx) that they replace, for a domain with integrals
// of its own and for an instance that reads its representative's (turned and moved).
#include <random>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>

#include "domain_energy.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/kinematics/system_forces.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "support/random_matrices.hpp"

namespace substruct::inertia {
namespace {

struct Domain {
  Points X;           // N×3, frame coordinates
  SparseMatrix M;     // 3N×3N
  Eigen::MatrixXd U;  // 3N×r, UᵀMU = I
};

// A box away from its frame's origin, its consistent mass and a random mass-orthonormal basis.
Domain box_domain(int r, std::mt19937& rng) {
  Material material;
  material.density = 900;
  const TetMesh mesh = make_box_mesh(Vec3(0.2, -0.1, 0.3), Vec3(1.2, 0.15, 0.5), 4, 2, 2, material);
  Domain d{mesh.vertices, consistent_mass(mesh), Eigen::MatrixXd(3 * mesh.num_vertices(), r)};
  std::normal_distribution<double> normal;
  for (auto& x : d.U.reshaped()) x = normal(rng);
  const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(d.U.transpose() * (d.M * d.U)).matrixL();
  d.U = L.triangularView<Eigen::Lower>().solve(d.U.transpose()).transpose();
  return d;
}

// The same domain turned by R and moved by δ: X̄ = R X̄' + δ, U = (I ⊗ R) U'.
Domain placed(const Domain& d, const Mat3& R, const Vec3& delta) {
  Domain p = d;
  for (Index v = 0; v < d.X.rows(); ++v) {
    p.X.row(v) = (R * d.X.row(v).transpose() + delta).transpose();
    p.U.middleRows(3 * v, 3) = R * d.U.middleRows(3 * v, 3);
  }
  return p;
}

// x and v = ν + ω × x + U q̇ of every vertex, stacked.
void vertex_fields(const Domain& d, const Vec3& nu, const Vec3& omega, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& qdot, Eigen::VectorXd& x, Eigen::VectorXd& v) {
  const Index n = d.X.rows();
  x = d.U * q;
  v = d.U * qdot;
  for (Index l = 0; l < n; ++l) {
    x.segment<3>(3 * l) += d.X.row(l).transpose();
    v.segment<3>(3 * l) += nu + omega.cross(Vec3(x.segment<3>(3 * l)));
  }
}

Eigen::VectorXd random_vector(std::mt19937& rng, int n, double scale) {
  std::normal_distribution<double> normal;
  Eigen::VectorXd v(n);
  for (auto& x : v) x = scale * normal(rng);
  return v;
}

Vec3 random_vec3(std::mt19937& rng, double scale) {
  return random_vector(rng, 3, scale);
}

TEST(DomainEnergy, KineticEnergyAndFirstMomentEqualTheVertexSums) {
  std::mt19937 rng(11);
  for (int r : {0, 1, 6}) {
    const Domain d = box_domain(r, rng);
    const SystemForceIntegrals integrals(d.X, d.M, d.U);
    Eigen::VectorXd work[4];
    for (int trial = 0; trial < 5; ++trial) {
      const Vec3 nu = random_vec3(rng, 1), omega = random_vec3(rng, 2);
      const Eigen::VectorXd q = random_vector(rng, r, 0.05), qdot = random_vector(rng, r, 0.5);
      Eigen::VectorXd x, v;
      vertex_fields(d, nu, omega, q, qdot, x, v);
      const double T = 0.5 * v.dot(d.M * v);
      EXPECT_NEAR(kinetic_energy(integrals, nu, omega, q, qdot, work), T, 1e-12 * T) << "r " << r;
      // ∫ρx = EᵀM x: the sums of M x's components.
      const Eigen::VectorXd Mx = d.M * x;
      const Vec3 S = Mx.reshaped(3, d.X.rows()).rowwise().sum();
      EXPECT_LT((deformed_first_moment(integrals, q) - S).norm(), 1e-12 * S.norm()) << "r " << r;
    }
  }
}

// An instance reads its representative's integrals in their axes and origin: ν' = Rᵀ(ν + ω × δ),
// ω' = Rᵀω there, and ∫ρx = R S'(q) + m δ here (InertiaDomain::integral_motion and
// first_moment).
TEST(DomainEnergy, AnInstanceReadsItsRepresentativesIntegralsTurnedAndMoved) {
  std::mt19937 rng(5);
  const int r = 5;
  const Domain rep = box_domain(r, rng);
  const SystemForceIntegrals integrals(rep.X, rep.M, rep.U);
  Eigen::VectorXd work[4];
  for (int trial = 0; trial < 5; ++trial) {
    const Mat3 R = testing::random_rotation(rng);
    const Vec3 delta = random_vec3(rng, 0.7);
    const Domain d = placed(rep, R, delta);
    const Vec3 nu = random_vec3(rng, 1), omega = random_vec3(rng, 2);
    const Eigen::VectorXd q = random_vector(rng, r, 0.05), qdot = random_vector(rng, r, 0.5);
    Eigen::VectorXd x, v;
    vertex_fields(d, nu, omega, q, qdot, x, v);
    const double T = 0.5 * v.dot(d.M * v);
    const double ours = kinetic_energy(integrals, R.transpose() * (nu + omega.cross(delta)),
                                       R.transpose() * omega, q, qdot, work);
    EXPECT_NEAR(ours, T, 1e-12 * T);
    const Eigen::VectorXd Mx = d.M * x;
    const Vec3 S = Mx.reshaped(3, d.X.rows()).rowwise().sum();
    const Vec3 moment = R * deformed_first_moment(integrals, q) + integrals.mass() * delta;
    EXPECT_LT((moment - S).norm(), 1e-12 * S.norm());
  }
}

}  // namespace
}  // namespace substruct::inertia
