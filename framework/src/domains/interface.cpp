// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/interface.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <Eigen/SVD>

#include "domains_detail.hpp"
#include "substruct/core/error.hpp"

namespace substruct {

int affine_rank(const Points& positions, const std::vector<Index>& vertices, double rel_tol) {
  if (vertices.size() < 2) return 0;
  Vec3 mean = Vec3::Zero();
  for (const Index v : vertices) mean += positions.row(v).transpose();
  mean /= static_cast<double>(vertices.size());
  // A = [X_v − X̄] (k×3) = Q R; R (3×3, upper triangular) is built row by row with Givens
  // rotations, so σ(R) = σ(A) without storing A.
  Mat3 R = Mat3::Zero();
  for (const Index v : vertices) {
    Vec3 x = positions.row(v).transpose() - mean;
    for (int i = 0; i < 3; ++i) {
      if (x(i) == 0.0) continue;
      const double r = std::sqrt(R(i, i) * R(i, i) + x(i) * x(i));
      const double c = R(i, i) / r;
      const double s = x(i) / r;
      for (int j = i; j < 3; ++j) {
        const double rij = R(i, j);
        R(i, j) = c * rij + s * x(j);
        x(j) = -s * rij + c * x(j);
      }
    }
  }
  const Vec3 sigma = Eigen::JacobiSVD<Mat3>(R).singularValues();
  if (!(sigma(0) > 0.0)) return 0;
  int rank = 0;
  for (int i = 0; i < 3; ++i)
    if (sigma(i) > rel_tol * sigma(0)) ++rank;
  return rank;
}

namespace detail {

std::vector<Interface> interfaces_of(const Points& positions,
                                     const std::vector<const std::vector<Index>*>& vertices_of) {
  const Index n = static_cast<Index>(positions.rows());
  const int D = static_cast<int>(vertices_of.size());

  // Vertex → domains using it (compressed); filled in domain order, so each list is ascending.
  std::vector<Index> start(n + 1, 0);
  for (const auto* list : vertices_of)
    for (const Index v : *list) ++start[v + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<int> users(start.back());
  {
    std::vector<Index> fill(start.begin(), start.end() - 1);
    for (int d = 0; d < D; ++d)
      for (const Index v : *vertices_of[d]) users[fill[v]++] = d;
  }

  // One (a, b, v) entry per pair of domains sharing v, generated in increasing v.
  struct Entry {
    int a;
    int b;
    Index vertex;
  };
  std::vector<Entry> entries;
  for (Index v = 0; v < n; ++v)
    for (Index i = start[v]; i < start[v + 1]; ++i)
      for (Index j = i + 1; j < start[v + 1]; ++j) entries.push_back({users[i], users[j], v});

  // Stable counting sorts by b, then by a: entries ordered by (a, b), vertices increasing.
  std::vector<Entry> sorted(entries.size());
  std::vector<std::size_t> bucket(D + 1);
  for (const bool by_a : {false, true}) {
    std::fill(bucket.begin(), bucket.end(), 0);
    for (const Entry& x : entries) ++bucket[(by_a ? x.a : x.b) + 1];
    std::partial_sum(bucket.begin(), bucket.end(), bucket.begin());
    for (const Entry& x : entries) sorted[bucket[by_a ? x.a : x.b]++] = x;
    entries.swap(sorted);
  }

  std::vector<Interface> interfaces;
  for (std::size_t i = 0; i < entries.size();) {
    Interface f;
    f.a = entries[i].a;
    f.b = entries[i].b;
    for (; i < entries.size() && entries[i].a == f.a && entries[i].b == f.b; ++i)
      f.vertices.push_back(entries[i].vertex);
    f.rank = affine_rank(positions, f.vertices);
    interfaces.push_back(std::move(f));
  }
  return interfaces;
}

}  // namespace detail

std::vector<Interface> find_interfaces(const TetMesh& mesh, const ElementPartition& partition) {
  detail::require_valid_tets(mesh);
  validate_element_partition(partition, mesh.num_elements());
  // Each domain's vertices: elements grouped by domain, vertices marked once per domain.
  const int D = partition.num_domains;
  std::vector<std::vector<Index>> lists(D);
  std::vector<int> last(mesh.num_vertices(), -1);
  std::vector<Index> offset(D + 1, 0);
  for (const int d : partition.domain_of_element) ++offset[d + 1];
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  std::vector<Index> order(mesh.num_elements());
  for (Index e = 0; e < mesh.num_elements(); ++e)  // offset[d] ends as the start of d + 1
    order[offset[partition.domain_of_element[e]]++] = e;
  for (Index k = 0; k < mesh.num_elements(); ++k) {
    const Index e = order[k];
    const int d = partition.domain_of_element[e];
    for (int i = 0; i < 4; ++i)
      if (const Index v = mesh.tets(e, i); last[v] != d) {
        last[v] = d;
        lists[d].push_back(v);
      }
  }
  std::vector<const std::vector<Index>*> pointers;
  for (const auto& list : lists) pointers.push_back(&list);
  return detail::interfaces_of(mesh.vertices, pointers);
}

}  // namespace substruct
