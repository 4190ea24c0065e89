// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/fem/mass.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "substruct/core/error.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "support/shared_data.hpp"

namespace substruct {
namespace {

// A 2×1×1-cell box of 12 tets whose right half is made of a second, denser material.
TetMesh two_material_box() {
  Material light;
  light.name = "light";
  light.density = 800;
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(0.4, 0.1, 0.2), 2, 1, 1, light);
  Material heavy;
  heavy.name = "heavy";
  heavy.density = 7800;
  mesh.materials.push_back(heavy);
  for (Index e = 6; e < 12; ++e) mesh.element_material[static_cast<std::size_t>(e)] = 1;
  return mesh;
}

double total_mass(const TetMesh& mesh) {
  const TetGeometry g = TetGeometry::build(mesh);
  double m = 0;
  for (Index e = 0; e < mesh.num_elements(); ++e)
    m += mesh.material_of(e).density * g.volume[static_cast<std::size_t>(e)];
  return m;
}

TEST(ConsistentMass, EntriesOfOneTet) {
  TetMesh mesh;
  mesh.vertices.resize(4, 3);
  mesh.vertices << 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 1;  // V = 1
  mesh.tets.resize(1, 4);
  mesh.tets << 0, 1, 2, 3;
  Material steel;
  steel.density = 7800;
  mesh.materials = {steel};
  mesh.element_material = {0};
  const Eigen::MatrixXd M = consistent_mass(mesh);
  // M_ab = ρV/20 (1 + δ_ab) I₃.
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 12; ++c) {
      const double expected = r % 3 != c % 3 ? 0.0 : (r == c ? 7800.0 / 10 : 7800.0 / 20);
      EXPECT_DOUBLE_EQ(M(r, c), expected) << "(" << r << ", " << c << ")";
    }
  const Eigen::VectorXd m = lumped_vertex_mass(mesh);
  EXPECT_EQ(m, Eigen::VectorXd::Constant(4, 7800.0 / 4));
}

TEST(ConsistentMass, TotalMassPerAxisAndRigidTranslation) {
  const TetMesh mesh = two_material_box();
  const double total = total_mass(mesh);
  EXPECT_NEAR(total, (800 + 7800) * 0.2 * 0.1 * 0.2, 1e-13 * total);
  const SparseMatrix M = consistent_mass(mesh);
  const Eigen::VectorXd lumped = lumped_vertex_mass(mesh);
  const Index N = mesh.num_vertices();
  ASSERT_EQ(M.rows(), 3 * N);
  EXPECT_NEAR(lumped.sum(), total, 1e-13 * total);
  for (int axis = 0; axis < 3; ++axis) {
    Eigen::VectorXd one = Eigen::VectorXd::Zero(3 * N);
    for (Index v = 0; v < N; ++v) one[3 * v + axis] = 1;
    EXPECT_NEAR(one.dot(M * one), total, 1e-13 * total) << "axis " << axis;
  }
  // A rigid translation t: (M T)_a = m_a t, m_a the lumped (row-sum) mass.
  const Vec3 t(0.3, -1.2, 0.7);
  Eigen::VectorXd T(3 * N);
  for (Index v = 0; v < N; ++v) T.segment<3>(3 * v) = t;
  const Eigen::VectorXd MT = M * T;
  for (Index v = 0; v < N; ++v)
    EXPECT_LT((MT.segment<3>(3 * v) - lumped[v] * t).norm(), 1e-13 * total) << "vertex " << v;
}

TEST(ConsistentMass, IntegratesRigidRotationKineticEnergyExactly) {
  // The consistent mass integrates products of linear fields exactly: for v = ω × X on the box
  // [0,a]×[0,b]×[0,c] with ω = e_z, vᵀMv = ∫ρ (x² + y²) dV = ρ c (a³b + ab³)/3.
  const double a = 0.4, b = 0.3, c = 0.2, rho = 1000;
  Material m;
  m.density = rho;
  const TetMesh mesh = make_box_mesh(Vec3::Zero(), Vec3(a, b, c), 3, 2, 2, m);
  Eigen::VectorXd v(3 * mesh.num_vertices());
  for (Index i = 0; i < mesh.num_vertices(); ++i)
    v.segment<3>(3 * i) = Vec3::UnitZ().cross(Vec3(mesh.vertices.row(i).transpose()));
  const double expected = rho * c * (a * a * a * b + a * b * b * b) / 3;
  EXPECT_NEAR(v.dot(consistent_mass(mesh) * v), expected, 1e-13 * expected);
}

TEST(ConsistentMass, IsSymmetricPositiveDefinite) {
  const SparseMatrix M = consistent_mass(two_material_box());
  const Eigen::MatrixXd D = M;
  EXPECT_EQ(D, D.transpose());
  // The element mass ρV/20 (I + 11ᵀ) ⊗ I₃ has eigenvalues ρV/20 · {1, 1, 1, 5}.
  const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(D).eigenvalues();
  EXPECT_GT(eig.minCoeff(), 0);
}

