// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/instancing.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>
#include <Eigen/LU>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/domains/decomposition.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/reduction/cubature.hpp"
#include "substruct/reduction/reduced_stvk.hpp"
#include "substruct/solvers/solver_provider.hpp"
#include "support/temp_dir_test.hpp"

using namespace substruct;

namespace {

/// A box of distinct edge lengths (no symmetry maps it onto itself except the identity).
TetMesh small_box() {
  return make_box_mesh(Vec3(0, 0, 0), Vec3(1.0, 0.6, 0.35), 4, 3, 2);
}

Mat3 rotation(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

/// One mesh made of disjoint copies of `part`, copy c placed by transforms[c]; one domain each.
Decomposition copies(const TetMesh& part, const std::vector<SimilarityTransform>& transforms) {
  TetMesh mesh;
  const Index n = part.num_vertices();
  const Index m = part.num_elements();
  const auto c = static_cast<Index>(transforms.size());
  mesh.vertices.resize(n * c, 3);
  mesh.tets.resize(m * c, 4);
  mesh.materials = part.materials;
  std::vector<int> domain_of_element;
  for (Index k = 0; k < c; ++k) {
    for (Index v = 0; v < n; ++v)
      mesh.vertices.row(k * n + v) =
          transforms[static_cast<std::size_t>(k)].apply(part.vertices.row(v).transpose());
    mesh.tets.middleRows(k * m, m) = part.tets.array() + k * n;
    for (Index e = 0; e < m; ++e) {
      mesh.element_material.push_back(part.element_material[static_cast<std::size_t>(e)]);
      domain_of_element.push_back(static_cast<int>(k));
    }
  }
  return decompose(mesh, ElementPartition{domain_of_element, static_cast<int>(c)});
}

SimilarityTransform transform(double s, const Mat3& R, const Vec3& t) {
  SimilarityTransform T;
  T.scale = s;
  T.rotation = R;
  T.translation = t;
  return T;
}

}  // namespace

TEST(FitSimilarity, RecoversScaleRotationAndTranslation) {
  const TetMesh box = small_box();
  const SimilarityTransform truth = transform(2.5, rotation(1.1, Vec3(1, -2, 0.5)), Vec3(3, -1, 7));
  Points moved(box.vertices.rows(), 3);
  for (Index v = 0; v < box.num_vertices(); ++v)
    moved.row(v) = truth.apply(box.vertices.row(v).transpose());
  const SimilarityFit fit = fit_similarity(box.vertices, moved);
  EXPECT_NEAR(fit.transform.scale, 2.5, 1e-13);
  EXPECT_LT((fit.transform.rotation - truth.rotation).norm(), 1e-13);
  EXPECT_LT((fit.transform.translation - truth.translation).norm(), 1e-12);
  EXPECT_LT(fit.max_residual, 1e-13);
  EXPECT_NEAR(fit.transform.rotation.determinant(), 1.0, 1e-14);
}

TEST(FitSimilarity, AMirrorImageIsNotARotation) {
  const TetMesh box = small_box();
  Points mirrored = box.vertices;
  mirrored.col(0) *= -1;
  const SimilarityFit fit = fit_similarity(box.vertices, mirrored);
  EXPECT_NEAR(fit.transform.rotation.determinant(), 1.0, 1e-14);
  EXPECT_GT(fit.max_residual, 0.1);  // box size ≈ 1.2 m; a mirror is off by a large fraction
}

TEST(FitSimilarity, RejectsMismatchedPointSets) {
  const TetMesh box = small_box();
  const std::string m = substruct::testing::error_message(
      [&] { fit_similarity(box.vertices, box.vertices.topRows(box.vertices.rows() - 1)); });
  EXPECT_NE(m.find("equal"), std::string::npos) << m;
}

TEST(FindInstances, RotatedAndScaledCopiesFormOneClassAPerturbedCopyDoesNot) {
  const TetMesh box = small_box();
  const Mat3 R1 = rotation(0.7, Vec3(1, 2, 3));
  const Mat3 R2 = rotation(2.2, Vec3(-1, 0.5, 0.2));
  Decomposition d =
      copies(box, {transform(1, Mat3::Identity(), Vec3(0, 0, 0)), transform(1, R1, Vec3(5, 0, 0)),
                   transform(2, R2, Vec3(0, 6, 1)), transform(1, Mat3::Identity(), Vec3(0, 0, 9))});
  // Copy 3 gets one vertex moved by 1e-6 of the box size: no longer an instance.
  d.domains[3].mesh.vertices(17, 1) += 1e-6 * 1.2;

  const std::vector<InstanceClass> classes = find_instances(d);
  ASSERT_EQ(classes.size(), 2u);
  ASSERT_EQ(classes[0].members.size(), 3u);
  EXPECT_EQ(classes[0].representative(), 0);
  EXPECT_TRUE(classes[0].members[0].transform.is_identity());
  EXPECT_EQ(classes[0].members[1].domain, 1);
  EXPECT_EQ(classes[0].members[2].domain, 2);
  const SimilarityTransform& t1 = classes[0].members[1].transform;
  const SimilarityTransform& t2 = classes[0].members[2].transform;
  EXPECT_NEAR(t1.scale, 1.0, 1e-13);
  EXPECT_LT((t1.rotation - R1).norm(), 1e-13);
  EXPECT_LT((t1.translation - Vec3(5, 0, 0)).norm(), 1e-12);
  EXPECT_NEAR(t2.scale, 2.0, 1e-13);
  EXPECT_LT((t2.rotation - R2).norm(), 1e-13);
  EXPECT_LT((t2.translation - Vec3(0, 6, 1)).norm(), 1e-12);
  ASSERT_EQ(classes[1].members.size(), 1u);
  EXPECT_EQ(classes[1].representative(), 3);
}

TEST(FindInstances, APerturbationBelowTheToleranceIsStillAnInstance) {
  const TetMesh box = small_box();
  Decomposition d = copies(box, {transform(1, Mat3::Identity(), Vec3(0, 0, 0)),
                                 transform(3, rotation(0.3, Vec3(0, 0, 1)), Vec3(1, 1, 1))});
  d.domains[1].mesh.vertices(5, 0) += 1e-12;  // far below 1e-9 · 3.6 m
  const std::vector<InstanceClass> classes = find_instances(d);
  ASSERT_EQ(classes.size(), 1u);
  EXPECT_EQ(classes[0].members.size(), 2u);
  // A looser tolerance accepts what the default rejects.
  d.domains[1].mesh.vertices(5, 0) += 1e-6;
  EXPECT_EQ(find_instances(d).size(), 2u);
  EXPECT_EQ(find_instances(d, {}, 1e-5).size(), 1u);
}

TEST(FindInstances, KeysMaterialsAndConnectivitySeparateClasses) {
  const TetMesh box = small_box();
  const std::vector<SimilarityTransform> placements = {
      transform(1, Mat3::Identity(), Vec3(0, 0, 0)), transform(1, Mat3::Identity(), Vec3(2, 0, 0)),
      transform(1, Mat3::Identity(), Vec3(4, 0, 0))};
  Decomposition d = copies(box, placements);
  EXPECT_EQ(find_instances(d).size(), 1u);
  // Different boundary conditions (keys): copy 1 on its own.
  const std::vector<InstanceClass> keyed = find_instances(d, {7, 8, 7});
  ASSERT_EQ(keyed.size(), 2u);
  EXPECT_EQ(keyed[0].members.size(), 2u);
  EXPECT_EQ(keyed[0].members[1].domain, 2);
  EXPECT_EQ(keyed[1].representative(), 1);
  // A stiffer material on one element of copy 2.
  Decomposition stiffer = d;
  stiffer.domains[2].mesh.materials.push_back(box.materials[0]);
  stiffer.domains[2].mesh.materials.back().youngs_modulus *= 2;
  stiffer.domains[2].mesh.element_material[4] = 1;
  EXPECT_EQ(find_instances(stiffer).size(), 2u);
  // Same positions, one tet listed with two vertices swapped.
  Decomposition renumbered = d;
  std::swap(renumbered.domains[1].mesh.tets(0, 1), renumbered.domains[1].mesh.tets(0, 2));
  EXPECT_EQ(find_instances(renumbered).size(), 2u);
  EXPECT_NE(substruct::testing::error_message([&] {
              find_instances(d, {1, 2});
            }).find("3 domains"),
            std::string::npos);
}

namespace {

/// The mesh placed by x' = s R x + t, same numbering.
TetMesh placed(const TetMesh& mesh, const SimilarityTransform& T) {
  TetMesh out = mesh;
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    out.vertices.row(v) = T.apply(mesh.vertices.row(v).transpose());
  return out;
}

struct ScaledCopy {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1.0, 0.3, 0.2), 6, 2, 2,
                               Material{"rubber", 1100.0, 2.0e6, 0.43});
  DomainBoundary clamp{mesh.vertex_sets.at("xmin"), false};
  SimilarityTransform T = transform(2, rotation(0.9, Vec3(1, 2, -1)), Vec3(3, 1, -2));
  TetMesh copy = placed(mesh, T);
};

}  // namespace

