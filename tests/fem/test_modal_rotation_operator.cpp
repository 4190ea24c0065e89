// SPDX-License-Identifier: GPL-3.0-or-later
// The modal rotation matrix Ψ = W Φ (Yang et al. 2010, Eq. 5) on a box mesh with moved vertices:
// exact for linear fields (infinitesimal rotations give their axis, translations and pure
// strains nothing), and with R̃ (kinematics/modal_warping.hpp) a rotation mode of any amplitude
// warps into the rigid rotation exactly, while small q stay linear to first order.
#include "substruct/fem/modal_rotation_operator.hpp"

#include <random>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "substruct/core/error.hpp"
#include "substruct/kinematics/modal_warping.hpp"
#include "substruct/kinematics/skew.hpp"
#include "substruct/mesh/box_mesh.hpp"

namespace substruct {
namespace {

// A 3×2×2 box of 72 elements, its vertices moved by up to 0.15 of a cell (unequal volumes).
TetMesh jittered_box() {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1.5, 1, 1), 3, 2, 2);
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-0.075, 0.075);
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    for (int c = 0; c < 3; ++c) mesh.vertices(v, c) += u(rng);
  return mesh;
}

Vec3 centroid(const TetMesh& mesh) {
  return mesh.vertices.colwise().mean().transpose();
}

// Columns: the displacement A X + b of every node, for the given A, b.
Eigen::VectorXd linear_field(const TetMesh& mesh, const Mat3& A, const Vec3& b) {
  Eigen::VectorXd u(3 * mesh.num_vertices());
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    u.segment<3>(3 * v) = A * mesh.vertices.row(v).transpose() + b;
  return u;
}

// The 3 infinitesimal rotations about c: column k is e_k × (X − c).
Eigen::MatrixXd rotation_modes(const TetMesh& mesh, const Vec3& c) {
  Eigen::MatrixXd Phi(3 * mesh.num_vertices(), 3);
  for (int k = 0; k < 3; ++k)
    Phi.col(k) = linear_field(mesh, hat(Vec3::Unit(k)), -hat(Vec3::Unit(k)) * c);
  return Phi;
}

// x_a = X_a + R̃(Ψ_a q) (Φ q)_a, N×3.
Points warped_positions(const TetMesh& mesh, const Eigen::MatrixXd& Phi, const Eigen::MatrixXd& Psi,
                        const Eigen::VectorXd& q) {
  const Eigen::VectorXd u = Phi * q, w = Psi * q;
  Points x = mesh.vertices;
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    x.row(v) += (integrated_rotation(w.segment<3>(3 * v)) * u.segment<3>(3 * v)).transpose();
  return x;
}

TEST(ModalRotationOperator, AnInfinitesimalRotationGivesItsAxisAtEveryNode) {
  const TetMesh mesh = jittered_box();
  const Eigen::MatrixXd Psi = modal_rotation_matrix(mesh, rotation_modes(mesh, centroid(mesh)));
  ASSERT_EQ(Psi.rows(), 3 * mesh.num_vertices());
  ASSERT_EQ(Psi.cols(), 3);
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    EXPECT_LT((Psi.middleRows<3>(3 * v) - Mat3::Identity()).norm(), 1e-13) << "node " << v;
}

TEST(ModalRotationOperator, TranslationsAndStrainsDoNotRotate) {
  const TetMesh mesh = jittered_box();
  Eigen::MatrixXd Phi(3 * mesh.num_vertices(), 4);
  for (int k = 0; k < 3; ++k) Phi.col(k) = linear_field(mesh, Mat3::Zero(), Vec3::Unit(k));
  Mat3 S;
  S << 0.3, 0.1, -0.2, 0.1, -0.5, 0.4, -0.2, 0.4, 0.7;  // symmetric: a pure strain
  Phi.col(3) = linear_field(mesh, S, Vec3(1, 2, 3));
  EXPECT_LT(modal_rotation_matrix(mesh, Phi).norm(), 1e-13);
}

