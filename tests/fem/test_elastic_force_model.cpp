// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/fem/elastic_force_model.hpp"

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "substruct/core/error.hpp"
#include "substruct/fem/element_kernels.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/mesh/box_mesh.hpp"

namespace substruct {
namespace {

constexpr MaterialModel kModels[] = {MaterialModel::linear, MaterialModel::stvk,
                                     MaterialModel::corotational, MaterialModel::neohookean};

// A 2×2×1-cell box (24 tets, 18 vertices) with jittered vertices and two materials.
TetMesh small_mesh() {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(0.2, 0.2, 0.1), 2, 2, 1);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.015, 0.015);
  for (auto& c : mesh.vertices.reshaped()) c += jitter(rng);
  Material stiff;
  stiff.name = "stiff";
  stiff.youngs_modulus = 5e6;
  stiff.poisson_ratio = 0.3;
  mesh.materials.push_back(stiff);
  for (Index e = 0; e < mesh.num_elements(); e += 3)
    mesh.element_material[static_cast<std::size_t>(e)] = 1;
  return mesh;
}

// A displacement with a large rotation of the whole mesh (about its centre) plus random strain.
Eigen::VectorXd test_displacement(const TetMesh& mesh) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> noise(-0.01, 0.01);
  const Mat3 R = Eigen::AngleAxisd(1.2, Vec3(0.2, -1, 0.4).normalized()).toRotationMatrix();
  const Vec3 centre(0.1, 0.1, 0.05);
  Eigen::VectorXd u(3 * mesh.num_vertices());
  for (Index v = 0; v < mesh.num_vertices(); ++v) {
    const Vec3 X = mesh.vertices.row(v).transpose();
    u.segment<3>(3 * v) = centre + R * (X - centre) - X + Vec3(noise(rng), noise(rng), noise(rng));
  }
  return u;
}

// The straightforward assembly: element kernels, triplets, setFromTriplets.
struct Naive {
  double energy = 0;
  Eigen::VectorXd force;
  SparseMatrix stiffness;
};
Naive naive_assembly(const TetMesh& mesh, MaterialModel model, const Eigen::VectorXd& u) {
  const TetGeometry g = TetGeometry::build(mesh);
  Naive out;
  out.force = Eigen::VectorXd::Zero(u.size());
  std::vector<Eigen::Triplet<double>> triplets;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    Vec12 x;
    for (int a = 0; a < 4; ++a) {
      const Index v = mesh.tets(e, a);
      x.segment<3>(3 * a) = mesh.vertices.row(v).transpose() + u.segment<3>(3 * v);
    }
    const auto se = static_cast<std::size_t>(e);
    const Material& m = mesh.material_of(e);
    double E;
    Vec12 f;
    Mat12 K;
    element_forces(model, {&x, &g.Dm_inv[se], g.volume[se], m.lambda(), m.mu()}, &E, &f, &K);
    out.energy += E;
    for (int a = 0; a < 4; ++a) {
      out.force.segment<3>(3 * mesh.tets(e, a)) += f.segment<3>(3 * a);
      for (int b = 0; b < 4; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            triplets.emplace_back(3 * mesh.tets(e, a) + i, 3 * mesh.tets(e, b) + j,
                                  K(3 * a + i, 3 * b + j));
    }
  }
  out.stiffness.resize(u.size(), u.size());
  out.stiffness.setFromTriplets(triplets.begin(), triplets.end());
  return out;
}

// Central differences, h = 1e-7 on a mesh of 0.1-sized cells: truncation O(h²/L²) ≈ 1e-12 and
// rounding O(ε L/h) ≈ 1e-10 relative, far below the 1e-6 asserted.
constexpr double kStep = 1e-7;

TEST(ElasticForceModel, ForceIsTheEnergyGradient) {
  const TetMesh mesh = small_mesh();
  const Eigen::VectorXd u = test_displacement(mesh);
  for (MaterialModel model : kModels) {
    SCOPED_TRACE(to_string(model));
    const ElasticForceModel efm(mesh, model);
    Eigen::VectorXd fd(u.size());
    for (Index i = 0; i < u.size(); ++i) {
      Eigen::VectorXd up = u, um = u;
      up[i] += kStep;
      um[i] -= kStep;
      fd[i] = (efm.energy(up) - efm.energy(um)) / (2 * kStep);
    }
    const Eigen::VectorXd f = efm.internal_force(u);
    ASSERT_GT(f.norm(), 0);
    EXPECT_LE((f - fd).norm(), 1e-6 * f.norm());
  }
}

// (The neo-Hookean tangent is the Hessian made semi-definite per element, not the Jacobian in
// compressed elements; its exact Hessian is checked in test_neohookean.)
TEST(ElasticForceModel, StiffnessIsTheForceJacobian) {
  const TetMesh mesh = small_mesh();
  const Eigen::VectorXd u = test_displacement(mesh);
  for (MaterialModel model : kModels) {
    if (model == MaterialModel::neohookean) continue;
    SCOPED_TRACE(to_string(model));
    const ElasticForceModel efm(mesh, model);
    Eigen::MatrixXd fd(u.size(), u.size());
    for (Index i = 0; i < u.size(); ++i) {
      Eigen::VectorXd up = u, um = u;
      up[i] += kStep;
      um[i] -= kStep;
      fd.col(i) = (efm.internal_force(up) - efm.internal_force(um)) / (2 * kStep);
    }
    const Eigen::MatrixXd K = efm.stiffness(u);
    EXPECT_LE((K - fd).norm(), 1e-6 * K.norm());
  }
}