// Zhao 2014, §4.2: a copy scaled by s has U' = s^(−3/2) (I ⊗ R) U, λ' = λ/s², and reduced
// polynomials scaled degree by degree. The copy reduced from scratch spans the same subspace
// (its basis may differ by an orthogonal Q, e.g. column signs), so compare Q-invariantly:
// U_scratch = U_instance Q, f_scratch(q) = Qᵀ f_instance(Q q), K_scratch(q) = Qᵀ K_instance(Qq) Q.
TEST(InstanceModel, AScaledRotatedCopyMatchesItsModelComputedFromScratch) {
  const ScaledCopy c;
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Config config = Config::from_settings(
      {{"solvers.eigen", "slepc", "test"}, {"solvers.linear", "cholmod", "test"}}, ".", host);
  const SolverProvider solvers(host, config);
  ReductionSettings settings;
  settings.linear_modes = 6;
  const int r = 10;
  const ReducedModel original =
      compute_reduced_model(c.mesh, MaterialModel::stvk, c.clamp, r, settings, solvers);
  const ReducedModel scratch =
      compute_reduced_model(c.copy, MaterialModel::stvk, c.clamp, r, settings, solvers);
  const ReducedModel instance = instance_model(original, c.T);

  // Frequencies scale by 1/s: λ' = λ/4.
  const Eigen::VectorXd& lambda = scratch.basis.linear_eigenvalues;
  EXPECT_LT((instance.basis.linear_eigenvalues - lambda).cwiseAbs().maxCoeff(),
            1e-8 * lambda.maxCoeff());
  EXPECT_NEAR(lambda[0] / original.basis.linear_eigenvalues[0], 0.25, 1e-8);
  EXPECT_NEAR(instance.size, 2 * original.size, 1e-12);

  // Mass-orthonormal in the copy's mesh, and the same subspace as the scratch basis.
  const SparseMatrix M = consistent_mass(c.copy);
  const Eigen::MatrixXd& U = instance.basis.U;
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(r, r);
  EXPECT_LT((U.transpose() * (M * U) - I).norm(), 1e-10);
  const Eigen::MatrixXd Q = U.transpose() * (M * scratch.basis.U);
  EXPECT_LT((Q.transpose() * Q - I).norm(), 1e-8);
  EXPECT_LT((U * Q - scratch.basis.U).norm(), 1e-8 * scratch.basis.U.norm());

  // Reduced forces and stiffness at a large deformation (the cubic terms matter there).
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(r, 0.7, -0.5);
  const Eigen::VectorXd u = scratch.basis.U * q;
  ASSERT_GT(u.cwiseAbs().maxCoeff(), 0.05 * 2.1);  // ≳ 5% of the copy's size
  const Eigen::VectorXd f = scratch.forces->force(q);
  const Eigen::VectorXd f_instance = Q.transpose() * instance.forces->force(Q * q);
  EXPECT_LT((f_instance - f).norm(), 1e-8 * f.norm());
  const Eigen::MatrixXd K = scratch.forces->stiffness(q);
  const Eigen::MatrixXd K_instance = Q.transpose() * instance.forces->stiffness(Q * q) * Q;
  EXPECT_LT((K_instance - K).norm(), 1e-8 * K.norm());
  EXPECT_NEAR(instance.forces->energy(Q * q), scratch.forces->energy(q),
              1e-8 * scratch.forces->energy(q));
  // And both are the full model's forces projected: Uᵀ f_int(U q) on the copy.
  const ElasticForceModel full(c.copy, MaterialModel::stvk);
  EXPECT_LT(
      (U.transpose() * full.internal_force(U * (Q * q)) - instance.forces->force(Q * q)).norm(),
      1e-8 * f.norm());
  // Nonlinear terms are a sizeable part of the force here, so their scaling is tested too.
  const Eigen::VectorXd linear_part = scratch.forces->stiffness(Eigen::VectorXd::Zero(r)) * q;
  EXPECT_GT((f - linear_part).norm(), 0.05 * f.norm());

  // An implicit step's terms from the copy agree with its force and stiffness.
  const Eigen::VectorXd qi = Q * q, x = Eigen::VectorXd::LinSpaced(r, -1, 2);
  Eigen::VectorXd f_step, Kx;
  Eigen::MatrixXd sK;
  instance.forces->implicit_step_terms(qi, x, 3.0, f_step, Kx, sK);
  const Eigen::MatrixXd Ki = instance.forces->stiffness(qi);
  EXPECT_LT((f_step - instance.forces->force(qi)).norm(), 1e-12 * f.norm());
  EXPECT_LT((Kx - Ki * x).norm(), 1e-12 * (Ki * x).norm());
  const Eigen::MatrixXd lower = sK.triangularView<Eigen::Lower>();
  const Eigen::MatrixXd expected = (3.0 * Ki).triangularView<Eigen::Lower>();
  EXPECT_LT((lower - expected).norm(), 1e-12 * expected.norm());
}

