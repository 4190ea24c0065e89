// SPDX-License-Identifier: GPL-3.0-or-later
// The paper's baseline (Table 2, "CG-Based"): "the quantities involving A_i⁻¹ can be formed by
// solving some linear systems with matrix A_i … some iterative algorithms, such as the conjugate
// gradient (CG) solver, could be used". Every product is one Jacobi-preconditioned CG solve from a
// zero start, and the boundary columns G_{:,b} (one solve per boundary unknown) are recomputed
// every step, as a naive DDM does.
#include <utility>

#include <fmt/format.h>

#include <Eigen/IterativeLinearSolvers>

#include "force_displacement.hpp"
#include "substruct/core/error.hpp"

namespace substruct::ddm {
namespace {

class ConjugateGradients final : public ForceDisplacement {
 public:
  ConjugateGradients(const SparseMatrix& A, std::vector<Index> boundary, double tolerance,
                     int max_iterations)
      : A_(A), boundary_(std::move(boundary)) {
    cg_.setTolerance(tolerance);
    cg_.setMaxIterations(max_iterations);
    cg_.compute(A_);
    const Index n = static_cast<Index>(A_.rows());
    const Index nb = static_cast<Index>(boundary_.size());
    columns_ = Eigen::MatrixXd::Zero(n, nb);
    block_ = Eigen::MatrixXd::Zero(nb, nb);
    e_ = Eigen::VectorXd::Zero(n);
  }

  void begin_step() override {
    const Index nb = static_cast<Index>(boundary_.size());
    for (Index j = 0; j < nb; ++j) {
      e_[boundary_[static_cast<std::size_t>(j)]] = 1;
      columns_.col(j) = solve(e_);
      e_[boundary_[static_cast<std::size_t>(j)]] = 0;
    }
    for (Index i = 0; i < nb; ++i)
      block_.row(i) = columns_.row(boundary_[static_cast<std::size_t>(i)]);
  }

  void apply(const Eigen::VectorXd& r, Eigen::VectorXd& y) override { y = solve(r); }
  const Eigen::MatrixXd& boundary_block() const override { return block_; }
  void subtract_boundary_response(const Eigen::VectorXd& z, Eigen::VectorXd& y) override {
    y.noalias() -= columns_ * z;
  }
  std::size_t stored_bytes() const override {
    return static_cast<std::size_t>(A_.nonZeros() + columns_.size() + block_.size()) *
           sizeof(double);
  }
  std::string description() const override {
    return fmt::format(
        "cg: Jacobi-preconditioned CG to a relative residual of {:g}, {} columns "
        "recomputed per step",
        cg_.tolerance(), boundary_.size());
  }
  long take_iterations() override { return std::exchange(iterations_, 0); }

 private:
  Eigen::VectorXd solve(const Eigen::VectorXd& b) {
    Eigen::VectorXd x = cg_.solve(b);
    iterations_ += cg_.iterations();
    if (cg_.info() != Eigen::Success)
      throw Error(
          fmt::format("ddm: conjugate gradients stopped after {} iterations at a "
                      "relative residual of {:.3g} (ddm.cg_tolerance = {:g}; raise "
                      "ddm.cg_max_iterations)",
                      cg_.iterations(), cg_.error(), cg_.tolerance()));
    return x;
  }

  SparseMatrix A_;
  std::vector<Index> boundary_;
  Eigen::ConjugateGradient<SparseMatrix, Eigen::Lower | Eigen::Upper,
                           Eigen::DiagonalPreconditioner<double>>
      cg_;
  Eigen::MatrixXd columns_, block_;
  Eigen::VectorXd e_;
  long iterations_ = 0;
};

}  // namespace

std::unique_ptr<ForceDisplacement> make_cg(const SparseMatrix& A,
                                           const std::vector<Index>& boundary, double tolerance,
                                           int max_iterations) {
  return std::make_unique<ConjugateGradients>(A, boundary, tolerance, max_iterations);
}

}  // namespace substruct::ddm
