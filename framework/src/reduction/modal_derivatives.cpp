// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/modal_derivatives.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/integrators/dof_map.hpp"

namespace substruct {

namespace {

using Mat43 = Eigen::Matrix<double, 4, 3>;

// Per element: the shape-function gradients ∇N_v (rows), V, λ, μ.
struct ElementData {
  std::vector<Mat43> grad;
  std::vector<double> volume, lambda, mu;
};

ElementData element_data(const TetMesh& mesh) {
  const TetGeometry geometry = TetGeometry::build(mesh);
  ElementData d;
  const auto m = static_cast<std::size_t>(mesh.num_elements());
  d.grad.resize(m);
  d.volume = geometry.volume;
  d.lambda.resize(m);
  d.mu.resize(m);
  for (std::size_t e = 0; e < m; ++e) {
    d.grad[e] = shape_gradients(geometry.Dm_inv[e]);
    const Material& material = mesh.material_of(static_cast<Index>(e));
    d.lambda[e] = material.lambda();
    d.mu[e] = material.mu();
  }
  return d;
}

// G = Σ_v u_v ∇N_vᵀ, the displacement gradient of element e.
Mat3 displacement_gradient(const TetMesh& mesh, Index e, const Mat43& grad, const double* u) {
  Mat3 G = Mat3::Zero();
  for (int v = 0; v < 4; ++v) {
    const double* uv = u + 3 * static_cast<std::ptrdiff_t>(mesh.tets(e, v));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) G(i, j) += uv[i] * grad(v, j);
  }
  return G;
}

// S(ε) = 2μ ε + λ tr(ε) I with ε = sym(G).
Mat3 linear_stress(const Mat3& G, double lambda, double mu) {
  Mat3 S = mu * (G + G.transpose());
  S.diagonal().array() += lambda * G.trace();
  return S;
}

// P_ab = G_a S(ε_b) + G_b S(ε_a) + μ(G_aᵀG_b + G_bᵀG_a) + λ tr(G_aᵀG_b) I.
Mat3 hessian_stress(const Mat3& Ga, const Mat3& Sa, const Mat3& Gb, const Mat3& Sb, double lambda,
                    double mu) {
  const Mat3 GtG = Ga.transpose() * Gb;
  Mat3 P = Ga * Sb + Gb * Sa + mu * (GtG + GtG.transpose());
  P.diagonal().array() += lambda * GtG.trace();
  return P;
}

// f_v += V P ∇N_v for the four vertices of element e.
void scatter_forces(const TetMesh& mesh, Index e, const Mat3& P, const Mat43& grad, double V,
                    double* f) {
  const Eigen::Matrix<double, 3, 4> fe = V * P * grad.transpose();
  for (int v = 0; v < 4; ++v) {
    double* fv = f + 3 * static_cast<std::ptrdiff_t>(mesh.tets(e, v));
    for (int i = 0; i < 3; ++i) fv[i] += fe(i, v);
  }
}

void check_length(const TetMesh& mesh, Eigen::Index rows, const char* what) {
  if (rows != 3 * Eigen::Index{mesh.num_vertices()})
    throw Error(fmt::format("{}: the vectors have {} entries, the mesh's {} vertices need {}", what,
                            rows, mesh.num_vertices(), 3 * Eigen::Index{mesh.num_vertices()}));
}

// Six DOFs whose pinning removes exactly the rigid motions v(x) = t + ω × (x − A): all of a
// vertex A far from the centroid (t = 0), the two components of a vertex B far from A across
// d = B − A (ω ∥ d), and the component of a vertex C far from the line AB along which the
// remaining rotation about d moves it most (ω = 0).
std::vector<Index> rigid_pins(const Points& X) {
  const Vec3 c = X.colwise().mean().transpose();
  auto farthest = [&](auto&& distance) {
    Index best = 0;
    double largest = -1;
    for (Index v = 0; v < X.rows(); ++v) {
      const double d = distance(Vec3(X.row(v).transpose()));
      if (d > largest) {
        largest = d;
        best = v;
      }
    }
    return best;
  };
  const Index A = farthest([&](const Vec3& x) { return (x - c).squaredNorm(); });
  const Vec3 XA = X.row(A).transpose();
  const Index B = farthest([&](const Vec3& x) { return (x - XA).squaredNorm(); });
  const Vec3 d = (Vec3(X.row(B).transpose()) - XA).normalized();
  const Index C = farthest([&](const Vec3& x) { return d.cross(x - XA).squaredNorm(); });
  const Vec3 w = d.cross(Vec3(X.row(C).transpose()) - XA);
  Eigen::Index along_d, along_w;
  d.cwiseAbs().maxCoeff(&along_d);
  w.cwiseAbs().maxCoeff(&along_w);
  std::vector<Index> pins{3 * A, 3 * A + 1, 3 * A + 2};
  for (Index k = 0; k < 3; ++k)
    if (k != along_d) pins.push_back(3 * B + k);
  pins.push_back(3 * C + static_cast<Index>(along_w));
  return pins;
}

/// The k(k+1)/2 systems K Ψ_ij = −(H : Φ_i) Φ_j (i ≤ j) of one modal_derivatives call: K with
/// the fixed vertices (or, free-flying, the 6 rigid pins) removed, the right-hand side of each
/// column and where its solution goes.
class DerivativeColumns {
 public:
  DerivativeColumns(const TetMesh& mesh, const Eigen::MatrixXd& Phi, const DomainBoundary& boundary,
                    Eigen::MatrixXd& Psi, Progress* progress)
      : mesh_(mesh),
        data_(element_data(mesh)),
        Psi_(Psi),
        progress_(progress),
        remove_rigid_(boundary.remove_rigid_modes) {
    const int k = static_cast<int>(Phi.cols());
    for (int i = 0; i < k; ++i)
      for (int j = i; j < k; ++j) pairs_.emplace_back(i, j);
    // Displacement gradients G_i and stresses S(ε_i) of every mode on every element.
    const auto m = static_cast<std::size_t>(mesh.num_elements());
    k_ = static_cast<std::size_t>(k);
    G_.resize(m * k_);
    S_.resize(m * k_);
    for (std::size_t e = 0; e < m; ++e)
      for (std::size_t i = 0; i < k_; ++i) {
        G_[e * k_ + i] = displacement_gradient(mesh, static_cast<Index>(e), data_.grad[e],
                                               Phi.col(static_cast<Eigen::Index>(i)).data());
        S_[e * k_ + i] = linear_stress(G_[e * k_ + i], data_.lambda[e], data_.mu[e]);
      }
    const ElasticForceModel model(mesh, MaterialModel::stvk);
    const SparseMatrix K = model.stiffness(Eigen::VectorXd::Zero(model.num_dofs()));
    const Index n = mesh.num_vertices();
    if (remove_rigid_) {
      M_ = consistent_mass(mesh);
      R_ = rigid_body_modes(mesh.vertices, M_);
      dofs_ = DofMap(3 * n, rigid_pins(mesh.vertices));
    } else {
      dofs_ = DofMap::for_fixed_vertices(n, boundary.fixed_vertices);
    }
    K_free_ = dofs_.restrict_matrix(K);
  }

