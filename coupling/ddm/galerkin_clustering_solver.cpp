// SPDX-License-Identifier: GPL-3.0-or-later
// §5.1's clusters made stable. Eq. 7 approximates each cluster's rows of G = A⁻¹ by U_j S_j V_jᵀ;
// the stacked G̃ is neither symmetric nor a solve of any system, so Δv = G̃ f stops being a
// backward-Euler step (clustering_solver.cpp keeps it as printed). Here the clusters give a basis
// instead: Δv restricted to cluster j lies (nearly) in the column span of G_{C_j,:} = U_j S_j V_jᵀ,
// i.e. in span(U_j). With Q_j the interior rows of U_j (made M-orthonormal) and the unit vectors
// E_b of the boundary unknowns,
//     Q = [Q_1 … Q_k | E_b],   Qᵀ A Q α = Qᵀ f,   Δv = Q α,   G̃ = Q S Qᵀ,  S = (Qᵀ A Q)⁻¹,
// a Galerkin backward-Euler step in span(Q): G̃ is symmetric positive semi-definite, its cluster
// blocks are Q_i S_ij Q_jᵀ, G̃ ⪯ A⁻¹, and with k = 1 it is the symmetric truncation of modal
// analysis the paper compares with (§1). Every boundary unknown is in span(Q), so G̃_bb = S_bb is
// positive definite, W is too, and the copies are joined exactly. What lies outside span(Q) feels
// no force (G̃ annihilates it), and the domain's R turns the velocity and the displacement out of
// span(Q) every step: a velocity there would drift, a displacement there keep (and accumulate)
// elastic energy that nothing restores. project() removes the velocity's part M-orthogonally
// (kinetic energy never grows by it), project_displacement() the displacement's A-orthogonally
// (an M-orthogonal fit of a displacement adds stiff error); both keep the boundary unknowns, so
// the copies stay joined.
#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "force_displacement.hpp"
#include "substruct/core/error.hpp"

namespace substruct::ddm {

int galerkin_components_for_budget(double floats_per_node, int clusters, Index free_unknowns,
                                   Index boundary_unknowns) {
  const double available = floats_per_node * static_cast<double>(free_unknowns) / 3;
  const double interior = static_cast<double>(free_unknowns - boundary_unknowns);
  const double k = clusters, nb = static_cast<double>(boundary_unknowns);
  const auto floats = [&](double m) { return interior * m + k * k * m * m + 2 * k * m * nb; };
  int m = 1;
  while (m < free_unknowns && floats(m + 1) <= available) ++m;
  return m;
}

namespace {

bool is_diagonal(const SparseMatrix& M) {
  for (Index c = 0; c < M.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(M, c); it; ++it)
      if (it.row() != it.col() && it.value() != 0) return false;
  return true;
}

// An M-orthonormal basis of the column span of C (n × m, zero outside one cluster's interior rows):
// C E Λ^{-1/2} from CᵀMC = E Λ Eᵀ, directions with λ ≤ 1e-12 λ_max dropped (a rank-deficient C).
Eigen::MatrixXd mass_orthonormal_span(Eigen::MatrixXd C, const SparseMatrix& M) {
  if (C.cols() == 0) return C;
  for (Index j = 0; j < C.cols(); ++j)  // U_j S_j's columns scale with σ: equilibrate first
    if (const double norm = C.col(j).norm(); norm > 0) C.col(j) /= norm;
  const Eigen::MatrixXd gram = C.transpose() * (M * C);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(gram);
  const Eigen::VectorXd& lambda = eig.eigenvalues();  // increasing
  const double largest = lambda[lambda.size() - 1];
  Index first = 0;
  while (first < lambda.size() && !(lambda[first] > 1e-12 * largest)) ++first;
  const Index kept = lambda.size() - first;
  return C * eig.eigenvectors().rightCols(kept) *
         lambda.tail(kept).cwiseSqrt().cwiseInverse().asDiagonal();
}

template <class Scalar>
class GalerkinClustering final : public ForceDisplacement {
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

