// SPDX-License-Identifier: GPL-3.0-or-later
// eigen-ldlt: a sparse direct linear solver of symmetric matrices, A = P⁻¹ L D Lᵀ P, by Eigen's
// SimplicialLDLT (no pivoting, so symmetric positive definite matrices and the quasi-definite
// ones it meets no zero pivot on). The symbolic analysis (fill-reducing ordering, elimination
// tree) is done once by analyze() and reused by every factorize() of a matrix of the same
// pattern, which is checked.
//
// It is also the example of a solver plugin written outside the substruct tree: everything it
// uses comes from the installed headers (README.md walks through it).
#include <algorithm>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>

#include <substruct/config/config.hpp>
#include <substruct/core/error.hpp>
#include <substruct/options/options.hpp>
#include <substruct/plugin/plugin_descriptor.hpp>
#include <substruct/solvers/linear_solver.hpp>

namespace eigen_ldlt {
namespace {

using namespace substruct;

// 1. The options: the plugin's [eigen-ldlt] section, declared once.
enum class Ordering { amd, natural };

struct LdltSettings {
  Ordering ordering = Ordering::amd;
};

const OptionSet<LdltSettings>& ldlt_options() {
  static const auto options =
      OptionSet<LdltSettings>("eigen-ldlt", "sparse LDLᵀ of symmetric matrices (Eigen)")
          .choice("ordering", &LdltSettings::ordering,
                  {{"amd", Ordering::amd}, {"natural", Ordering::natural}},
                  "fill-reducing ordering: approximate minimum degree, or none");
  return options;
}

const OptionTable& options() {
  return ldlt_options().table();
}

// 2. The matrix as SimplicialLDLT reads it: its lower triangle. A caller may store a symmetric
//    matrix whole or as one triangle; an upper one is transposed.
SparseMatrix lower_triangle(const SparseMatrix& A) {
  bool upper = false, lower = false;
  for (int col = 0; col < A.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(A, col); it; ++it) {
      lower |= it.row() > col;
      upper |= it.row() < col;
    }
  SparseMatrix L = upper && !lower ? SparseMatrix(A.transpose()) : A;
  L = L.triangularView<Eigen::Lower>();
  L.makeCompressed();
  return L;
}

using AmdLdlt = Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower, Eigen::AMDOrdering<int>>;
using NaturalLdlt = Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower, Eigen::NaturalOrdering<int>>;

// 3. The solver: the four calls of substruct::LinearSolver (solvers/linear_solver.hpp).
class EigenLdltSolver final : public LinearSolver {
 public:
  explicit EigenLdltSolver(const LdltSettings& settings) : settings_(settings) {
    if (settings.ordering == Ordering::natural) ldlt_.emplace<NaturalLdlt>();
  }

  void analyze(const SparseMatrix& A, const MatrixProperties& properties) override {
    if (A.rows() != A.cols() || A.rows() == 0)
      throw Error(fmt::format("eigen-ldlt: the matrix must be square and not empty, got {}×{}",
                              A.rows(), A.cols()));
    if (!properties.symmetric)
      throw Error(
          "eigen-ldlt: the matrix is not symmetric; LDLᵀ needs a symmetric one (choose "
          "[solvers] linear = cholmod, whose LU solves it)");
    pattern_ = lower_triangle(A);
    factorized_ = false;
    std::visit([&](auto& ldlt) { ldlt.analyzePattern(pattern_); }, ldlt_);
  }

  void factorize(const SparseMatrix& A) override {
    if (pattern_.rows() == 0) throw Error("eigen-ldlt: factorize() before analyze()");
    factorized_ = false;
    const SparseMatrix L = lower_triangle(A);
    if (!same_pattern(L))
      throw Error(fmt::format(
          "eigen-ldlt: the matrix to factor ({} entries in its lower triangle) does not have "
          "the pattern that was analysed ({} entries); call analyze() again",
          L.nonZeros(), pattern_.nonZeros()));
    const bool ok = std::visit(
        [&](auto& ldlt) {
          ldlt.factorize(L);
          return ldlt.info() == Eigen::Success;
        },
        ldlt_);
    if (!ok)
      throw Error(
          fmt::format("eigen-ldlt: the {}×{} matrix has a zero pivot (singular, or not "
                      "factorable without pivoting)",
                      L.rows(), L.cols()));
    factorized_ = true;
  }

  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const override {
    if (!factorized_) throw Error("eigen-ldlt: solve() without a successful factorize()");
    if (b.size() != pattern_.rows())
      throw Error(fmt::format("eigen-ldlt: the right-hand side has {} entries, the matrix {} rows",
                              b.size(), pattern_.rows()));
    std::visit([&](const auto& ldlt) { x = ldlt.solve(b); }, ldlt_);
  }

  FactorizationInfo info() const override {
    if (!factorized_) return {0, "not factorized"};
    const long nonzeros = std::visit(
        [](const auto& ldlt) { return long(ldlt.matrixL().nestedExpression().nonZeros()); }, ldlt_);
    return {nonzeros + pattern_.rows(),
            fmt::format("Eigen SimplicialLDLT, {} ordering",
                        settings_.ordering == Ordering::amd ? "AMD" : "natural")};
  }

 private:
  bool same_pattern(const SparseMatrix& L) const {
    return L.rows() == pattern_.rows() && L.nonZeros() == pattern_.nonZeros() &&
           std::equal(L.outerIndexPtr(), L.outerIndexPtr() + L.outerSize() + 1,
                      pattern_.outerIndexPtr()) &&
           std::equal(L.innerIndexPtr(), L.innerIndexPtr() + L.nonZeros(),
                      pattern_.innerIndexPtr());
  }

  LdltSettings settings_;
  std::variant<AmdLdlt, NaturalLdlt> ldlt_;
  SparseMatrix pattern_;  // the analysed lower triangle
  bool factorized_ = false;
};

// 4. The descriptor: name (also its config section), kind, version, summary, options, factory.
std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<EigenLdltSolver>(ldlt_options().read(context.config));
}

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{"eigen-ldlt",
                                  PluginKind::linear_solver,
                                  "0.1.0",
                                  "sparse LDLᵀ of symmetric matrices: Eigen's SimplicialLDLT, AMD "
                                  "or natural ordering; analysis reused across factorizations",
                                  &options,
                                  &create};
  return d;
}

}  // namespace
}  // namespace eigen_ldlt

SUBSTRUCT_PLUGIN(eigen_ldlt::descriptor)
