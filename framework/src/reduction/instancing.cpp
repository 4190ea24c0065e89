// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/instancing.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "substruct/core/error.hpp"
#include "substruct/reduction/reduced_stvk.hpp"

namespace substruct {

bool SimilarityTransform::is_identity() const {
  return scale == 1 && rotation == Mat3::Identity() && translation == Vec3::Zero();
}

SimilarityFit fit_similarity(const Points& from, const Points& to) {
  const Eigen::Index n = from.rows();
  if (n < 1 || to.rows() != n)
    throw Error(
        fmt::format("fit_similarity: expected two equal, non-empty point sets, found {} "
                    "and {} points",
                    n, to.rows()));
  const Vec3 mean_x = from.colwise().mean().transpose();
  const Vec3 mean_y = to.colwise().mean().transpose();
  // Σ_xy = 1/n Σ (y_i − ȳ)(x_i − x̄)ᵀ,  σ_x² = 1/n Σ ‖x_i − x̄‖²
  Mat3 sigma_xy = Mat3::Zero();
  double sigma_x2 = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 x = from.row(i).transpose() - mean_x;
    const Vec3 y = to.row(i).transpose() - mean_y;
    sigma_xy += y * x.transpose();
    sigma_x2 += x.squaredNorm();
  }
  sigma_xy /= double(n);
  sigma_x2 /= double(n);
  if (!(sigma_x2 > 0))
    throw Error("fit_similarity: the source points all coincide; no scale or rotation is defined");

  const Eigen::JacobiSVD<Mat3> svd(sigma_xy, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Vec3 s_diag(1, 1, 1);
  if (svd.matrixU().determinant() * svd.matrixV().determinant() < 0) s_diag(2) = -1;
  SimilarityFit fit;
  SimilarityTransform& T = fit.transform;
  T.rotation = svd.matrixU() * s_diag.asDiagonal() * svd.matrixV().transpose();  // R = U S Vᵀ
  T.scale = svd.singularValues().dot(s_diag) / sigma_x2;                         // tr(DS)/σ_x²
  T.translation = mean_y - T.scale * T.rotation * mean_x;                        // ȳ − s R x̄
  for (Eigen::Index i = 0; i < n; ++i)
    fit.max_residual = std::max(fit.max_residual,
                                (T.apply(from.row(i).transpose()) - to.row(i).transpose()).norm());
  return fit;
}

namespace {

double diagonal(const Points& p) {
  if (p.rows() == 0) return 0;
  return (p.colwise().maxCoeff() - p.colwise().minCoeff()).norm();
}

/// The connectivity and materials of a sub-mesh, hashed: equal sub-meshes hash equal.
std::uint64_t structure_hash(const TetMesh& mesh) {
  Fnv1a h;
  h.add_i64(mesh.num_vertices());
  h.add_i64(mesh.num_elements());
  for (Eigen::Index i = 0; i < mesh.tets.size(); ++i) h.add_i64(mesh.tets.data()[i]);
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const Material& m = mesh.material_of(e);
    h.add_f64(m.density);
    h.add_f64(m.youngs_modulus);
    h.add_f64(m.poisson_ratio);
  }
  return h.digest();
}

bool same_structure(const TetMesh& a, const TetMesh& b) {
  if (a.num_vertices() != b.num_vertices() || a.tets != b.tets) return false;
  for (Index e = 0; e < a.num_elements(); ++e) {
    const Material& ma = a.material_of(e);
    const Material& mb = b.material_of(e);
    if (ma.density != mb.density || ma.youngs_modulus != mb.youngs_modulus ||
        ma.poisson_ratio != mb.poisson_ratio)
      return false;
  }
  return true;
}

/// The forces of a copy scaled by s of a model with forces W, f, K (any material): the copy's
/// energy of a nodal displacement w is E'(w) = s³ E(w/s) (gradients ∝ 1/s, volumes ∝ s³), so
/// with U' = s^(−3/2) U:  W'(q) = s³ W(q̂),  f'(q) = s^(1/2) f(q̂),  K'(q) = s⁻² K(q̂),  q̂ = s^(−5/2)
/// q.
class ScaledForceModel : public ReducedForceModel {
 public:
  ScaledForceModel(std::shared_ptr<const ReducedForceModel> original, double s)
      : ReducedForceModel(original->r()), original_(std::move(original)), s_(s) {}

  void evaluate(const Eigen::VectorXd& q, double* energy, Eigen::VectorXd* force,
                Eigen::MatrixXd* stiffness) const override {
    check_coordinates(q, "scaled instance forces");
    const Eigen::VectorXd q_hat = q * std::pow(s_, -2.5);
    original_->evaluate(q_hat, energy, force, stiffness);
    if (energy != nullptr) *energy *= s_ * s_ * s_;
    if (force != nullptr) *force *= std::sqrt(s_);
    if (stiffness != nullptr) *stiffness /= s_ * s_;
  }

  void implicit_step_terms(const Eigen::VectorXd& q, const Eigen::VectorXd& x, double t,
                           Eigen::VectorXd& force, Eigen::VectorXd& Kx,
                           Eigen::MatrixXd& sK) const override {
    check_coordinates(q, "scaled instance forces");
    const Eigen::VectorXd q_hat = q * std::pow(s_, -2.5);
    original_->implicit_step_terms(q_hat, x, t / (s_ * s_), force, Kx, sK);
    force *= std::sqrt(s_);
    Kx /= s_ * s_;
  }

