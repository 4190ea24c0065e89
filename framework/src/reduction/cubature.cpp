// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/cubature.hpp"
#include "substruct/core/stopwatch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include <fmt/format.h>
#include <Eigen/Cholesky>

#include "../fem/detail/material_checks.hpp"
#include "detail/nnls.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/element_kernels.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/reduction/cubature_fit.hpp"

namespace substruct {

namespace {

void check_basis(const TetMesh& mesh, const Eigen::MatrixXd& U) {
  if (U.rows() != 3 * Eigen::Index{mesh.num_vertices()})
    throw Error(
        fmt::format("cubature: the basis U has {} rows, expected 3N = {} for a mesh of {} vertices",
                    U.rows(), 3 * Eigen::Index{mesh.num_vertices()}, mesh.num_vertices()));
}

void check_settings(const CubatureSettings& s) {
  if (s.max_elements < 1 || s.training_poses < 1)
    throw Error(
        fmt::format("cubature: needs max_elements ≥ 1 and training_poses ≥ 1, got {} and {}",
                    s.max_elements, s.training_poses));
  if (!(s.tolerance >= 0))
    throw Error(fmt::format("cubature: the tolerance must be ≥ 0, got {}", s.tolerance));
  if (!(s.min_amplitude > 0) || !(s.min_amplitude <= s.max_amplitude) ||
      !std::isfinite(s.max_amplitude))
    throw Error(fmt::format("cubature: needs 0 < min_amplitude ≤ max_amplitude, got {} and {}",
                            s.min_amplitude, s.max_amplitude));
}

// Random numbers from the 64-bit Mersenne twister (its output is fixed by the standard), turned
// into doubles here, so the poses are the same with every standard library.
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }  // [0, 1)
  double normal() {                                                              // Box–Muller
    const double u = 1 - uniform(), v = uniform();
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * v);
  }

 private:
  std::mt19937_64 engine_;
};

double largest_vertex_displacement(const Eigen::VectorXd& u) {
  double largest = 0;
  for (Eigen::Index v = 0; v < u.size() / 3; ++v)
    largest = std::max(largest, u.segment<3>(3 * v).norm());
  return largest;
}

// g_e(q) = U_eᵀ f_e(X_e + U_e q) for one element.
struct ElementData {
  Eigen::Matrix<double, 12, Eigen::Dynamic> U;  // U_e
  Vec12 rest;                                   // X_e
  Mat3 Dm_inv;
  double volume, lambda, mu;
};

ElementData element_data(const TetMesh& mesh, const TetGeometry& geometry, const Eigen::MatrixXd& U,
                         Index e) {
  ElementData d;
  d.U.resize(12, U.cols());
  for (int a = 0; a < 4; ++a) {
    const Index v = mesh.tets(e, a);
    d.U.middleRows<3>(3 * a) = U.middleRows<3>(3 * v);
    d.rest.segment<3>(3 * a) = mesh.vertices.row(v).transpose();
  }
  const auto se = static_cast<std::size_t>(e);
  d.Dm_inv = geometry.Dm_inv[se];
  d.volume = geometry.volume[se];
  d.lambda = mesh.material_of(e).lambda();
  d.mu = mesh.material_of(e).mu();
  return d;
}

}  // namespace

CubatureForceModel::CubatureForceModel(const TetMesh& mesh, const Eigen::MatrixXd& U,
                                       std::vector<Index> elements, std::vector<double> weights,
                                       MaterialModel material)
    : ReducedForceModel(static_cast<int>(U.cols())),
      elements_(std::move(elements)),
      weights_(std::move(weights)),
      material_(material),
      training_error_(std::numeric_limits<double>::quiet_NaN()) {
  check_basis(mesh, U);
  if (elements_.size() != weights_.size())
    throw Error(
        fmt::format("cubature: {} elements but {} weights", elements_.size(), weights_.size()));
  std::vector<char> seen(static_cast<std::size_t>(mesh.num_elements()), 0);
  for (std::size_t k = 0; k < elements_.size(); ++k) {
    const Index e = elements_[k];
    if (e < 0 || e >= mesh.num_elements())
      throw Error(fmt::format("cubature: element {} is out of range (the mesh has {})", e,
                              mesh.num_elements()));
    if (seen[static_cast<std::size_t>(e)]++)
      throw Error(fmt::format("cubature: element {} is listed twice", e));
    if (!(weights_[k] >= 0) || !std::isfinite(weights_[k]))
      throw Error(fmt::format("cubature: the weight of element {} is {}", e, weights_[k]));
  }
  detail::check_materials(mesh, /*density=*/false, /*elasticity=*/true);
  const TetGeometry geometry = TetGeometry::build(mesh);
  const auto n = static_cast<Eigen::Index>(elements_.size());
  U_rows_.resize(12 * n, r());
  rest_.resize(elements_.size());
  Dm_inv_.resize(elements_.size());
  volume_.resize(elements_.size());
  lambda_.resize(elements_.size());
  mu_.resize(elements_.size());
  for (std::size_t k = 0; k < elements_.size(); ++k) {
    const ElementData d = element_data(mesh, geometry, U, elements_[k]);
    U_rows_.middleRows<12>(12 * static_cast<Eigen::Index>(k)) = d.U;
    rest_[k] = d.rest;
    Dm_inv_[k] = d.Dm_inv;
    volume_[k] = d.volume;
    lambda_[k] = d.lambda;
    mu_[k] = d.mu;
  }
}