TEST(InstanceModel, ARotatedCopySharesTheForceModel) {
  const ScaledCopy c;
  ReducedModel model;
  model.basis.U = Eigen::MatrixXd::Random(3 * c.mesh.num_vertices(), 4);
  model.basis.linear_eigenvalues = Eigen::Vector4d(1, 2, 3, 4);
  model.forces = std::make_shared<ReducedStVKPolynomial>(c.mesh, model.basis.U);
  SimilarityTransform turn = transform(1, rotation(2.0, Vec3(0, 1, 0)), Vec3(0, 0, 5));
  const ReducedModel rotated = instance_model(model, turn);
  EXPECT_EQ(rotated.forces, model.forces);
  EXPECT_EQ(rotated.basis.linear_eigenvalues, model.basis.linear_eigenvalues);
  for (Index v = 0; v < c.mesh.num_vertices(); ++v)
    EXPECT_LT(
        (rotated.basis.U.middleRows<3>(3 * v) - turn.rotation * model.basis.U.middleRows<3>(3 * v))
            .norm(),
        1e-15);
  EXPECT_NE(substruct::testing::error_message([&] {
              instance_model(model, transform(0, Mat3::Identity(), Vec3::Zero()));
            }).find("scale must be positive"),
            std::string::npos);
}

// Any force model: the copy's energy is E'(w) = s³ E(w/s), so a cubature of the copy with the
// same elements and weights is the scaled evaluation of the original's.
TEST(InstanceModel, AScaledCubatureEqualsTheCubatureOfTheCopy) {
  const ScaledCopy c;
  ReducedModel model;
  model.basis.U = Eigen::MatrixXd::Random(3 * c.mesh.num_vertices(), 5) * 0.05;
  for (Index v : c.clamp.fixed_vertices) model.basis.U.middleRows<3>(3 * v).setZero();
  model.basis.linear_eigenvalues = Eigen::VectorXd::LinSpaced(5, 1, 5);
  const std::vector<Index> elements = {3, 17, 60, 101};
  const std::vector<double> weights = {2.0, 0.5, 7.0, 1.25};
  for (const MaterialModel material : {MaterialModel::stvk, MaterialModel::corotational}) {
    model.forces =
        std::make_shared<CubatureForceModel>(c.mesh, model.basis.U, elements, weights, material);
    const ReducedModel instance = instance_model(model, c.T);
    const CubatureForceModel direct(c.copy, instance.basis.U, elements, weights, material);
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(5, 3.0, -2.0);
    const Eigen::VectorXd f = direct.force(q);
    EXPECT_LT((instance.forces->force(q) - f).norm(), 1e-10 * f.norm()) << to_string(material);
    const Eigen::MatrixXd K = direct.stiffness(q);
    EXPECT_LT((instance.forces->stiffness(q) - K).norm(), 1e-10 * K.norm());
    EXPECT_NEAR(instance.forces->energy(q), direct.energy(q), 1e-10 * direct.energy(q));
    // An implicit step's terms (f, K x, the lower triangle of s K) scale as f and K do.
    const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(5, -1.0, 2.0);
    Eigen::VectorXd f_step, Kx;
    Eigen::MatrixXd sK;
    instance.forces->implicit_step_terms(q, x, 3.0, f_step, Kx, sK);
    EXPECT_LT((f_step - f).norm(), 1e-10 * f.norm());
    EXPECT_LT((Kx - K * x).norm(), 1e-10 * (K * x).norm());
    const Eigen::MatrixXd lower = sK.triangularView<Eigen::Lower>();
    const Eigen::MatrixXd expected = (3.0 * K).triangularView<Eigen::Lower>();
    EXPECT_LT((lower - expected).norm(), 1e-10 * expected.norm());
    // The deformation is large enough for the nonlinear part to matter.
    const Eigen::VectorXd linear = direct.stiffness(Eigen::VectorXd::Zero(5)) * q;
    EXPECT_GT((f - linear).norm(), 0.01 * f.norm());
  }
}
