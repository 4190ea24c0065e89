// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/multidomain/block_system.hpp"

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

BlockSystem::BlockSystem(const std::vector<int>& sizes,
                         const std::vector<std::pair<int, int>>& couplings) {
  offsets_.assign(sizes.size() + 1, 0);
  for (std::size_t i = 0; i < sizes.size(); ++i) offsets_[i + 1] = offsets_[i] + sizes[i];
  const auto add = [&](int i, int j) {
    blocks_.try_emplace({i, j}, Eigen::MatrixXd::Zero(block_size(i), block_size(j)));
  };
  for (int i = 0; i < static_cast<int>(sizes.size()); ++i) add(i, i);
  for (const auto& [i, j] : couplings) {
    if (i == j) continue;
    add(i, j);
    add(j, i);
  }
  b_ = Eigen::VectorXd::Zero(size());
}

int BlockSystem::block_size(int domain) const {
  const auto d = static_cast<std::size_t>(domain);
  return static_cast<int>(offsets_[d + 1] - offsets_[d]);
}

void BlockSystem::clear() {
  for (auto& [key, block] : blocks_) block.setZero();
  b_.setZero();
}

Eigen::MatrixXd& BlockSystem::block(int i, int j) {
  const auto it = blocks_.find({i, j});
  if (it == blocks_.end())
    throw Error(fmt::format("block system: domains {} and {} are not coupled", i, j));
  return it->second;
}

SparseMatrix BlockSystem::matrix() const {
  std::vector<Eigen::Triplet<double>> entries;
  for (const auto& [key, block] : blocks_) {
    const Index r0 = offset(key.first), c0 = offset(key.second);
    for (Index c = 0; c < block.cols(); ++c)
      for (Index r = 0; r < block.rows(); ++r) entries.emplace_back(r0 + r, c0 + c, block(r, c));
  }
  SparseMatrix A(size(), size());
  A.setFromTriplets(entries.begin(), entries.end());
  return A;
}

BlockStructure BlockSystem::structure() const {
  // Domains without unknowns (anchored rigid ones) have no block.
  BlockStructure s;
  std::vector<int> index(offsets_.size() - 1, -1);
  s.offsets.push_back(0);
  for (std::size_t d = 0; d + 1 < offsets_.size(); ++d)
    if (offsets_[d + 1] > offsets_[d]) {
      index[d] = static_cast<int>(s.offsets.size()) - 1;
      s.offsets.push_back(offsets_[d + 1]);
    }
  for (const auto& [key, block] : blocks_)
    if (key.first < key.second && block.size() > 0)
      s.couplings.emplace_back(index[static_cast<std::size_t>(key.first)],
                               index[static_cast<std::size_t>(key.second)]);
  return s;
}

}  // namespace substruct
