// SPDX-License-Identifier: GPL-3.0-or-later
#include "block_pattern.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::detail {

SparseMatrix BlockPattern::make_matrix() const {
  SparseMatrix m(num_dofs, num_dofs);
  m.resizeNonZeros(static_cast<Eigen::Index>(inner.size()));
  std::copy(outer.begin(), outer.end(), m.outerIndexPtr());
  std::copy(inner.begin(), inner.end(), m.innerIndexPtr());
  std::fill_n(m.valuePtr(), inner.size(), 0.0);
  return m;
}

bool BlockPattern::matches(const SparseMatrix& m) const {
  return m.rows() == num_dofs && m.cols() == num_dofs && m.isCompressed() &&
         m.nonZeros() == static_cast<Eigen::Index>(inner.size()) &&
         std::memcmp(m.outerIndexPtr(), outer.data(), outer.size() * sizeof(int)) == 0 &&
         std::memcmp(m.innerIndexPtr(), inner.data(), inner.size() * sizeof(int)) == 0;
}

BlockPattern build_block_pattern(const Tets& tets, Index num_vertices) {
  const auto N = static_cast<std::size_t>(num_vertices);
  const auto M = static_cast<std::size_t>(tets.rows());

  // Vertex → incident elements (CSR).
  std::vector<std::int64_t> first_element(N + 1, 0);
  for (std::size_t e = 0; e < M; ++e)
    for (int a = 0; a < 4; ++a) ++first_element[static_cast<std::size_t>(tets(e, a)) + 1];
  for (std::size_t v = 0; v < N; ++v) first_element[v + 1] += first_element[v];
  std::vector<Index> incident(static_cast<std::size_t>(first_element[N]));
  {
    std::vector<std::int64_t> next(first_element.begin(), first_element.end() - 1);
    for (std::size_t e = 0; e < M; ++e)
      for (int a = 0; a < 4; ++a)
        incident[static_cast<std::size_t>(next[static_cast<std::size_t>(tets(e, a))]++)] =
            static_cast<Index>(e);
  }

  // Vertex → sorted neighbours, itself included (CSR).
  std::vector<std::int64_t> first_neighbour(N + 1, 0);
  std::vector<Index> neighbours;
  neighbours.reserve(M * 4);
  std::vector<Index> buffer;
  for (std::size_t v = 0; v < N; ++v) {
    buffer.clear();
    for (auto i = first_element[v]; i < first_element[v + 1]; ++i)
      for (int a = 0; a < 4; ++a) buffer.push_back(tets(incident[static_cast<std::size_t>(i)], a));
    std::sort(buffer.begin(), buffer.end());
    buffer.erase(std::unique(buffer.begin(), buffer.end()), buffer.end());
    neighbours.insert(neighbours.end(), buffer.begin(), buffer.end());
    first_neighbour[v + 1] = static_cast<std::int64_t>(neighbours.size());
  }
  incident = {};
  incident.shrink_to_fit();

  const std::int64_t nnz = 9 * static_cast<std::int64_t>(neighbours.size());
  if (nnz > std::numeric_limits<int>::max())
    throw Error(
        fmt::format("the stiffness matrix of this mesh ({} vertices, {} elements) would "
                    "have {} nonzeros, more than a sparse matrix with int indices holds",
                    N, M, nnz));

  BlockPattern p;
  p.num_dofs = static_cast<Index>(3 * N);
  p.outer.resize(3 * N + 1);
  p.inner.resize(static_cast<std::size_t>(nnz));
  int position = 0;
  for (std::size_t v = 0; v < N; ++v)
    for (int j = 0; j < 3; ++j) {
      p.outer[3 * v + static_cast<std::size_t>(j)] = position;
      for (auto i = first_neighbour[v]; i < first_neighbour[v + 1]; ++i)
        for (int r = 0; r < 3; ++r)
          p.inner[static_cast<std::size_t>(position++)] =
              3 * neighbours[static_cast<std::size_t>(i)] + r;
    }
  p.outer[3 * N] = position;

  p.local.resize(16 * M);
  for (std::size_t e = 0; e < M; ++e)
    for (int b = 0; b < 4; ++b) {
      const auto vb = static_cast<std::size_t>(tets(e, b));
      const Index* begin = neighbours.data() + first_neighbour[vb];
      const Index* end = neighbours.data() + first_neighbour[vb + 1];
      for (int a = 0; a < 4; ++a) {
        const Index* it = std::lower_bound(begin, end, tets(e, a));
        p.local[16 * e + static_cast<std::size_t>(4 * b + a)] = 3 * static_cast<int>(it - begin);
      }
    }
  return p;
}

}  // namespace substruct::detail
