// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/vertex_partition.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "domains_detail.hpp"
#include "substruct/core/error.hpp"

namespace substruct {
namespace {

void require_no_empty_domain(const VertexPartition& p, const std::string& why) {
  std::vector<Index> count(p.num_domains, 0);
  for (const int d : p.domain_of_vertex)
    if (d >= 0) ++count[d];
  std::vector<int> empty;
  for (int d = 0; d < p.num_domains; ++d)
    if (count[d] == 0) empty.push_back(d);
  if (empty.empty()) return;
  const bool one = empty.size() == 1;
  throw Error(fmt::format(
      "vertex partition: {} {} {} no vertex of {} own ({}); merge {} with a neighbour or use "
      "fewer domains",
      one ? "domain" : "domains", detail::format_ids(empty), one ? "has" : "have",
      one ? "its" : "their", why, one ? "it" : "them"));
}

}  // namespace

VertexPartition vertex_partition_from_elements(const TetMesh& mesh,
                                               const ElementPartition& partition) {
  detail::require_valid_tets(mesh);
  validate_element_partition(partition, mesh.num_elements());
  VertexPartition p;
  p.num_domains = partition.num_domains;
  p.domain_of_vertex.assign(mesh.num_vertices(), -1);
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const int d = partition.domain_of_element[e];
    for (int i = 0; i < 4; ++i) {
      int& owner = p.domain_of_vertex[mesh.tets(e, i)];
      if (owner < 0 || d < owner) owner = d;
    }
  }
  require_no_empty_domain(p, "a vertex goes to the lowest-numbered domain whose elements use it");
  return p;
}

VertexPartition metis_vertex_partition(const TetMesh& mesh, int num_domains) {
  detail::require_valid_tets(mesh);
  const Index n = mesh.num_vertices();
  // Vertex graph on the used vertices only: vertices adjacent when they share a tet edge.
  std::vector<int> compact(n, -1);
  std::vector<Index> used;
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int i = 0; i < 4; ++i) compact[mesh.tets(e, i)] = 0;
  for (Index v = 0; v < n; ++v)
    if (compact[v] == 0) {
      compact[v] = static_cast<int>(used.size());
      used.push_back(v);
    }
  const std::string what = fmt::format("vertex partition into {} domains", num_domains);
  if (num_domains < 1 || num_domains > static_cast<int>(used.size()))
    throw Error(fmt::format("{}: the mesh's elements use {} vertices; ask for 1 to {} domains",
                            what, used.size(), used.size()));

  std::vector<std::pair<int, int>> edges;
  edges.reserve(12 * static_cast<std::size_t>(mesh.num_elements()));
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) {
        const int a = compact[mesh.tets(e, i)];
        const int b = compact[mesh.tets(e, j)];
        if (a == b) continue;
        edges.emplace_back(a, b);
        edges.emplace_back(b, a);
      }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  detail::CsrGraph graph;
  graph.xadj.assign(used.size() + 1, 0);
  for (const auto& [a, b] : edges) ++graph.xadj[a + 1];
  std::partial_sum(graph.xadj.begin(), graph.xadj.end(), graph.xadj.begin());
  graph.adjncy.reserve(edges.size());
  for (const auto& [a, b] : edges) graph.adjncy.push_back(b);  // sorted by a, then b

  const std::vector<int> parts = detail::metis_parts(graph, num_domains, what);
  VertexPartition p;
  p.num_domains = num_domains;
  p.domain_of_vertex.assign(n, -1);
  for (std::size_t k = 0; k < used.size(); ++k) p.domain_of_vertex[used[k]] = parts[k];
  return p;
}

}  // namespace substruct