void CubatureForceModel::evaluate(const Eigen::VectorXd& q, double* energy, Eigen::VectorXd* force,
                                  Eigen::MatrixXd* stiffness) const {
  check_coordinates(q, "cubature");
  const int r = this->r();
  if (energy) *energy = 0;
  if (force) force->setZero(r);
  if (stiffness) stiffness->setZero(r, r);
  Eigen::Matrix<double, 12, Eigen::Dynamic> KU(12, r);
  for (std::size_t k = 0; k < elements_.size(); ++k) {
    const auto Ue = U_rows_.middleRows<12>(12 * static_cast<Eigen::Index>(k));
    const Vec12 x = rest_[k] + Ue * q;
    double E = 0;
    Vec12 f;
    Mat12 K;
    element_forces(material_, {&x, &Dm_inv_[k], volume_[k], lambda_[k], mu_[k]},
                   energy ? &E : nullptr, force ? &f : nullptr, stiffness ? &K : nullptr);
    const double w = weights_[k];
    if (energy) *energy += w * E;
    if (force) force->noalias() += Ue.transpose() * (w * f);
    if (stiffness) {
      KU.noalias() = (w * K) * Ue;  // U_eᵀ (w K_e) U_e
      stiffness->noalias() += Ue.transpose() * KU;
    }
  }
  if (stiffness)  // symmetric exactly: the upper triangle from the lower one
    stiffness->triangularView<Eigen::StrictlyUpper>() = stiffness->transpose();
}

std::vector<Eigen::VectorXd> CubatureForceModel::sample_poses(const TetMesh& mesh,
                                                              const Eigen::MatrixXd& U, int count,
                                                              std::uint64_t seed,
                                                              const CubatureSettings& settings) {
  check_basis(mesh, U);
  check_settings(settings);
  const auto r = U.cols();
  std::vector<Eigen::VectorXd> poses;
  if (count <= 0 || r == 0) return poses;
  const ElasticForceModel model(mesh, settings.material);
  const Eigen::MatrixXd K0 = U.transpose() * (model.stiffness(Eigen::VectorXd::Zero(U.rows())) * U);
  const Eigen::LDLT<Eigen::MatrixXd> K0_solver(K0);
  const double size =
      (mesh.vertices.colwise().maxCoeff() - mesh.vertices.colwise().minCoeff()).norm();
  const double log_min = std::log(settings.min_amplitude * size);
  const double log_max = std::log(settings.max_amplitude * size);
  Random random(seed);
  for (int t = 0; t < count; ++t) {
    Eigen::VectorXd q(r);
    if (t % 2 == 0) {  // static response to a random nodal force
      Eigen::VectorXd F(U.rows());
      for (auto& x : F) x = random.normal();
      q = K0_solver.solve(U.transpose() * F);
    } else {  // equal linear energy per coordinate
      for (Eigen::Index i = 0; i < r; ++i)
        q[i] = random.normal() / (K0(i, i) > 0 ? std::sqrt(K0(i, i)) : 1.0);
    }
    const double amplitude = std::exp(log_min + (log_max - log_min) * random.uniform());
    const double largest = largest_vertex_displacement(U * q);
    if (!(largest > 0) || !q.allFinite())
      throw Error("cubature: a training pose does not move the mesh (is U zero, or K₀ singular?)");
    poses.push_back(q * (amplitude / largest));
  }
  return poses;
}