  int count() const { return static_cast<int>(pairs_.size()); }
  const SparseMatrix& stiffness() const { return K_free_; }
  const DofMap& dofs() const { return dofs_; }
  Eigen::MatrixXd& psi() { return Psi_; }
  Progress* progress() const { return progress_; }

  /// b = −(H : Φ_i) Φ_j of column c (all DOFs), made ⊥ span R when free-flying.
  void right_hand_side(int c, Eigen::VectorXd& b) const {
    const auto [i, j] = pairs_[static_cast<std::size_t>(c)];
    b.setZero(Psi_.rows());
    for (std::size_t e = 0; e < data_.volume.size(); ++e) {
      const std::size_t a = e * k_ + static_cast<std::size_t>(i);
      const std::size_t d = e * k_ + static_cast<std::size_t>(j);
      const Mat3 P = hessian_stress(G_[a], S_[a], G_[d], S_[d], data_.lambda[e], data_.mu[e]);
      scatter_forces(mesh_, static_cast<Index>(e), -P, data_.grad[e], data_.volume[e], b.data());
    }
    if (remove_rigid_) b -= M_ * (R_ * (R_.transpose() * b));  // b ⊥ span R
  }
  /// Ψ's column c from its solution on the free DOFs, made ⊥_M span R when free-flying.
  void store(const Eigen::VectorXd& x_free, int c) {
    Eigen::VectorXd x = dofs_.expand_vector(x_free);
    if (remove_rigid_) x -= R_ * (R_.transpose() * (M_ * x));  // x ⊥_M span R
    Psi_.col(c) = x;
    if (progress_) progress_->advance();
  }