TEST(ElasticForceModel, StiffnessIsSymmetricWithTranslationsInItsNullSpace) {
  const TetMesh mesh = small_mesh();
  const Eigen::VectorXd u = test_displacement(mesh);
  for (MaterialModel model : kModels) {
    SCOPED_TRACE(to_string(model));
    const Eigen::MatrixXd K = ElasticForceModel(mesh, model).stiffness(u);
    // Symmetric element matrices scattered in the same order into mirrored slots: exact.
    EXPECT_EQ(K, K.transpose());
    for (int axis = 0; axis < 3; ++axis) {
      Eigen::VectorXd t = Eigen::VectorXd::Zero(u.size());
      for (Index v = 0; v < mesh.num_vertices(); ++v) t[3 * v + axis] = 1;
      EXPECT_LE((K * t).norm(), 1e-13 * K.norm() * t.norm()) << "axis " << axis;
    }
  }
}

TEST(ElasticForceModel, EqualsNaiveTripletAssembly) {
  const TetMesh mesh = small_mesh();
  const Eigen::VectorXd u = test_displacement(mesh);
  for (MaterialModel model : kModels) {
    SCOPED_TRACE(to_string(model));
    const ElasticForceModel efm(mesh, model);
    double E;
    Eigen::VectorXd f;
    SparseMatrix K;
    efm.evaluate(u, &E, &f, &K);
    const Naive naive = naive_assembly(mesh, model, u);
    // Only the summation order differs (and for the linear model f = K₀u): rounding level.
    EXPECT_NEAR(E, naive.energy, 1e-12 * naive.energy);
    EXPECT_LE((f - naive.force).norm(), 1e-12 * naive.force.norm());
    EXPECT_LE((Eigen::MatrixXd(K) - Eigen::MatrixXd(naive.stiffness)).norm(),
              1e-12 * naive.stiffness.norm());
    EXPECT_EQ(K.rows(), 3 * mesh.num_vertices());
    EXPECT_EQ(K.nonZeros(), naive.stiffness.nonZeros());  // the same 3×3-block pattern
  }
}

TEST(ElasticForceModel, RepeatedEvaluationIsBitIdenticalAndReusesTheMatrix) {
  const TetMesh mesh = small_mesh();
  const Eigen::VectorXd u = test_displacement(mesh);
  const Eigen::VectorXd other = 0.5 * u;
  for (MaterialModel model : kModels) {
    SCOPED_TRACE(to_string(model));
    const ElasticForceModel efm(mesh, model);
    double E1, E2;
    Eigen::VectorXd f1, f2;
    SparseMatrix K;
    efm.evaluate(u, &E1, &f1, &K);
    const SparseMatrix K1 = K;
    const double* values = K.valuePtr();
    efm.evaluate(other, &E2, &f2, &K);  // a different state in between
    efm.evaluate(u, &E2, &f2, &K);
    EXPECT_EQ(K.valuePtr(), values) << "the matrix was reallocated";
    EXPECT_EQ(std::memcmp(&E1, &E2, sizeof E1), 0);
    EXPECT_EQ(std::memcmp(f1.data(), f2.data(), sizeof(double) * f1.size()), 0);
    ASSERT_EQ(K.nonZeros(), K1.nonZeros());
    EXPECT_EQ(std::memcmp(K.valuePtr(), K1.valuePtr(), sizeof(double) * K.nonZeros()), 0);
  }
}

TEST(ElasticForceModel, ConvenienceCallsAgreeWithEvaluate) {
  const TetMesh mesh = small_mesh();
  const Eigen::VectorXd u = test_displacement(mesh);
  const ElasticForceModel efm(mesh, MaterialModel::stvk);
  double E;
  Eigen::VectorXd f;
  SparseMatrix K;
  efm.evaluate(u, &E, &f, &K);
  EXPECT_EQ(efm.energy(u), E);
  EXPECT_EQ(efm.internal_force(u), f);
  EXPECT_EQ(Eigen::MatrixXd(efm.stiffness(u)), Eigen::MatrixXd(K));
  EXPECT_EQ(efm.num_dofs(), 3 * mesh.num_vertices());
  EXPECT_EQ(efm.num_elements(), mesh.num_elements());
  EXPECT_EQ(efm.model(), MaterialModel::stvk);
}

