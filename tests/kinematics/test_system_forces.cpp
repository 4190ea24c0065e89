// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/kinematics/system_forces.hpp"

#include <cmath>
#include <random>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "substruct/core/error.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "support/shared_data.hpp"

namespace substruct {
namespace {

struct Domain {
  std::string name;
  TetMesh mesh;
  Points X;  // rest positions in the domain's frame (shifted off the mesh's origin)
  SparseMatrix M;
};

Domain box_domain() {
  Domain d{"box", make_box_mesh(Vec3(0, 0, 0), Vec3(0.3, 0.1, 0.15), 3, 2, 2), {}, {}};
  d.X = d.mesh.vertices.rowwise() - Vec3(0.1, -0.2, 0.05).transpose();
  d.M = consistent_mass(d.mesh);
  return d;
}

Domain beam_domain() {
  Domain d{"beam3", read_tet_mesh(testing::share_dir() / "meshes/beam3_tet.veg"), {}, {}};
  d.X = d.mesh.vertices.rowwise() - Vec3(-0.5, 0.3, 0.2).transpose();
  d.M = consistent_mass(d.mesh);
  return d;
}

// A random basis with Uᵀ M U = I.
Eigen::MatrixXd orthonormal_basis(std::mt19937& rng, const SparseMatrix& M, int r) {
  std::normal_distribution<double> n;
  Eigen::MatrixXd U(M.rows(), r);
  for (auto& x : U.reshaped()) x = n(rng);
  const Eigen::MatrixXd G = U.transpose() * M * U;
  const Eigen::LLT<Eigen::MatrixXd> llt(G);
  // U L⁻ᵀ: (U L⁻ᵀ)ᵀ M (U L⁻ᵀ) = L⁻¹ G L⁻ᵀ = I
  return llt.matrixL().solve(U.transpose()).transpose();
}

Vec3 random_vector(std::mt19937& rng, double scale) {
  std::normal_distribution<double> n;
  return scale * Vec3(n(rng), n(rng), n(rng));
}

// f_sys = −Uᵀ M a_nodal, a_nodal(k) = a + α × x_k + ω × (ω × x_k) + 2 ω × ẋ_k. `scale` (if
// given) receives ‖a_nodal‖_M = (a_nodalᵀ M a_nodal)^½, which bounds ‖f_sys‖ when Uᵀ M U = I.
Eigen::VectorXd brute_force(const Domain& d, const Eigen::MatrixXd& U, const FrameMotion& frame,
                            const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                            double* scale = nullptr) {
  const Eigen::VectorXd u = U * q, udot = U * qdot;
  Eigen::VectorXd a(3 * d.X.rows());
  for (Eigen::Index k = 0; k < d.X.rows(); ++k) {
    const Vec3 x = d.X.row(k).transpose() + u.segment<3>(3 * k);
    const Vec3 xdot = udot.segment<3>(3 * k);
    a.segment<3>(3 * k) = frame.a + frame.alpha.cross(x) + frame.omega.cross(frame.omega.cross(x)) +
                          2 * frame.omega.cross(xdot);
  }
  const Eigen::VectorXd Ma = d.M * a;
  if (scale) *scale = std::sqrt(a.dot(Ma));
  return -(U.transpose() * Ma);
}

void check_against_brute_force(const Domain& d) {
  std::mt19937 rng(31);
  for (int r : {1, 7, 20}) {
    const Eigen::MatrixXd U = orthonormal_basis(rng, d.M, r);
    const SystemForceIntegrals integrals(d.X, d.M, U);
    ASSERT_EQ(integrals.r(), r);
    double worst = 0;
    for (int trial = 0; trial < 4; ++trial) {
      const Eigen::VectorXd q = Eigen::VectorXd::Random(r), qdot = Eigen::VectorXd::Random(r);
      FrameMotion full;
      full.v = random_vector(rng, 1);
      full.omega = random_vector(rng, 2);
      full.a = random_vector(rng, 5);
      full.alpha = random_vector(rng, 3);
      // Each term alone (so that no term hides behind a larger one), then all together.
      FrameMotion only_a, only_alpha, only_omega;
      only_a.a = full.a;
      only_alpha.alpha = full.alpha;
      only_omega.omega = full.omega;
      for (const FrameMotion& frame : {only_a, only_alpha, only_omega, full}) {
        Eigen::VectorXd f;
        integrals.evaluate(frame, q, qdot, f);
        double scale = 0;
        const Eigen::VectorXd expected = brute_force(d, U, frame, q, qdot, &scale);
        ASSERT_EQ(f.size(), r);
        // Relative to the acceleration field (‖f‖ itself may be a cancellation, e.g. r = 1).
        const double error = (f - expected).norm() / scale;
        EXPECT_LE(error, 1e-12) << d.name << ", r = " << r << ", a = " << frame.a.transpose()
                                << ", α = " << frame.alpha.transpose()
                                << ", ω = " << frame.omega.transpose() << ": " << f.transpose()
                                << " vs " << expected.transpose();
        worst = std::max(worst, error);
      }
      // Coriolis alone: ω with q = 0 leaves ω × (ω × X) and 2 ω × U q̇; compare the difference.
      Eigen::VectorXd f_moving, f_still;
      const Eigen::VectorXd zero = Eigen::VectorXd::Zero(r);
      integrals.evaluate(only_omega, zero, qdot, f_moving);
      integrals.evaluate(only_omega, zero, zero, f_still);
      const Eigen::VectorXd coriolis =
          brute_force(d, U, only_omega, zero, qdot) - brute_force(d, U, only_omega, zero, zero);
      // |2 Uᵀ M (ω × U q̇)| ≤ 2 |ω| |q̇| for Uᵀ M U = I; it vanishes for r = 1 (antisymmetric).
      const double bound = 2 * full.omega.norm() * qdot.norm();
      EXPECT_LE(((f_moving - f_still) - coriolis).norm(), 1e-12 * bound);
      if (r > 1) {
        EXPECT_GT(coriolis.norm(), 1e-2 * bound);
      }
    }
    fmt::print("{}: {} vertices, r = {}: worst relative error {:.1e}\n", d.name, d.X.rows(), r,
               worst);
  }
}

TEST(SystemForces, MatchBruteForceOnABox) {
  check_against_brute_force(box_domain());
}

TEST(SystemForces, MatchBruteForceOnTheBeam) {
  check_against_brute_force(beam_domain());
}

// Mass, first moment and inertia tensor from exact per-tetrahedron integrals:
// ∫ρ dV = ρV, ∫ρ X dV = ρV X̄_c, ∫ρ X Xᵀ dV = ρV/20 (Σ X_a X_aᵀ + (Σ X_a)(Σ X_a)ᵀ).
TEST(SystemForces, MassMomentAndInertia) {
  for (const Domain& d : {box_domain(), beam_domain()}) {
    const TetGeometry geometry = TetGeometry::build(d.mesh);
    double m = 0;
    Vec3 first = Vec3::Zero();
    Mat3 second = Mat3::Zero();
    for (Index e = 0; e < d.mesh.num_elements(); ++e) {
      const double mass = d.mesh.material_of(e).density * geometry.volume[static_cast<size_t>(e)];
      Vec3 sum = Vec3::Zero();
      Mat3 outer = Mat3::Zero();
      for (int a = 0; a < 4; ++a) {
        const Vec3 Xa = d.X.row(d.mesh.tets(e, a)).transpose();
        sum += Xa;
        outer += Xa * Xa.transpose();
      }
      m += mass;
      first += mass * sum / 4;
      second += mass / 20 * (outer + sum * sum.transpose());
    }
    const Mat3 inertia = second.trace() * Mat3::Identity() - second;
    const SystemForceIntegrals integrals(d.X, d.M, Eigen::MatrixXd::Zero(d.M.rows(), 0));
    EXPECT_NEAR(integrals.mass(), m, 1e-12 * m) << d.name;
    EXPECT_LE((integrals.first_moment() - first).norm(), 1e-12 * first.norm()) << d.name;
    EXPECT_LE((integrals.inertia() - inertia).norm(), 1e-12 * inertia.norm()) << d.name;
    // A rigid domain's integrals from fem's mass_moments about the frame's origin, no M.
    const Vec3 origin = (d.mesh.vertices.row(0) - d.X.row(0)).transpose();
    const MassMoments moments = mass_moments(d.mesh, origin);
    const SystemForceIntegrals rigid(moments.mass, moments.first, moments.second);
    EXPECT_EQ(rigid.r(), 0) << d.name;
    EXPECT_NEAR(rigid.mass(), m, 1e-12 * m) << d.name;
    EXPECT_LE((rigid.first_moment() - first).norm(), 1e-12 * first.norm()) << d.name;
    EXPECT_LE((rigid.inertia() - inertia).norm(), 1e-12 * inertia.norm()) << d.name;
    EXPECT_LE((rigid.inertia() - integrals.inertia()).norm(), 1e-12 * inertia.norm()) << d.name;
    fmt::print("{}: m = {:.6g} kg, ∫ρX = ({:.6g}, {:.6g}, {:.6g}), tr I = {:.6g}\n", d.name,
               integrals.mass(), first.x(), first.y(), first.z(), inertia.trace());
  }
}

TEST(SystemForces, UniformForceIsTheProjectedUniformField) {
  std::mt19937 rng(32);
  const Domain d = beam_domain();
  const Eigen::MatrixXd U = orthonormal_basis(rng, d.M, 7);
  const SystemForceIntegrals integrals(d.X, d.M, U);
  const Vec3 g(0.3, -9.81, 1.2);
  const Eigen::VectorXd field = g.replicate(d.X.rows(), 1);  // 1 ⊗ g
  const Eigen::VectorXd expected = U.transpose() * (d.M * field);
  EXPECT_LE((integrals.uniform_force() * g - expected).norm(), 1e-13 * expected.norm());
  // A frame accelerating by a feels −uniform_force() a.
  FrameMotion frame;
  frame.a = g;
  Eigen::VectorXd f;
  integrals.evaluate(frame, Eigen::VectorXd::Zero(7), Eigen::VectorXd::Zero(7), f);
  EXPECT_LE((f + expected).norm(), 1e-13 * expected.norm());
}

TEST(SystemForces, SizesMustAgree) {
  const Domain d = box_domain();
  const Eigen::Index n = d.M.rows();
  EXPECT_THROW(SystemForceIntegrals(d.X.topRows(3), d.M, Eigen::MatrixXd::Zero(n, 2)), Error);
  EXPECT_THROW(SystemForceIntegrals(d.X, d.M, Eigen::MatrixXd::Zero(n - 3, 2)), Error);
  const SystemForceIntegrals integrals(d.X, d.M, Eigen::MatrixXd::Zero(n, 2));
  Eigen::VectorXd f;
  EXPECT_THROW(
      integrals.evaluate(FrameMotion{}, Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(2), f),
      Error);
  // r = 0: an empty force.
  const SystemForceIntegrals rigid(d.X, d.M, Eigen::MatrixXd::Zero(n, 0));
  rigid.evaluate(FrameMotion{}, Eigen::VectorXd(), Eigen::VectorXd(), f);
  EXPECT_EQ(f.size(), 0);
  const SystemForceIntegrals from_moments(1.0, Vec3::Zero(), Mat3::Identity());
  from_moments.evaluate(FrameMotion{}, Eigen::VectorXd(), Eigen::VectorXd(), f);
  EXPECT_EQ(f.size(), 0);
  EXPECT_EQ(from_moments.uniform_force().rows(), 0);
  EXPECT_THROW(SystemForceIntegrals(0.0, Vec3::Zero(), Mat3::Identity()), Error);
  EXPECT_THROW(SystemForceIntegrals(1.0, Vec3(NAN, 0, 0), Mat3::Identity()), Error);
}

}  // namespace
}  // namespace substruct