 private:
  const TetMesh& mesh_;
  ElementData data_;
  Eigen::MatrixXd& Psi_;
  Progress* progress_;
  bool remove_rigid_;
  std::size_t k_ = 0;
  std::vector<std::pair<int, int>> pairs_;  // (i, j) of each column
  std::vector<Mat3> G_, S_;                 // per element e and mode i: [e k + i]
  SparseMatrix M_, K_free_;
  Eigen::MatrixXd R_;
  DofMap dofs_;
};

/// A solver that shares its work: one factorization (over all ranks of `share`, or this process
/// alone), the right-hand sides solved in rounds of kBatch per rank, each round's together:
/// rank p makes those of the round's p-th batch, and all of them are gathered and solved by all
/// ranks at once.
void solve_in_rounds(DerivativeColumns& columns, LinearSolver& solver, ProcessGroup* share) {
  constexpr int kBatch = 8;
  const int ranks = share != nullptr ? share->size() : 1;
  const int rank = share != nullptr ? share->rank() : 0;
  const int count = columns.count();
  const auto bytes = static_cast<std::size_t>(columns.psi().rows()) * sizeof(double);
  Eigen::VectorXd b;
  for (int first = 0; first < count; first += ranks * kBatch) {
    std::string mine;
    for (int c = first + rank * kBatch; c < std::min(first + (rank + 1) * kBatch, count); ++c) {
      columns.right_hand_side(c, b);
      mine.append(reinterpret_cast<const char*>(b.data()), bytes);
    }
    const std::vector<std::string> all =
        share != nullptr ? share->all_gather(mine) : std::vector<std::string>{mine};
    const int round = std::min(ranks * kBatch, count - first);
    Eigen::MatrixXd B(columns.dofs().num_free(), round), X;
    b.resize(columns.psi().rows());
    for (int t = 0; t < round; ++t) {
      const std::string& from = all[static_cast<std::size_t>(t / kBatch)];
      const std::size_t at = static_cast<std::size_t>(t % kBatch) * bytes;
      if (at + bytes > from.size())
        throw Error("modal derivatives: a rank sent fewer right-hand sides than it makes");
      std::memcpy(b.data(), from.data() + at, bytes);
      B.col(t) = columns.dofs().restrict_vector(b);
    }
    solver.solve_columns(B, X);
    for (int t = 0; t < round; ++t) columns.store(X.col(t), first + t);
  }
}

/// Any other solver: each rank (or this process alone) solves the columns ≡ rank (mod ranks)
/// with its own factorization, one by one, and every rank's columns go to every rank.
void solve_own_share(DerivativeColumns& columns, LinearSolver& solver, ProcessGroup* share) {
  const int ranks = share != nullptr ? share->size() : 1;
  const int rank = share != nullptr ? share->rank() : 0;
  const int count = columns.count();
  Eigen::VectorXd b, x_free;
  for (int c = rank; c < count; c += ranks) {
    columns.right_hand_side(c, b);
    solver.solve(columns.dofs().restrict_vector(b), x_free);
    columns.store(x_free, c);
  }
  if (ranks == 1) return;
  Eigen::MatrixXd& Psi = columns.psi();
  const auto bytes = static_cast<std::size_t>(Psi.rows()) * sizeof(double);
  std::string mine;
  for (int c = rank; c < count; c += ranks)
    mine.append(reinterpret_cast<const char*>(Psi.col(c).data()), bytes);
  const std::vector<std::string> all = share->all_gather(mine);
  for (int p = 0; p < ranks; ++p) {
    const std::string& theirs = all[static_cast<std::size_t>(p)];
    std::size_t at = 0;
    for (int c = p; c < count; c += ranks, at += bytes) {
      if (at + bytes > theirs.size())
        throw Error("modal derivatives: a rank sent fewer columns than it computes");
      std::memcpy(Psi.col(c).data(), theirs.data() + at, bytes);
      if (columns.progress() && p != rank) columns.progress()->advance();
    }
  }
}

}  // namespace

