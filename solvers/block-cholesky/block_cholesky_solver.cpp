// SPDX-License-Identifier: GPL-3.0-or-later
// block-cholesky: the block-sparse direct linear solver of systems whose unknowns come in blocks
// (one per domain) coupled along a block graph (the interfaces), like the coupling-elements
// method's A Q' = b (Wu, Mukherjee & Wang 2015, §4.3). The caller passes the blocks to analyze()
// (MatrixProperties::blocks); without them analyze() is an error (this solver is not meant for
// FEM matrices without a block structure: use cholmod there).
//
// analyze(): the block elimination order (leaves first on a forest, which creates no fill;
// minimum degree on the block graph when it has loops) and the symbolic block fill; A's pattern
// must lie in the declared blocks. factorize(): dense-block LLᵀ for symmetric positive definite
// matrices, else block LU with partial pivoting inside the diagonal blocks. A matrix whose
// pattern changes within the declared blocks is factored without a new analysis.
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "block_cholesky_kernel.hpp"
#include "block_graph.hpp"
#include "block_lu_kernel.hpp"
#include "block_ordering.hpp"
#include "block_pattern.hpp"
#include "block_storage.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct::block_cholesky {
namespace {

// The [block-cholesky] section.
struct BlockCholeskySettings {
  Ordering ordering = Ordering::automatic;
};

const OptionSet<BlockCholeskySettings>& block_cholesky_options() {
  static const auto options =
      OptionSet<BlockCholeskySettings>(
          "block-cholesky", "block-sparse Cholesky (LU when not SPD) ordered by the block graph")
          .choice("ordering", &BlockCholeskySettings::ordering,
                  {{"auto", Ordering::automatic},
                   {"tree", Ordering::tree},
                   {"min-degree", Ordering::min_degree},
                   {"natural", Ordering::natural}},
                  "block elimination order: auto (tree when the block graph has no loop, else "
                  "min-degree), tree (leaves first: no fill), min-degree or natural");
  return options;
}

const OptionTable& options() {
  return block_cholesky_options().table();
}

// Which entries of A to read: for Cholesky one triangle (the lower when A stores any entry below
// the diagonal); for LU all of them, mirroring a symmetric matrix stored as one triangle.
Entries entries_to_read(const SparseMatrix& A, const MatrixProperties& properties) {
  bool lower = false, upper = false;
  for (int col = 0; col < A.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(A, col); it; ++it) {
      lower |= it.row() > col;
      upper |= it.row() < col;
    }
  if (properties.symmetric && properties.positive_definite)
    return lower ? Entries::lower : Entries::upper;
  return properties.symmetric && lower != upper ? Entries::mirrored : Entries::all;
}

class BlockCholeskySolver final : public LinearSolver {
 public:
  explicit BlockCholeskySolver(Ordering ordering) : ordering_(ordering) {}

  void analyze(const SparseMatrix& A, const MatrixProperties& properties) override {
    storage_.reset();
    factorized_ = false;
    graph_.reset();
    if (properties.blocks.empty())
      throw Error(
          "block-cholesky: no block structure: the caller must pass the blocks to analyze() "
          "(MatrixProperties::blocks: block offsets and couplings, e.g. one block per domain); "
          "for a sparse matrix without blocks use [solvers] linear = cholmod");
    graph_.emplace(properties.blocks);
    if (A.rows() != A.cols())
      throw Error(
          fmt::format("block-cholesky: the matrix must be square, got {}×{}", A.rows(), A.cols()));
    if (A.rows() != graph_->num_unknowns())
      throw Error(
          fmt::format("block-cholesky: the matrix has {} rows but the {} blocks given to analyze() "
                      "hold {} unknowns",
                      A.rows(), graph_->num_blocks(), graph_->num_unknowns()));
    properties_ = properties;
    factorized_ = false;
    storage_.reset();
    BlockPattern pattern = symbolic_factor(*graph_, elimination_order(*graph_, ordering_));
    auto storage = std::make_unique<BlockStorage>(*graph_, std::move(pattern), !cholesky());
    const SparseMatrix& B = compressed(A);
    storage->map_entries(*graph_, B, entries_to_read(B, properties_));
    storage_ = std::move(storage);
  }

  void factorize(const SparseMatrix& A) override {
    if (!storage_) throw Error("block-cholesky: factorize() before analyze()");
    factorized_ = false;
    const SparseMatrix& B = compressed(A);
    if (B.rows() != graph_->num_unknowns() || B.cols() != graph_->num_unknowns())
      throw Error(
          fmt::format("block-cholesky: the matrix to factor is {}×{}, the analysed one {}×{}",
                      B.rows(), B.cols(), graph_->num_unknowns(), graph_->num_unknowns()));
    if (!storage_->mapped(B)) storage_->map_entries(*graph_, B, entries_to_read(B, properties_));
    storage_->load(B);
    if (cholesky())
      cholesky_factorize(*storage_);
    else
      lu_.factorize(*storage_);
    factorized_ = true;
  }

  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const override {
    if (!factorized_) throw Error("block-cholesky: solve() without a successful factorize()");
    if (b.size() != graph_->num_unknowns())
      throw Error(
          fmt::format("block-cholesky: the right-hand side has {} entries, the matrix {} rows",
                      b.size(), graph_->num_unknowns()));
    x = b;
    if (cholesky())
      cholesky_solve(*storage_, x);
    else
      lu_.solve(*storage_, x);
  }

  FactorizationInfo info() const override {
    if (!storage_) return {0, "not analysed"};
    const BlockPattern& pattern = storage_->pattern();
    const std::string fill = pattern.fill_blocks == 0
                                 ? "no fill"
                                 : fmt::format("{} fill block{}", pattern.fill_blocks,
                                               pattern.fill_blocks == 1 ? "" : "s");
    return {storage_->factor_nonzeros(),
            fmt::format("{}, {} blocks, {} order, {}",
                        cholesky() ? "block Cholesky" : "block LU (pivoting inside blocks)",
                        pattern.num_blocks(), pattern.order.name, fill)};
  }

 private:
  bool cholesky() const { return properties_.symmetric && properties_.positive_definite; }

  const SparseMatrix& compressed(const SparseMatrix& A) {
    if (A.isCompressed()) return A;
    scratch_ = A;
    scratch_.makeCompressed();
    return scratch_;
  }

  Ordering ordering_;
  MatrixProperties properties_;
  std::optional<BlockGraph> graph_;
  std::unique_ptr<BlockStorage> storage_;
  BlockLu lu_;
  bool factorized_ = false;
  SparseMatrix scratch_;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<BlockCholeskySolver>(
      block_cholesky_options().read(context.config).ordering);
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "block-cholesky",
      PluginKind::linear_solver,
      SUBSTRUCT_VERSION,
      "block-sparse Cholesky (block LU when not SPD) with dense blocks, ordered by the block "
      "graph (leaves first on a tree: no fill); needs the caller's block structure",
      &options,
      &create};
  return d;
}

}  // namespace substruct::block_cholesky

SUBSTRUCT_PLUGIN(substruct::block_cholesky::descriptor)