// A box [0, a]×[0, b]×[0, c] of density ρ: m = ρabc, ∫ρX = m (a, b, c)/2, ∫ρ X_i X_j = m l_i l_j/4
// off the diagonal and m l_i²/3 on it; about another origin o the same integrals of X − o. The
// products with the consistent mass give the same numbers.
TEST(MassMoments, ABoxsMomentsAreItsIntegralsAndTheMassMatrixProducts) {
  Material material;
  material.density = 650;
  const Vec3 l(0.4, 0.1, 0.2);
  const TetMesh mesh = make_box_mesh(Vec3::Zero(), l, 4, 2, 3, material);
  const double m = 650 * l.prod();
  Mat3 second = m / 4 * l * l.transpose();
  for (int i = 0; i < 3; ++i) second(i, i) = m / 3 * l[i] * l[i];
  const Vec3 o(0.3, -0.2, 0.05);
  const Vec3 first = m / 2 * l - m * o;
  const Mat3 shifted =
      second - m / 2 * (l * o.transpose() + o * l.transpose()) + m * o * o.transpose();
  const MassMoments at_o = mass_moments(mesh, o);
  EXPECT_NEAR(at_o.mass, m, 1e-13 * m);
  EXPECT_LE((at_o.first - first).norm(), 1e-13 * first.norm());
  EXPECT_LE((at_o.second - shifted).norm(), 1e-13 * shifted.norm());
  const Mat3 inertia = shifted.trace() * Mat3::Identity() - shifted;
  EXPECT_LE((at_o.inertia() - inertia).norm(), 1e-13 * inertia.norm());
  EXPECT_LE((mass_moments(mesh).second - second).norm(), 1e-13 * second.norm());

  const SparseMatrix M = consistent_mass(two_material_box());
  const TetMesh two = two_material_box();
  Eigen::MatrixXd Y = Eigen::MatrixXd::Zero(3 * two.num_vertices(), 4);  // [X 1] in the x slots
  for (Index k = 0; k < two.num_vertices(); ++k) {
    Y.block(3 * k, 0, 1, 3) = two.vertices.row(k) - o.transpose();
    Y(3 * k, 3) = 1;
  }
  const Eigen::Matrix4d products = Y.transpose() * (M * Y);
  const MassMoments moments = mass_moments(two, o);
  EXPECT_NEAR(moments.mass, products(3, 3), 1e-13 * products(3, 3));
  EXPECT_LE((moments.first - products.block<3, 1>(0, 3)).norm(), 1e-13 * moments.first.norm());
  EXPECT_LE((moments.second - products.block<3, 3>(0, 0)).norm(), 1e-13 * moments.second.norm());
}

TEST(ConsistentMass, RejectsNonPositiveDensity) {
  TetMesh mesh = two_material_box();
  mesh.materials[1].density = 0;
  EXPECT_THROW(consistent_mass(mesh), Error);
  EXPECT_THROW(lumped_vertex_mass(mesh), Error);
  EXPECT_THROW(mass_moments(mesh), Error);
}

TEST(ConsistentMass, Beam3TotalMass) {
  SUBSTRUCT_REQUIRE_SHARED("beam3/beam3_tet.veg");
  const TetMesh mesh = read_veg(testing::shared_data() / "beam3/beam3_tet.veg");
  ASSERT_EQ(mesh.num_vertices(), 208);
  ASSERT_EQ(mesh.num_elements(), 450);
  // The beam spans [−0.06, 0.06] × [0, 1] × [−0.02, 0.02], ρ = 1000: m = 1000 · 0.0048 = 4.8 kg.
  // Its coordinates carry rounding like 0.160000000000001, hence 1e-12 relative.
  const Eigen::Vector3d extent =
      mesh.vertices.colwise().maxCoeff() - mesh.vertices.colwise().minCoeff();
  EXPECT_NEAR(extent.x(), 0.12, 1e-12);
  EXPECT_NEAR(extent.y(), 1.0, 1e-12);
  EXPECT_NEAR(extent.z(), 0.04, 1e-12);
  const double expected = 4.8;
  const SparseMatrix M = consistent_mass(mesh);
  Eigen::VectorXd ex = Eigen::VectorXd::Zero(3 * mesh.num_vertices());
  for (Index v = 0; v < mesh.num_vertices(); ++v) ex[3 * v] = 1;
  EXPECT_NEAR(ex.dot(M * ex), expected, 1e-12 * expected);
  EXPECT_NEAR(lumped_vertex_mass(mesh).sum(), expected, 1e-12 * expected);
}

}  // namespace
}  // namespace substruct
