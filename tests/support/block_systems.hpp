// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Block-sparse test systems: block graphs (chain, star, ring, grid, trees) and random matrices on
// them, block diagonally dominant so that they are well conditioned: symmetric positive definite,
// or unsymmetric with non-singular Schur-complement diagonal blocks. Deterministic (seeded).
#include <algorithm>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct::testing {

using Couplings = std::vector<std::pair<int, int>>;

inline Couplings chain_graph(int d) {
  Couplings c;
  for (int i = 0; i + 1 < d; ++i) c.emplace_back(i, i + 1);
  return c;
}

/// Hub 0 coupled with every other block.
inline Couplings star_graph(int d) {
  Couplings c;
  for (int i = 1; i < d; ++i) c.emplace_back(0, i);
  return c;
}

inline Couplings ring_graph(int d) {
  Couplings c = chain_graph(d);
  c.emplace_back(d - 1, 0);
  return c;
}

/// rows × cols blocks, block r·cols + c coupled with its right and lower neighbours.
inline Couplings grid_graph(int rows, int cols) {
  Couplings c;
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < cols; ++k) {
      if (k + 1 < cols) c.emplace_back(r * cols + k, r * cols + k + 1);
      if (r + 1 < rows) c.emplace_back(r * cols + k, (r + 1) * cols + k);
    }
  return c;
}

/// A random tree (each block hangs from a random earlier one), blocks relabelled at random.
inline Couplings random_tree_graph(int d, std::mt19937& rng) {
  std::vector<int> label(d);
  std::iota(label.begin(), label.end(), 0);
  std::shuffle(label.begin(), label.end(), rng);
  Couplings c;
  for (int i = 1; i < d; ++i)
    c.emplace_back(label[std::uniform_int_distribution<int>(0, i - 1)(rng)], label[i]);
  return c;
}

/// An armadillo-like tree of 11 domains (Wu et al. 2015, Fig. 4): torso 0, head 1, arms 2 3,
/// legs 4 5, tail 6, ears 7 8 on the head, hands 9 10 on the arms.
inline Couplings armadillo_graph() {
  return {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {1, 7}, {1, 8}, {2, 9}, {3, 10}};
}

inline BlockStructure block_structure(const std::vector<Index>& sizes, Couplings couplings) {
  BlockStructure s;
  s.offsets.assign(1, 0);
  for (Index n : sizes) s.offsets.push_back(s.offsets.back() + n);
  s.couplings = std::move(couplings);
  return s;
}

/// A random matrix on the blocks: dense coupling blocks of N(0, 1) entries, diagonal blocks a
/// random dense part plus a multiple of the identity larger than the norms of the block row and
/// column (block diagonal dominance). Symmetric positive definite when `symmetric`, else every
/// block independent. Both triangles are stored.
inline SparseMatrix random_block_matrix(const BlockStructure& s, bool symmetric,
                                        std::mt19937& rng) {
  std::normal_distribution<double> normal;
  const auto random = [&](Index rows, Index cols) {
    Eigen::MatrixXd M(rows, cols);
    for (Index k = 0; k < M.size(); ++k) M(k) = normal(rng);
    return M;
  };
  const int d = static_cast<int>(s.offsets.size()) - 1;
  const auto size = [&](int b) { return s.offsets[b + 1] - s.offsets[b]; };
  std::vector<Eigen::Triplet<double>> triplets;
  const auto put = [&](int bi, int bj, const Eigen::MatrixXd& M) {
    for (Index c = 0; c < M.cols(); ++c)
      for (Index r = 0; r < M.rows(); ++r)
        triplets.emplace_back(s.offsets[bi] + r, s.offsets[bj] + c, M(r, c));
  };
  std::vector<double> off_diagonal_norm(d, 0.0);
  for (const auto& [a, b] : s.couplings) {
    const Eigen::MatrixXd C = random(size(a), size(b));
    const Eigen::MatrixXd D = symmetric ? Eigen::MatrixXd(C.transpose()) : random(size(b), size(a));
    put(a, b, C);
    put(b, a, D);
    off_diagonal_norm[a] += C.norm() + D.norm();
    off_diagonal_norm[b] += C.norm() + D.norm();
  }
  for (int b = 0; b < d; ++b) {
    const Eigen::MatrixXd G = random(size(b), size(b));
    Eigen::MatrixXd B = symmetric ? Eigen::MatrixXd(G * G.transpose() / double(size(b))) : G;
    B.diagonal().array() += off_diagonal_norm[b] + B.norm() * (symmetric ? 0.0 : 1.0) + 1.0;
    put(b, b, B);
  }
  const Index n = s.offsets.back();
  SparseMatrix A(n, n);
  A.setFromTriplets(triplets.begin(), triplets.end());
  A.makeCompressed();
  return A;
}

/// Scalars in the lower block triangle of A counted by dense blocks (diagonal blocks: their lower
/// triangle): what a factor without fill stores.
inline long lower_block_nonzeros(const BlockStructure& s) {
  const auto size = [&](int b) { return long(s.offsets[b + 1] - s.offsets[b]); };
  long count = 0;
  for (int b = 0; b + 1 < static_cast<int>(s.offsets.size()); ++b)
    count += size(b) * (size(b) + 1) / 2;
  for (const auto& [a, b] : s.couplings) count += size(a) * size(b);
  return count;
}

}  // namespace substruct::testing
