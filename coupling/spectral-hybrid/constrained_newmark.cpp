// SPDX-License-Identifier: GPL-3.0-or-later
#include "constrained_newmark.hpp"

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::spectral_hybrid {

ConstrainedNewmark::ConstrainedNewmark(Eigen::VectorXd lambda, double xi, double zeta,
                                       std::unique_ptr<LinearSolver> solver)
    : lambda_(std::move(lambda)), solver_(std::move(solver)) {
  c_ = (xi + zeta * lambda_.array()).matrix();  // Ĉ = ξI + ζΛ
}

void ConstrainedNewmark::factor(const Eigen::MatrixXd& J, double h) {
  h_ = h;
  a_inv_ = (1.0 + kGamma * h * c_.array() + kBeta * h * h * lambda_.array()).inverse().matrix();
  J_ = J;
  const Index m = J.rows();
  if (m == 0) return;
  JA_ = J * a_inv_.asDiagonal();
  const Eigen::MatrixXd S = JA_ * J.transpose();
  // Dense S as a sparse matrix: every entry stored, so the pattern never changes between calls.
  if (S_.rows() != m) {
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(static_cast<std::size_t>(m * m));
    for (Index j = 0; j < m; ++j)
      for (Index i = 0; i < m; ++i) t.emplace_back(i, j, S(i, j));
    S_.resize(m, m);
    S_.setFromTriplets(t.begin(), t.end());
    analysed_ = false;
  } else {
    Eigen::Map<Eigen::MatrixXd>(S_.valuePtr(), m, m) = S;  // column-major, all entries
  }
  if (!analysed_) {
    solver_->analyze(S_, MatrixProperties{true, true, {}});
    analysed_ = true;
  }
  try {
    solver_->factorize(S_);
  } catch (const Error& e) {
    throw Error(
        fmt::format("the constraint system J A⁻¹ Jᵀ ({} rows) cannot be factored: {} (rows nearly "
                    "dependent: raise dependent_tolerance or constrain fewer boundary nodes)",
                    m, e.what()));
  }
}

void ConstrainedNewmark::predict(const NewmarkState& s, Eigen::VectorXd& q_pred,
                                 Eigen::VectorXd& qdot_pred) const {
  const double h = h_;
  q_pred = s.q + h * s.qdot + (0.5 * h * h * (1 - 2 * kBeta)) * s.qddot;
  qdot_pred = s.qdot + ((1 - kGamma) * h) * s.qddot;
}

void ConstrainedNewmark::solve(const Eigen::VectorXd& f_hat, const Eigen::VectorXd& q_pred,
                               const Eigen::VectorXd& qdot_pred, const Eigen::VectorXd& d,
                               NewmarkState& s) {
  b_ = f_hat - c_.cwiseProduct(qdot_pred) - lambda_.cwiseProduct(q_pred);
  if (J_.rows() > 0) {
    rhs_.noalias() = JA_ * b_;
    rhs_ -= d;
    solver_->solve(rhs_, mu_);
    b_.noalias() -= J_.transpose() * mu_;
  }
  s.qddot = a_inv_.cwiseProduct(b_);
  s.q = q_pred + (kBeta * h_ * h_) * s.qddot;
  s.qdot = qdot_pred + (kGamma * h_) * s.qddot;
}

}  // namespace substruct::spectral_hybrid