int derivative_count(int k) {
  return k * (k + 1) / 2;
}

int derivative_column(int i, int j, int k) {
  // Columns before row i: k + (k−1) + … + (k−i+1) = i k − i(i−1)/2.
  return i * k - i * (i - 1) / 2 + (j - i);
}

Eigen::VectorXd stvk_hessian_product(const TetMesh& mesh, const Eigen::VectorXd& a,
                                     const Eigen::VectorXd& b) {
  check_length(mesh, a.size(), "StVK Hessian product");
  check_length(mesh, b.size(), "StVK Hessian product");
  const ElementData data = element_data(mesh);
  Eigen::VectorXd f = Eigen::VectorXd::Zero(a.size());
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const auto s = static_cast<std::size_t>(e);
    const Mat3 Ga = displacement_gradient(mesh, e, data.grad[s], a.data());
    const Mat3 Gb = displacement_gradient(mesh, e, data.grad[s], b.data());
    const Mat3 P =
        hessian_stress(Ga, linear_stress(Ga, data.lambda[s], data.mu[s]), Gb,
                       linear_stress(Gb, data.lambda[s], data.mu[s]), data.lambda[s], data.mu[s]);
    scatter_forces(mesh, e, P, data.grad[s], data.volume[s], f.data());
  }
  return f;
}

Eigen::MatrixXd modal_derivatives(const TetMesh& mesh, const Eigen::MatrixXd& Phi,
                                  const DomainBoundary& boundary, LinearSolver& solver,
                                  Progress* progress, ProcessGroup* share) {
  check_length(mesh, Phi.rows(), "modal derivatives");
  if (boundary.remove_rigid_modes && !boundary.fixed_vertices.empty())
    throw Error(fmt::format(
        "modal derivatives: the domain has {} fixed vertices, so it has no rigid-body modes to "
        "remove (remove_rigid_modes is for free-flying domains)",
        boundary.fixed_vertices.size()));
  Eigen::MatrixXd Psi(Phi.rows(), derivative_count(static_cast<int>(Phi.cols())));
  if (Phi.cols() == 0) return Psi;
  DerivativeColumns columns(mesh, Phi, boundary, Psi, progress);
  solver.analyze(columns.stiffness(), MatrixProperties{});
  solver.factorize(columns.stiffness());
  if (share == nullptr || share->rank() == 0)
    log::debug("modal derivatives: K of {} free DOFs factored by {} ({} nonzeros in the factor)",
               columns.stiffness().rows(), solver.info().method, solver.info().factor_nonzeros);
  if (solver.shared())
    solve_in_rounds(columns, solver, share);
  else
    solve_own_share(columns, solver, share);
  return Psi;
}

}  // namespace substruct