CubatureForceModel CubatureForceModel::train(const TetMesh& mesh, const Eigen::MatrixXd& U,
                                             const CubatureSettings& settings, Progress* progress) {
  const auto start = std::chrono::steady_clock::now();
  check_basis(mesh, U);
  check_settings(settings);
  detail::check_materials(mesh, /*density=*/false, /*elasticity=*/true);
  const auto r = U.cols();
  const Index num_elements = mesh.num_elements();
  const std::vector<Eigen::VectorXd> poses =
      sample_poses(mesh, U, settings.training_poses, settings.seed, settings);
  const auto T = static_cast<Eigen::Index>(poses.size());

  // The training set: column e holds g_e(q_t) for every pose t, rows scaled by 1/‖f(q_t)‖.
  const TetGeometry geometry = TetGeometry::build(mesh);
  std::vector<ElementData> data;
  data.reserve(static_cast<std::size_t>(num_elements));
  for (Index e = 0; e < num_elements; ++e) data.push_back(element_data(mesh, geometry, U, e));
  Eigen::MatrixXd A(T * r, num_elements);
  for (Eigen::Index t = 0; t < T; ++t) {
    const Eigen::VectorXd& q = poses[static_cast<std::size_t>(t)];
    for (Index e = 0; e < num_elements; ++e) {
      const ElementData& d = data[static_cast<std::size_t>(e)];
      const Vec12 x = d.rest + d.U * q;
      Vec12 f;
      element_forces(settings.material, {&x, &d.Dm_inv, d.volume, d.lambda, d.mu}, nullptr, &f,
                     nullptr);
      A.block(t * r, e, r, 1).noalias() = d.U.transpose() * f;
    }
    const Eigen::VectorXd f = A.middleRows(t * r, r).rowwise().sum();
    const double norm = f.norm();
    if (norm > 0) A.middleRows(t * r, r) /= norm;
    if (progress) progress->advance();
  }
  const Eigen::VectorXd b = A.rowwise().sum();
  CubatureFit fit = greedy_cubature_fit(
      A, b, static_cast<int>(std::min<Index>(settings.max_elements, num_elements)),
      settings.tolerance, progress);
  const double error = fit.relative_error;
  std::vector<Index> elements = std::move(fit.samples);
  std::vector<double> weights = std::move(fit.weights);
  CubatureForceModel model(mesh, U, std::move(elements), std::move(weights), settings.material);
  model.training_error_ = error;
  model.training_seconds_ = seconds_since(start);
  return model;
}

double CubatureForceModel::relative_error(const TetMesh& mesh, const Eigen::MatrixXd& U,
                                          const std::vector<Eigen::VectorXd>& poses) const {
  check_basis(mesh, U);
  const ElasticForceModel full(mesh, material_);
  double sum = 0;
  int counted = 0;
  for (const Eigen::VectorXd& q : poses) {
    const Eigen::VectorXd exact = U.transpose() * full.internal_force(U * q);
    const double norm = exact.norm();
    if (!(norm > 0)) continue;
    sum += (force(q) - exact).squaredNorm() / (norm * norm);
    ++counted;
  }
  return counted ? std::sqrt(sum / counted) : 0.0;
}

CubatureFit greedy_cubature_fit(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, int max_samples,
                                double tolerance, Progress* progress) {
  if (b.size() != A.rows())
    throw Error(fmt::format("cubature fit: {} target entries for {} rows", b.size(), A.rows()));
  const Index candidates = A.cols();
  const double b_norm = b.norm();
  const Eigen::VectorXd column_norm = A.colwise().norm().transpose();
  std::vector<Index> selected;
  std::vector<char> is_selected(static_cast<std::size_t>(candidates), 0);
  Eigen::MatrixXd G;  // A_Sᵀ A_S
  Eigen::VectorXd h;  // A_Sᵀ b
  Eigen::VectorXd w;  // the weights of the selected candidates
  Eigen::VectorXd residual = b;
  double error = b_norm > 0 ? 1.0 : 0.0;
  const int steps = static_cast<int>(std::min<Index>(max_samples, candidates));
  for (int step = 0; step < steps && error > tolerance; ++step) {
    const Eigen::VectorXd score = A.transpose() * residual;
    Index best = -1;
    double best_score = 0;
    for (Index e = 0; e < candidates; ++e) {
      if (is_selected[static_cast<std::size_t>(e)] || !(column_norm[e] > 0)) continue;
      const double s = score[e] / column_norm[e];
      if (s > best_score) {
        best_score = s;
        best = e;
      }
    }
    if (progress) progress->advance();
    if (best < 0) break;
    selected.push_back(best);
    is_selected[static_cast<std::size_t>(best)] = 1;
    const auto n = static_cast<Eigen::Index>(selected.size());
    const Eigen::VectorXd column = A.col(best);
    G.conservativeResize(n, n);
    h.conservativeResize(n);
    w.conservativeResize(n);
    for (Eigen::Index k = 0; k < n; ++k)
      G(k, n - 1) = G(n - 1, k) = A.col(selected[static_cast<std::size_t>(k)]).dot(column);
    h[n - 1] = column.dot(b);
    w[n - 1] = 0;
    detail::nnls_normal(G, h, w);
    residual = b;
    for (Eigen::Index k = 0; k < n; ++k)
      if (w[k] > 0) residual.noalias() -= w[k] * A.col(selected[static_cast<std::size_t>(k)]);
    error = residual.norm() / b_norm;
  }
  CubatureFit fit;
  fit.relative_error = error;
  for (std::size_t k = 0; k < selected.size(); ++k)
    if (w[static_cast<Eigen::Index>(k)] > 0) {
      fit.samples.push_back(selected[k]);
      fit.weights.push_back(w[static_cast<Eigen::Index>(k)]);
    }
  return fit;
}

}  // namespace substruct
