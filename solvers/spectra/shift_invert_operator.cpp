// SPDX-License-Identifier: GPL-3.0-or-later
#include "shift_invert_operator.hpp"

#include <optional>

#include "cholesky_factor.hpp"
#include "lu_factor.hpp"
#include "substruct/core/error.hpp"

namespace substruct::spectra_plugin {

using cholmod_plugin::CholeskyFactor;
using cholmod_plugin::Factorization;
using cholmod_plugin::LuFactor;
using cholmod_plugin::Ordering;

struct ShiftInvertOperator::Factors {
  std::optional<CholeskyFactor> cholesky;
  std::optional<LuFactor> lu;
  mutable Eigen::VectorXd b, x;  // solve workspace
};

ShiftInvertOperator::ShiftInvertOperator(const SparseMatrix& K, const SparseMatrix& M)
    : K_(K), M_(M), factors_(std::make_unique<Factors>()) {}

ShiftInvertOperator::~ShiftInvertOperator() = default;
ShiftInvertOperator::ShiftInvertOperator(ShiftInvertOperator&&) noexcept = default;

void ShiftInvertOperator::set_shift(double sigma) {
  const SparseMatrix A = K_ - sigma * M_;
  Factors& f = *factors_;
  f.cholesky.reset();
  f.lu.reset();
  try {
    f.cholesky.emplace(Ordering::amd, Factorization::automatic);
    f.cholesky->analyze(A);
    f.cholesky->factorize(A);
    return;
  } catch (const Error&) {
    f.cholesky.reset();  // not positive definite: σ lies above the lowest eigenvalue
  }
  f.lu.emplace(Ordering::amd);
  f.lu->analyze(A);
  f.lu->factorize(A);
}

void ShiftInvertOperator::perform_op(const double* x, double* y) const {
  const Factors& f = *factors_;
  f.b = Eigen::Map<const Eigen::VectorXd>(x, rows());
  if (f.cholesky)
    f.cholesky->solve(f.b, f.x);
  else if (f.lu)
    f.lu->solve(f.b, f.x);
  else
    throw Error("spectra: shift-and-invert applied before a shift was set");
  Eigen::Map<Eigen::VectorXd>(y, rows()) = f.x;
}

std::string ShiftInvertOperator::method() const {
  if (factors_->cholesky) return factors_->cholesky->method();
  if (factors_->lu) return factors_->lu->method();
  return "not factored";
}

void MassProduct::perform_op(const double* x, double* y) const {
  Eigen::Map<Eigen::VectorXd>(y, rows()).noalias() =
      M_ * Eigen::Map<const Eigen::VectorXd>(x, rows());
}

}  // namespace substruct::spectra_plugin