 public:
  GalerkinClustering(const CompressedInverse& g, const SparseMatrix& A, const SparseMatrix& M,
                     const std::vector<Index>& boundary)
      : n_(g.size), boundary_(boundary), M_(M), A_(A) {
    if (A.rows() != n_ || M.rows() != n_)
      throw Error(
          fmt::format("ddm: the compressed inverse has {} unknowns, the domain {}", n_, A.rows()));
    std::vector<char> on_boundary(static_cast<std::size_t>(n_), 0);
    for (Index b : boundary_) {
      if (on_boundary[static_cast<std::size_t>(b)])
        throw Error(fmt::format("ddm: boundary unknown {} listed twice", b));
      on_boundary[static_cast<std::size_t>(b)] = 1;
    }
    // Q's columns: each cluster's interior directions, then E_b.
    std::vector<Eigen::MatrixXd> bases;
    std::vector<char> covered = on_boundary;
    for (const auto& c : g.clusters) {
      Cluster cluster;
      Eigen::MatrixXd C = Eigen::MatrixXd::Zero(n_, c.coefficients.cols());
      for (std::size_t k = 0; k < c.groups.size(); ++k)
        for (Index r = 0; r < 3; ++r) {
          const Index row = 3 * c.groups[k] + r;
          if (on_boundary[static_cast<std::size_t>(row)]) continue;
          C.row(row) = c.coefficients.row(static_cast<Index>(3 * k) + r);
          cluster.rows.push_back(row);
          covered[static_cast<std::size_t>(row)] = 1;
        }
      bases.push_back(mass_orthonormal_span(std::move(C), M));
      cluster.offset = interior_;
      interior_ += bases.back().cols();
      clusters_.push_back(std::move(cluster));
    }
    if (std::find(covered.begin(), covered.end(), 0) != covered.end())
      throw Error("ddm: an interior unknown belongs to no CPCA cluster");
    const Index nb = static_cast<Index>(boundary_.size()), p = interior_ + nb;
    Eigen::MatrixXd Q = Eigen::MatrixXd::Zero(n_, p);
    for (std::size_t j = 0; j < clusters_.size(); ++j) {
      Cluster& c = clusters_[j];
      Q.middleCols(c.offset, bases[j].cols()) = bases[j];
      Eigen::MatrixXd rows(static_cast<Index>(c.rows.size()), bases[j].cols());
      for (std::size_t r = 0; r < c.rows.size(); ++r)
        rows.row(static_cast<Index>(r)) = bases[j].row(c.rows[r]);
      c.basis = rows.template cast<Scalar>();
      c.mass.resize(static_cast<Index>(c.rows.size()));
      for (std::size_t r = 0; r < c.rows.size(); ++r)
        c.mass[static_cast<Index>(r)] = M.coeff(c.rows[r], c.rows[r]);
    }
    for (Index b = 0; b < nb; ++b) Q(boundary_[static_cast<std::size_t>(b)], interior_ + b) = 1;
    // S = (Qᵀ A Q)⁻¹, symmetric positive definite for A SPD and Q of full column rank.
    const Eigen::MatrixXd reduced = Q.transpose() * (A * Q);
    interior_solve_.compute(reduced.topLeftCorner(interior_, interior_));  // Q_intᵀ A Q_int
    Eigen::LLT<Eigen::MatrixXd> llt(0.5 * (reduced + reduced.transpose()));
    if (llt.info() != Eigen::Success)
      throw Error("ddm: Qᵀ A Q of the clustering basis is not positive definite");
    Eigen::MatrixXd S = llt.solve(Eigen::MatrixXd::Identity(p, p));
    S = 0.5 * (S + S.transpose()).eval();
    block_ = S.bottomRightCorner(nb, nb);
    S_ = S.template cast<Scalar>();
    // project()'s metric: Qᵀ M Q = diag(I, M_bb) for a lumped M, else factored.
    if (!is_diagonal(M)) {
      const Eigen::MatrixXd mq = Q.transpose() * (M * Q);
      projection_.emplace(0.5 * (mq + mq.transpose()));
      Q_ = std::move(Q);
    }
    t_.resize(p);
    for (const Cluster& c : clusters_)
      stored_ += static_cast<std::size_t>(c.basis.size()) * sizeof(Scalar);
    budgeted_ = stored_ + static_cast<std::size_t>(p * p - nb * nb) * sizeof(Scalar);
    stored_ += static_cast<std::size_t>(S_.size()) * sizeof(Scalar) +
               static_cast<std::size_t>(block_.size()) * sizeof(double);
    if (projection_) stored_ += static_cast<std::size_t>(Q_.size() + p * p) * sizeof(double);
    stored_ += static_cast<std::size_t>(interior_ * interior_) * sizeof(double);
  }

