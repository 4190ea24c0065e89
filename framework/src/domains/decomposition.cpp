// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/decomposition.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include <fmt/format.h>

#include "domains_detail.hpp"
#include "substruct/core/error.hpp"

namespace substruct {
namespace {

/// Gives each domain its part of one named set. entries: (domain, local id) pairs in
/// increasing global id; a stable sort by domain keeps each domain's list sorted.
void distribute_set(std::vector<SubMesh>& domains, const std::string& name,
                    std::vector<std::pair<int, Index>>& entries, bool element_set) {
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  for (std::size_t i = 0; i < entries.size();) {
    const int d = entries[i].first;
    std::vector<Index> local;
    for (; i < entries.size() && entries[i].first == d; ++i) local.push_back(entries[i].second);
    auto& sets = element_set ? domains[d].mesh.element_sets : domains[d].mesh.vertex_sets;
    sets.emplace(name, std::move(local));
  }
}

}  // namespace

Decomposition decompose(const TetMesh& mesh, ElementPartition partition) {
  detail::require_valid_tets(mesh);
  validate_element_partition(partition, mesh.num_elements());
  const Index m = mesh.num_elements();
  const int D = partition.num_domains;
  const auto& dom = partition.domain_of_element;

  // Elements grouped by domain (counting sort, stable: increasing ids within a domain).
  std::vector<Index> offset(D + 1, 0);
  for (Index e = 0; e < m; ++e) ++offset[dom[e] + 1];
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  std::vector<Index> order(m);
  std::vector<Index> local_of_element(m);
  {
    std::vector<Index> fill(offset.begin(), offset.end() - 1);
    for (Index e = 0; e < m; ++e) {
      local_of_element[e] = fill[dom[e]] - offset[dom[e]];
      order[fill[dom[e]]++] = e;
    }
  }

  Decomposition result;
  result.domains.reserve(D);
  std::vector<Index> scratch(mesh.num_vertices(), -1);  // one array for all domains
  for (int d = 0; d < D; ++d)
    result.domains.push_back(detail::extract_sub_mesh_geometry(
        mesh, std::span<const Index>(order.data() + offset[d], offset[d + 1] - offset[d]), d,
        &scratch));

  std::vector<std::pair<int, Index>> entries;
  for (const auto& [name, set] : mesh.element_sets) {
    entries.clear();
    for (const Index e : set) {
      if (e < 0 || e >= m)
        throw Error(
            fmt::format("element set '{}' holds element {}, but the mesh has elements "
                        "0…{}",
                        name, e, m - 1));
      entries.emplace_back(dom[e], local_of_element[e]);
    }
    distribute_set(result.domains, name, entries, true);
  }
  if (!mesh.vertex_sets.empty()) {
    // Vertex → domains that use it (compressed), from the domains' vertex lists.
    const Index n = mesh.num_vertices();
    std::vector<Index> start(n + 1, 0);
    for (const SubMesh& s : result.domains)
      for (const Index v : s.global_vertex) ++start[v + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<int> users(start.back());
    std::vector<Index> fill(start.begin(), start.end() - 1);
    for (int d = 0; d < D; ++d)
      for (const Index v : result.domains[d].global_vertex) users[fill[v]++] = d;
    for (const auto& [name, set] : mesh.vertex_sets) {
      entries.clear();
      for (const Index v : set) {
        if (v < 0 || v >= n)
          throw Error(
              fmt::format("vertex set '{}' holds vertex {}, but the mesh has vertices "
                          "0…{}",
                          name, v, n - 1));
        for (Index k = start[v]; k < start[v + 1]; ++k)
          entries.emplace_back(users[k], result.domains[users[k]].local_vertex(v));
      }
      distribute_set(result.domains, name, entries, false);
    }
  }

  std::vector<const std::vector<Index>*> vertices_of;
  for (const SubMesh& s : result.domains) vertices_of.push_back(&s.global_vertex);
  result.interfaces = detail::interfaces_of(mesh.vertices, vertices_of);
  result.partition = std::move(partition);
  return result;
}

std::vector<CouplingInterface> coupling_interfaces(const TetMesh& mesh,
                                                   const VertexPartition& partition) {
  detail::require_valid_tets(mesh);
  if (static_cast<Index>(partition.domain_of_vertex.size()) != mesh.num_vertices())
    throw Error(fmt::format("the vertex partition has {} entries but the mesh has {} vertices",
                            partition.domain_of_vertex.size(), mesh.num_vertices()));
  // One (a, b, e) entry per pair of distinct domains among the element's vertices.
  std::vector<std::pair<std::uint64_t, Index>> entries;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    int d[4];
    for (int i = 0; i < 4; ++i) {
      d[i] = partition.domain_of_vertex[mesh.tets(e, i)];
      if (d[i] < 0 || d[i] >= partition.num_domains)
        throw Error(
            fmt::format("the vertex partition puts vertex {} (of element {}) in domain "
                        "{}, outside 0…{}",
                        mesh.tets(e, i), e, d[i], partition.num_domains - 1));
    }
    std::sort(d, d + 4);
    const int k = static_cast<int>(std::unique(d, d + 4) - d);
    for (int i = 0; i < k; ++i)
      for (int j = i + 1; j < k; ++j)
        entries.emplace_back(
            (static_cast<std::uint64_t>(d[i]) << 32) | static_cast<std::uint64_t>(d[j]), e);
  }
  std::sort(entries.begin(), entries.end());

  std::vector<CouplingInterface> layers;
  for (std::size_t i = 0; i < entries.size();) {
    CouplingInterface c;
    c.a = static_cast<int>(entries[i].first >> 32);
    c.b = static_cast<int>(entries[i].first & 0xffffffffu);
    const std::uint64_t key = entries[i].first;
    for (; i < entries.size() && entries[i].first == key; ++i)
      c.coupling_elements.push_back(entries[i].second);
    layers.push_back(std::move(c));
  }
  return layers;
}

}  // namespace substruct
