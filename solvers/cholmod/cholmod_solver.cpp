// SPDX-License-Identifier: GPL-3.0-or-later
// cholmod: the sparse direct linear solver. Symmetric positive definite matrices are factored by
// CHOLMOD (A = P L Lᵀ Pᵀ, supernodal or simplicial), all others by UMFPACK (P A Q = L U). The
// symbolic analysis is done once by analyze() and reused by every factorize() of a matrix with
// the same pattern, which is checked.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cholesky_factor.hpp"
#include "lu_factor.hpp"
#include "ordering.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct::cholmod_plugin {
namespace {

// The [cholmod] section.
struct CholmodSettings {
  Ordering ordering = Ordering::amd;
  Factorization factorization = Factorization::automatic;
};

const OptionSet<CholmodSettings>& cholmod_options() {
  using S = CholmodSettings;
  static const auto options =
      OptionSet<S>("cholmod", "sparse direct solver (CHOLMOD LLᵀ; UMFPACK LU when not SPD)")
          .choice(
              "ordering", &S::ordering,
              {{"amd", Ordering::amd}, {"metis", Ordering::metis}, {"natural", Ordering::natural}},
              "fill-reducing ordering")
          .choice("factorization", &S::factorization,
                  {{"auto", Factorization::automatic},
                   {"simplicial", Factorization::simplicial},
                   {"supernodal", Factorization::supernodal}},
                  "Cholesky form: auto (CHOLMOD chooses by the flop count per nonzero), "
                  "simplicial or supernodal");
  return options;
}

const OptionTable& options() {
  return cholmod_options().table();
}

// Every entry of a symmetric matrix stored in one triangle only, for LU.
SparseMatrix full_symmetric(const SparseMatrix& A) {
  bool lower = false, upper = false;
  for (int col = 0; col < A.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(A, col); it; ++it) {
      lower |= it.row() > col;
      upper |= it.row() < col;
    }
  if (lower == upper) return A;
  SparseMatrix strict = lower ? SparseMatrix(A.triangularView<Eigen::StrictlyLower>())
                              : SparseMatrix(A.triangularView<Eigen::StrictlyUpper>());
  SparseMatrix full = A + SparseMatrix(strict.transpose());
  full.makeCompressed();
  return full;
}

class CholmodSolver final : public LinearSolver {
 public:
  CholmodSolver(Ordering ordering, Factorization factorization)
      : ordering_(ordering), factorization_(factorization) {}

  void analyze(const SparseMatrix& A, const MatrixProperties& properties) override {
    if (A.rows() != A.cols())
      throw Error(fmt::format("cholmod: the matrix must be square, got {}×{}", A.rows(), A.cols()));
    if (A.rows() == 0) throw Error("cholmod: the matrix is empty (0×0)");
    properties_ = properties;
    const SparseMatrix& B = prepared(A);
    outer_.assign(B.outerIndexPtr(), B.outerIndexPtr() + B.outerSize() + 1);
    inner_.assign(B.innerIndexPtr(), B.innerIndexPtr() + B.nonZeros());
    factorized_ = false;
    if (cholesky()) {
      lu_.reset();
      if (!cholesky_) cholesky_ = std::make_unique<CholeskyFactor>(ordering_, factorization_);
      cholesky_->analyze(B);
    } else {
      cholesky_.reset();
      if (!lu_) lu_ = std::make_unique<LuFactor>(ordering_);
      lu_->analyze(B);
    }
  }

  void factorize(const SparseMatrix& A) override {
    if (outer_.empty()) throw Error("cholmod: factorize() before analyze()");
    factorized_ = false;
    const SparseMatrix& B = prepared(A);
    if (!same_pattern(B))
      throw Error(fmt::format(
          "cholmod: the matrix to factor ({}×{}, {} stored entries) does not "
          "have the pattern that was analysed ({}×{}, {} entries); call "
          "analyze() again",
          A.rows(), A.cols(), B.nonZeros(), outer_.size() - 1, outer_.size() - 1, inner_.size()));
    if (cholesky())
      cholesky_->factorize(B);
    else
      lu_->factorize(B);
    factorized_ = true;
  }

  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const override {
    if (!factorized_) throw Error("cholmod: solve() without a successful factorize()");
    const auto n = static_cast<Eigen::Index>(outer_.size() - 1);
    if (b.size() != n)
      throw Error(fmt::format("cholmod: the right-hand side has {} entries, the matrix {} rows",
                              b.size(), n));
    if (cholesky())
      cholesky_->solve(b, x);
    else
      lu_->solve(b, x);
  }

  FactorizationInfo info() const override {
    if (cholesky_) return {cholesky_->factor_nonzeros(), cholesky_->method()};
    if (lu_) return {lu_->factor_nonzeros(), lu_->method()};
    return {0, "not analysed"};
  }

 private:
  bool cholesky() const { return properties_.symmetric && properties_.positive_definite; }

  // A compressed, and for LU of a symmetric matrix stored as one triangle, completed.
  const SparseMatrix& prepared(const SparseMatrix& A) {
    if (!cholesky() && properties_.symmetric) {
      scratch_ = full_symmetric(A);
      scratch_.makeCompressed();
      return scratch_;
    }
    if (A.isCompressed()) return A;
    scratch_ = A;
    scratch_.makeCompressed();
    return scratch_;
  }

  bool same_pattern(const SparseMatrix& B) const {
    if (static_cast<std::size_t>(B.outerSize()) + 1 != outer_.size() ||
        static_cast<std::size_t>(B.nonZeros()) != inner_.size() || B.rows() != B.cols())
      return false;
    return std::equal(outer_.begin(), outer_.end(), B.outerIndexPtr()) &&
           std::equal(inner_.begin(), inner_.end(), B.innerIndexPtr());
  }

  Ordering ordering_;
  Factorization factorization_;
  MatrixProperties properties_;
  std::vector<int> outer_, inner_;  // the analysed pattern
  bool factorized_ = false;
  SparseMatrix scratch_;
  std::unique_ptr<CholeskyFactor> cholesky_;
  std::unique_ptr<LuFactor> lu_;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  const CholmodSettings settings = cholmod_options().read(context.config);
  return std::make_unique<CholmodSolver>(settings.ordering, settings.factorization);
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "cholmod",
      PluginKind::linear_solver,
      SUBSTRUCT_VERSION,
      "sparse direct solver: CHOLMOD supernodal/simplicial LLᵀ for SPD matrices, UMFPACK LU "
      "otherwise; analysis reused across factorizations",
      &options,
      &create};
  return d;
}

}  // namespace substruct::cholmod_plugin

SUBSTRUCT_PLUGIN(substruct::cholmod_plugin::descriptor)