// Any linear field A X + b rotates every node by the axial vector of A's skew part.
TEST(ModalRotationOperator, ALinearFieldRotatesEveryNodeByItsSkewPart) {
  const TetMesh mesh = jittered_box();
  Mat3 A;
  A << 0.2, -1.3, 0.4, 0.8, 0.1, -0.6, 0.5, 0.9, -0.3;
  const Eigen::VectorXd u = linear_field(mesh, A, Vec3(-1, 0.5, 2));
  const Eigen::VectorXd w = nodal_rotation_operator(mesh) * u;
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    EXPECT_LT((w.segment<3>(3 * v) - skew(A)).norm(), 1e-13) << "node " << v;
  EXPECT_THROW(modal_rotation_matrix(mesh, Eigen::MatrixXd::Zero(6, 2)), Error);
}

// The property the spectral-hybrid coupling relies on: x = X + R̃(Ψ q) Φ q along a rotation
// mode of amplitude θ is exp(θ â)(X − c) + c, so every distance is kept.
TEST(ModalRotationOperator, ARotationModeOfAnyAmplitudeWarpsIntoTheRigidRotation) {
  const TetMesh mesh = jittered_box();
  const Vec3 c = centroid(mesh) + Vec3(0.2, -0.1, 0.3);  // any centre
  const Eigen::MatrixXd Phi = rotation_modes(mesh, c);
  const Eigen::MatrixXd Psi = modal_rotation_matrix(mesh, Phi);
  const Vec3 a = Vec3(0.4, -1, 0.7).normalized();
  for (double theta : {1e-6, 0.1, 0.5, 1.0, 2.0, 3.0}) {
    const Points x = warped_positions(mesh, Phi, Psi, theta * a);
    const Mat3 R = Eigen::AngleAxisd(theta, a).toRotationMatrix();
    const Points rigid =
        ((mesh.vertices.rowwise() - c.transpose()) * R.transpose()).rowwise() + c.transpose();
    EXPECT_LT((x - rigid).norm(), 1e-12 * rigid.norm()) << "θ = " << theta;
    for (Index i = 0; i < mesh.num_vertices(); ++i)
      for (Index j = i + 1; j < mesh.num_vertices(); ++j) {
        const double rest = (mesh.vertices.row(i) - mesh.vertices.row(j)).norm();
        EXPECT_NEAR((x.row(i) - x.row(j)).norm(), rest, 1e-12 * rest) << "θ = " << theta;
      }
  }
  // One mode about its own axis, as a one-column basis.
  const Eigen::MatrixXd one = Phi * a;
  const Eigen::MatrixXd Psi_one = modal_rotation_matrix(mesh, one);
  const Points x = warped_positions(mesh, one, Psi_one, Eigen::VectorXd::Constant(1, 2.7));
  const Mat3 R = Eigen::AngleAxisd(2.7, a).toRotationMatrix();
  const Points rigid =
      ((mesh.vertices.rowwise() - c.transpose()) * R.transpose()).rowwise() + c.transpose();
  EXPECT_LT((x - rigid).norm(), 1e-12 * rigid.norm());
}

// For small q the warped displacement is Φ q up to O(|q|²).
TEST(ModalRotationOperator, SmallCoordinatesWarpToTheLinearDisplacementToFirstOrder) {
  const TetMesh mesh = jittered_box();
  std::mt19937 rng(4);
  std::normal_distribution<double> n;
  const Eigen::MatrixXd Phi =
      Eigen::MatrixXd::NullaryExpr(3 * mesh.num_vertices(), 5, [&] { return n(rng); });
  const Eigen::MatrixXd Psi = modal_rotation_matrix(mesh, Phi);
  const Eigen::VectorXd q0 = Eigen::VectorXd::NullaryExpr(5, [&] { return n(rng); });
  double previous = 0;
  for (double eps : {1e-2, 1e-3, 1e-4}) {
    const Eigen::VectorXd q = eps * q0;
    const Points x = warped_positions(mesh, Phi, Psi, q);
    Points linear = mesh.vertices;
    flat(linear) += Phi * q;
    const double error = (x - linear).norm() / (Phi * q).norm();
    EXPECT_LT(error, 50 * eps) << "ε = " << eps;  // relative error O(ε)
    if (previous > 0) {
      EXPECT_NEAR(previous / error, 10.0, 0.5) << "ε = " << eps;
    }
    previous = error;
  }
}

}  // namespace
}  // namespace substruct