TEST(ElasticForceModel, ZeroAtRestAndUnderRigidMotionForNonlinearModels) {
  const TetMesh mesh = small_mesh();
  const Mat3 R = Eigen::AngleAxisd(2.8, Vec3(1, 0.3, -0.2).normalized()).toRotationMatrix();
  Eigen::VectorXd rigid(3 * mesh.num_vertices());
  for (Index v = 0; v < mesh.num_vertices(); ++v) {
    const Vec3 X = mesh.vertices.row(v).transpose();
    rigid.segment<3>(3 * v) = R * X + Vec3(1, 2, 3) - X;
  }
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(rigid.size());
  // Scale of a force: E·h² with h = 0.1, E = 5e6; rounding leaves 1e-16 strains.
  const double force_scale = 5e6 * 0.01;
  for (MaterialModel model : kModels) {
    SCOPED_TRACE(to_string(model));
    const ElasticForceModel efm(mesh, model);
    EXPECT_LE(std::abs(efm.energy(rest)), 1e-20);
    EXPECT_LE(efm.internal_force(rest).norm(), 1e-12 * force_scale);
    if (model == MaterialModel::linear) continue;
    EXPECT_LE(std::abs(efm.energy(rigid)), 1e-20);
    EXPECT_LE(efm.internal_force(rigid).norm(), 1e-12 * force_scale);
  }
}

TEST(ElasticForceModel, LinearModelIsLinear) {
  const TetMesh mesh = small_mesh();
  const Eigen::VectorXd u = test_displacement(mesh);
  const ElasticForceModel efm(mesh, MaterialModel::linear);
  const SparseMatrix K0 = efm.stiffness(Eigen::VectorXd::Zero(u.size()));
  const SparseMatrix K = efm.stiffness(u);
  EXPECT_EQ(std::memcmp(K.valuePtr(), K0.valuePtr(), sizeof(double) * K.nonZeros()), 0);
  const Eigen::VectorXd f = efm.internal_force(u);
  EXPECT_LE((f - K0 * u).norm(), 1e-14 * f.norm());
  EXPECT_NEAR(efm.energy(u), 0.5 * u.dot(K0 * u), 1e-14 * efm.energy(u));
  // Its tangent is the StVK tangent at rest.
  const Eigen::MatrixXd K_stvk =
      ElasticForceModel(mesh, MaterialModel::stvk).stiffness(Eigen::VectorXd::Zero(u.size()));
  EXPECT_LE((Eigen::MatrixXd(K0) - K_stvk).norm(), 1e-12 * K_stvk.norm());
}

TEST(ElasticForceModel, SharesThePatternOfTheConsistentMass) {
  const TetMesh mesh = small_mesh();
  const SparseMatrix M = consistent_mass(mesh);
  const SparseMatrix K = ElasticForceModel(mesh, MaterialModel::stvk)
                             .stiffness(Eigen::VectorXd::Zero(3 * mesh.num_vertices()));
  ASSERT_EQ(M.nonZeros(), K.nonZeros());
  EXPECT_EQ(std::memcmp(M.outerIndexPtr(), K.outerIndexPtr(), sizeof(int) * (K.cols() + 1)), 0);
  EXPECT_EQ(std::memcmp(M.innerIndexPtr(), K.innerIndexPtr(), sizeof(int) * K.nonZeros()), 0);
}

TEST(ElasticForceModel, ReplacesAMatrixOfAnotherPattern) {
  const TetMesh mesh = small_mesh();
  const Eigen::VectorXd u = test_displacement(mesh);
  const ElasticForceModel efm(mesh, MaterialModel::corotational);
  SparseMatrix K(u.size(), u.size());
  K.setIdentity();
  efm.evaluate(u, nullptr, nullptr, &K);
  EXPECT_EQ(Eigen::MatrixXd(K), Eigen::MatrixXd(efm.stiffness(u)));
}

TEST(ElasticForceModel, RejectsBadInput) {
  const TetMesh mesh = small_mesh();
  const ElasticForceModel efm(mesh, MaterialModel::stvk);
  EXPECT_THROW(efm.energy(Eigen::VectorXd::Zero(5)), Error);
  TetMesh bad = mesh;
  bad.materials[1].poisson_ratio = 0.5;
  EXPECT_THROW(ElasticForceModel(bad, MaterialModel::stvk), Error);
  bad = mesh;
  bad.element_material[3] = 7;
  EXPECT_THROW(ElasticForceModel(bad, MaterialModel::stvk), Error);
}

TEST(ElasticForceModel, ForceMayOverwriteTheDisplacement) {
  const TetMesh mesh = small_mesh();
  Eigen::VectorXd u = test_displacement(mesh);
  for (MaterialModel model : kModels) {
    SCOPED_TRACE(to_string(model));
    const ElasticForceModel efm(mesh, model);
    const Eigen::VectorXd expected = efm.internal_force(u);
    Eigen::VectorXd v = u;
    efm.evaluate(v, nullptr, &v, nullptr);
    EXPECT_EQ(v, expected);
  }
}

TEST(ElasticForceModel, IsMovable) {
  const TetMesh mesh = small_mesh();
  const Eigen::VectorXd u = test_displacement(mesh);
  ElasticForceModel a(mesh, MaterialModel::stvk);
  const double E = a.energy(u);
  ElasticForceModel b = std::move(a);
  EXPECT_EQ(b.energy(u), E);
}

}  // namespace
}  // namespace substruct
