// SPDX-License-Identifier: GPL-3.0-or-later
// §5.2, the hybrid method: "(1) compute and reuse the Cholesky factorization of A_i to solve the
// linear systems with matrix A_i; (2) compute and reuse the force-displacement vectors of the
// boundary nodes for on-the-fly calculation of B_i R_i (A_i⁻¹ (R_iᵀ B_iᵀ))".
#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "force_displacement.hpp"
#include "substruct/core/log.hpp"

namespace substruct::ddm {
namespace {

class Hybrid final : public ForceDisplacement {
 public:
  Hybrid(const SparseMatrix& A, std::vector<Index> boundary, std::unique_ptr<LinearSolver> solver,
         HybridCorrection correction)
      : boundary_(std::move(boundary)), solver_(std::move(solver)) {
    solver_->analyze(A, MatrixProperties{true, true, {}});
    solver_->factorize(A);
    const Index n = static_cast<Index>(A.rows());
    const Index nb = static_cast<Index>(boundary_.size());
    // G_{:,b}: one solve per boundary unknown, A g_j = e_j (§5.1, "compute G's j-th column").
    columns_.resize(n, nb);
    Eigen::VectorXd e = Eigen::VectorXd::Zero(n), g(n);
    for (Index j = 0; j < nb; ++j) {
      e[boundary_[static_cast<std::size_t>(j)]] = 1;
      solver_->solve(e, g);
      columns_.col(j) = g;
      e[boundary_[static_cast<std::size_t>(j)]] = 0;
    }
    block_.resize(nb, nb);
    for (Index i = 0; i < nb; ++i)
      block_.row(i) = columns_.row(boundary_[static_cast<std::size_t>(i)]);
    block_ = 0.5 * (block_ + block_.transpose()).eval();  // G is symmetric; remove round-off
    scratch_ = Eigen::VectorXd::Zero(n);
    result_.resize(n);
    use_columns_ = choose(correction);
    if (!use_columns_) columns_.resize(0, 0);
  }

  void apply(const Eigen::VectorXd& r, Eigen::VectorXd& y) override { solver_->solve(r, y); }
  const Eigen::MatrixXd& boundary_block() const override { return block_; }

  void subtract_boundary_response(const Eigen::VectorXd& z, Eigen::VectorXd& y) override {
    if (use_columns_) {
      y.noalias() -= columns_ * z;
      return;
    }
    for (std::size_t j = 0; j < boundary_.size(); ++j)
      scratch_[boundary_[j]] = z[static_cast<Index>(j)];
    solver_->solve(scratch_, result_);
    for (Index b : boundary_) scratch_[b] = 0;
    y -= result_;
  }

  std::size_t stored_bytes() const override {
    return static_cast<std::size_t>(solver_->info().factor_nonzeros + block_.size() +
                                    columns_.size()) *
           sizeof(double);
  }
  std::string description() const override {
    return fmt::format("hybrid: {}, {} factor entries; G_bb {}×{}; correction by {}",
                       solver_->info().method, solver_->info().factor_nonzeros, block_.rows(),
                       block_.cols(),
                       use_columns_ ? "the stored boundary columns" : "a second solve");
  }

 private:
  // Stored columns (a dense product, n_f × 3n_b multiply-adds) or a second solve (a forward and
  // a backward substitution through the factor's entries, each costing about kSparseEntryCost
  // dense multiply-adds: indirect addressing, no vectorization), or as the user says. Chosen from
  // the sizes, not timed: a choice by the clock could differ from one run to the next (under
  // load), and with it the last bits of the results.
  bool choose(HybridCorrection correction) {
    if (correction != HybridCorrection::automatic) return correction == HybridCorrection::columns;
    if (boundary_.empty()) return true;
    constexpr double kSparseEntryCost = 4;
    const double by_columns = double(columns_.size());
    const double by_solve = kSparseEntryCost * 2 * double(solver_->info().factor_nonzeros);
    log::debug(
        "ddm: hybrid correction: second solve ≈ {:.3g}, stored columns ≈ {:.3g} "
        "multiply-adds",
        by_solve, by_columns);
    return by_columns <= by_solve;
  }

  std::vector<Index> boundary_;
  std::unique_ptr<LinearSolver> solver_;
  Eigen::MatrixXd columns_;  // G_{:,b}, n_f × 3n_b (empty when a second solve is used)
  Eigen::MatrixXd block_;    // G_bb
  Eigen::VectorXd scratch_, result_;
  bool use_columns_ = true;
};

}  // namespace

std::unique_ptr<ForceDisplacement> make_hybrid(const SparseMatrix& A,
                                               const std::vector<Index>& boundary,
                                               std::unique_ptr<LinearSolver> solver,
                                               HybridCorrection correction) {
  return std::make_unique<Hybrid>(A, boundary, std::move(solver), correction);
}

}  // namespace substruct::ddm