 private:
  std::shared_ptr<const ReducedForceModel> original_;
  double s_;
};

/// Exact copies are fitted up to rounding (s = 1 ± 1e-16, R = I + O(1e-16)); a scale within 1e-12
/// of 1 and a rotation within 1e-12 of I are made exact (so that the models of translated copies
/// are shared as they are), and the residual of the snapped transform recomputed.
SimilarityFit snapped(SimilarityFit fit, const TetMesh& from, const TetMesh& to) {
  SimilarityTransform& T = fit.transform;
  const bool unit_scale = std::abs(T.scale - 1) <= 1e-12;
  const bool no_rotation = (T.rotation - Mat3::Identity()).cwiseAbs().maxCoeff() <= 1e-12;
  if (!unit_scale && !no_rotation) return fit;
  if (unit_scale) T.scale = 1;
  if (no_rotation) T.rotation = Mat3::Identity();
  const Vec3 mean_x = from.vertices.colwise().mean().transpose();
  const Vec3 mean_y = to.vertices.colwise().mean().transpose();
  T.translation = mean_y - T.scale * T.rotation * mean_x;
  fit.max_residual = 0;
  for (Index v = 0; v < from.num_vertices(); ++v)
    fit.max_residual = std::max(
        fit.max_residual,
        (T.apply(from.vertices.row(v).transpose()) - to.vertices.row(v).transpose()).norm());
  return fit;
}

}  // namespace

std::vector<InstanceClass> find_instances(const std::vector<const TetMesh*>& meshes,
                                          const std::vector<std::uint64_t>& keys,
                                          double tolerance) {
  const int d = static_cast<int>(meshes.size());
  if (!keys.empty() && static_cast<int>(keys.size()) != d)
    throw Error(fmt::format("find_instances: {} keys for {} domains", keys.size(), d));

  // Candidates share (connectivity and material hash, key); within a bucket each domain joins the
  // first class whose representative it matches, else starts a class.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<std::size_t>> buckets;
  std::vector<InstanceClass> classes;
  for (int a = 0; a < d; ++a) {
    const TetMesh& mesh = *meshes[static_cast<std::size_t>(a)];
    const std::uint64_t key = keys.empty() ? 0 : keys[static_cast<std::size_t>(a)];
    std::vector<std::size_t>& bucket = buckets[{structure_hash(mesh), key}];
    bool placed = false;
    for (std::size_t c : bucket) {
      const TetMesh& rep = *meshes[static_cast<std::size_t>(classes[c].representative())];
      if (!same_structure(rep, mesh)) continue;
      const SimilarityFit fit = snapped(fit_similarity(rep.vertices, mesh.vertices), rep, mesh);
      if (fit.max_residual <= tolerance * diagonal(mesh.vertices)) {
        classes[c].members.push_back({a, fit.transform});
        placed = true;
        break;
      }
    }
    if (!placed) {
      bucket.push_back(classes.size());
      classes.push_back(InstanceClass{{Instance{a, SimilarityTransform{}}}});
    }
  }
  return classes;
}

std::vector<InstanceClass> find_instances(const Decomposition& decomposition,
                                          const std::vector<std::uint64_t>& keys,
                                          double tolerance) {
  std::vector<const TetMesh*> meshes;
  for (const SubMesh& sub : decomposition.domains) meshes.push_back(&sub.mesh);
  return find_instances(meshes, keys, tolerance);
}

Eigen::MatrixXd turned_basis(const Eigen::MatrixXd& U, const Mat3& R) {
  Eigen::MatrixXd turned(U.rows(), U.cols());
  for (Eigen::Index v = 0; v < U.rows() / 3; ++v)
    turned.middleRows<3>(3 * v) = R * U.middleRows<3>(3 * v);
  return turned;
}

ReducedModel instance_model(const ReducedModel& model, const SimilarityTransform& transform) {
  const double s = transform.scale;
  if (!(s > 0) || !std::isfinite(s))
    throw Error(fmt::format("instance_model: the scale must be positive, found {}", s));
  ReducedModel m = model;
  // U' = s^(−3/2) (I ⊗ R) U
  const Mat3 R = s == 1 ? transform.rotation : transform.rotation / std::pow(s, 1.5);
  m.basis.U = turned_basis(model.basis.U, R);
  if (s == 1) return m;
  m.basis.linear_eigenvalues /= s * s;  // λ' = λ / s²
  m.size *= s;
  if (model.forces == nullptr) return m;
  const auto* polynomial = dynamic_cast<const ReducedStVKPolynomial*>(model.forces.get());
  if (polynomial == nullptr) {
    m.forces = std::make_shared<ScaledForceModel>(model.forces, s);
    return m;
  }
  // Energy coefficients of degree k in q scale by s^(3 − 5k/2): K₀ (k = 2), c (3), d (4).
  const std::size_t r = static_cast<std::size_t>(model.r());
  const std::size_t quadratic = r * (r + 1) / 2;
  const std::size_t cubic = r * (r + 1) * (r + 2) / 6;
  std::vector<double> c = polynomial->coefficients();
  const double scale2 = 1 / (s * s), scale3 = std::pow(s, -4.5), scale4 = std::pow(s, -7.0);
  for (std::size_t i = 0; i < c.size(); ++i)
    c[i] *= i < quadratic ? scale2 : i < quadratic + cubic ? scale3 : scale4;
  m.forces = std::make_shared<ReducedStVKPolynomial>(model.r(), std::move(c));
  return m;
}

}  // namespace substruct
