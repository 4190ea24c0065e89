// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The operator y = (K − σM)⁻¹ x of shift-and-invert, in the form Spectra's generalized solvers
// call (set_shift, perform_op on raw arrays): K − σM is factored once per shift by CHOLMOD's
// LLᵀ, or by UMFPACK's LU when it is not positive definite (σ above the lowest eigenvalue).
#include <memory>
#include <string>

#include "substruct/core/types.hpp"

namespace substruct::spectra_plugin {

class ShiftInvertOperator {
 public:
  using Scalar = double;

  ShiftInvertOperator(const SparseMatrix& K, const SparseMatrix& M);
  ~ShiftInvertOperator();
  ShiftInvertOperator(ShiftInvertOperator&&) noexcept;
  ShiftInvertOperator& operator=(ShiftInvertOperator&&) = delete;

  Eigen::Index rows() const { return K_.rows(); }
  Eigen::Index cols() const { return K_.rows(); }
  /// Factors K − σM. Throws Error when it is singular (σ an eigenvalue).
  void set_shift(double sigma);
  /// y = (K − σM)⁻¹ x.
  void perform_op(const double* x, double* y) const;

  /// "CHOLMOD supernodal LLᵀ, AMD ordering" or the LU's, after set_shift().
  std::string method() const;

 private:
  struct Factors;
  const SparseMatrix& K_;
  const SparseMatrix& M_;
  std::unique_ptr<Factors> factors_;
};

/// y = M x, for Spectra's B operator.
class MassProduct {
 public:
  using Scalar = double;
  explicit MassProduct(const SparseMatrix& M) : M_(M) {}
  Eigen::Index rows() const { return M_.rows(); }
  Eigen::Index cols() const { return M_.rows(); }
  void perform_op(const double* x, double* y) const;

 private:
  const SparseMatrix& M_;
};

}  // namespace substruct::spectra_plugin