  void apply(const Eigen::VectorXd& r, Eigen::VectorXd& y) override {
    // t = Qᵀ r, then y = Q (S t).
    for (Cluster& c : clusters_) {
      gather(r, c);
      t_.segment(c.offset, c.basis.cols()).noalias() = c.basis.transpose() * c.values;
    }
    for (std::size_t b = 0; b < boundary_.size(); ++b)
      t_[interior_ + static_cast<Index>(b)] = static_cast<Scalar>(r[boundary_[b]]);
    const Vector u = S_ * t_;
    y.setZero(n_);
    add_basis_times(u, 1, y);
  }
  const Eigen::MatrixXd& boundary_block() const override { return block_; }
  void subtract_boundary_response(const Eigen::VectorXd& z, Eigen::VectorXd& y) override {
    const Vector u = S_.rightCols(z.size()) * z.template cast<Scalar>();  // S_{:,b} z
    add_basis_times(u, -1, y);
  }
  std::size_t stored_bytes() const override { return stored_; }
  std::string description() const override {
    const double nodes = static_cast<double>(n_) / 3;
    return fmt::format(
        "clustering: Galerkin step on {} CPCA clusters' bases ({} interior directions) and {} "
        "boundary unknowns, {} precision, {:.1f} floats per node ({:.1f} with W's boundary "
        "block)",
        clusters_.size(), interior_, boundary_.size(), sizeof(Scalar) == 4 ? "single" : "double",
        static_cast<double>(budgeted_) / sizeof(Scalar) / nodes,
        static_cast<double>(stored_) / sizeof(Scalar) / nodes);
  }
  bool projects() const override { return true; }
  void project(Eigen::VectorXd& v) override {
    if (projection_) {  // v ← Q (QᵀMQ)⁻¹ Qᵀ M v
      const Eigen::VectorXd mv = M_ * v;
      v.noalias() = Q_ * projection_->solve(Q_.transpose() * mv);
      return;
    }
    // Lumped M: cluster by cluster v_j ← Q_j Q_jᵀ M_j v_j (Q_jᵀ M_j Q_j = I); E_b keeps v_b.
    for (Cluster& c : clusters_) {
      Eigen::VectorXd w(static_cast<Index>(c.rows.size()));
      for (std::size_t r = 0; r < c.rows.size(); ++r)
        w[static_cast<Index>(r)] = c.mass[static_cast<Index>(r)] * v[c.rows[r]];
      const Eigen::MatrixXd basis = c.basis.template cast<double>();
      const Eigen::VectorXd projected = basis * (basis.transpose() * w);
      for (std::size_t r = 0; r < c.rows.size(); ++r)
        v[c.rows[r]] = projected[static_cast<Index>(r)];
    }
  }
  void project_displacement(Eigen::VectorXd& q) override {
    // q_int ← Q_int β, β = (Q_intᵀ A Q_int)⁻¹ Q_intᵀ A q_int (q_int: q with its boundary values
    // zeroed): the error is A-orthogonal to the interior directions, the boundary values kept.
    Eigen::VectorXd interior = q;
    for (Index b : boundary_) interior[b] = 0;
    const Eigen::VectorXd aq = A_ * interior;
    Eigen::VectorXd t(interior_);
    for (const Cluster& c : clusters_) {
      const Eigen::MatrixXd basis = c.basis.template cast<double>();
      Eigen::VectorXd w(static_cast<Index>(c.rows.size()));
      for (std::size_t r = 0; r < c.rows.size(); ++r) w[static_cast<Index>(r)] = aq[c.rows[r]];
      t.segment(c.offset, basis.cols()) = basis.transpose() * w;
    }
    const Eigen::VectorXd beta = interior_solve_.solve(t);
    for (const Cluster& c : clusters_) {
      const Eigen::MatrixXd basis = c.basis.template cast<double>();
      const Eigen::VectorXd qi = basis * beta.segment(c.offset, basis.cols());
      for (std::size_t r = 0; r < c.rows.size(); ++r) q[c.rows[r]] = qi[static_cast<Index>(r)];
    }
  }

 private:
  struct Cluster {
    std::vector<Index> rows;  // its interior unknowns
    Index offset = 0;         // its first column of Q
    Matrix basis;             // Q_j on `rows`, M-orthonormal
    Eigen::VectorXd mass;     // M's diagonal on `rows`
    Vector values;            // scratch
  };
  static void gather(const Eigen::VectorXd& r, Cluster& c) {
    c.values.resize(static_cast<Index>(c.rows.size()));
    for (std::size_t k = 0; k < c.rows.size(); ++k)
      c.values[static_cast<Index>(k)] = static_cast<Scalar>(r[c.rows[k]]);
  }
  // y += sign · Q u.
  void add_basis_times(const Vector& u, double sign, Eigen::VectorXd& y) {
    for (Cluster& c : clusters_) {
      c.values.noalias() = c.basis * u.segment(c.offset, c.basis.cols());
      for (std::size_t k = 0; k < c.rows.size(); ++k)
        y[c.rows[k]] += sign * static_cast<double>(c.values[static_cast<Index>(k)]);
    }
    for (std::size_t b = 0; b < boundary_.size(); ++b)
      y[boundary_[b]] += sign * static_cast<double>(u[interior_ + static_cast<Index>(b)]);
  }

  Index n_ = 0;
  Index interior_ = 0;  // Σ_j columns of Q_j
  std::vector<Index> boundary_;
  SparseMatrix M_, A_;
  Eigen::LLT<Eigen::MatrixXd> interior_solve_;  // Q_intᵀ A Q_int
  std::vector<Cluster> clusters_;
  Matrix S_;                                               // (Qᵀ A Q)⁻¹
  Eigen::MatrixXd block_;                                  // S_bb = G̃_bb
  std::optional<Eigen::LLT<Eigen::MatrixXd>> projection_;  // QᵀMQ when M is not diagonal
  Eigen::MatrixXd Q_;                                      // Q, only then
  Vector t_;
  std::size_t stored_ = 0, budgeted_ = 0;
};

}  // namespace

std::unique_ptr<ForceDisplacement> make_galerkin_clustering(const CompressedInverse& compressed,
                                                            const SparseMatrix& A,
                                                            const SparseMatrix& M,
                                                            const std::vector<Index>& boundary,
                                                            bool float32) {
  if (float32) return std::make_unique<GalerkinClustering<float>>(compressed, A, M, boundary);
  return std::make_unique<GalerkinClustering<double>>(compressed, A, M, boundary);
}

}  // namespace substruct::ddm
