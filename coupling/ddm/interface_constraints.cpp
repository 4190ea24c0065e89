// SPDX-License-Identifier: GPL-3.0-or-later
#include "interface_constraints.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::ddm {

std::vector<ConstraintRow> interface_rows(const std::vector<SubMesh>& domains,
                                          const std::vector<Index>& fixed) {
  // (global vertex, domain, local vertex) of every copy, sorted by vertex then domain.
  std::vector<std::tuple<Index, int, Index>> copies;
  for (const SubMesh& d : domains)
    for (std::size_t l = 0; l < d.global_vertex.size(); ++l)
      copies.emplace_back(d.global_vertex[l], d.domain, static_cast<Index>(l));
  std::sort(copies.begin(), copies.end());
  std::vector<ConstraintRow> rows;
  for (std::size_t i = 0; i < copies.size();) {
    std::size_t j = i + 1;
    while (j < copies.size() && std::get<0>(copies[j]) == std::get<0>(copies[i])) ++j;
    const Index vertex = std::get<0>(copies[i]);
    if (j - i > 1 && !std::binary_search(fixed.begin(), fixed.end(), vertex))
      for (std::size_t k = i + 1; k < j; ++k) {
        ConstraintRow row;
        row.vertex = vertex;
        row.a = {std::get<1>(copies[i]), std::get<2>(copies[i])};
        row.b = {std::get<1>(copies[k]), std::get<2>(copies[k])};
        rows.push_back(row);
      }
    i = j;
  }
  return rows;
}

std::vector<ConstraintRow> target_rows(const std::vector<SubMesh>& domains,
                                       const std::vector<Index>& fixed,
                                       const std::vector<Index>& targets, Index num_vertices) {
  std::vector<ConstraintRow> rows;
  std::set<Index> seen;
  for (Index v : targets) {
    if (v < 0 || v >= num_vertices)
      throw Error(fmt::format(
          "ddm.target_vertices: vertex {} does not exist (the mesh has {}, numbered from 0)", v,
          num_vertices));
    if (std::binary_search(fixed.begin(), fixed.end(), v))
      throw Error(fmt::format(
          "ddm.target_vertices: vertex {} is fixed by the scene; it cannot also be driven", v));
    if (!seen.insert(v).second)
      throw Error(fmt::format("ddm.target_vertices: vertex {} is listed twice", v));
    ConstraintRow row;
    row.vertex = v;
    for (const SubMesh& d : domains) {  // the first domain that uses it
      const Index local = d.local_vertex(v);
      if (local >= 0) {
        row.a = {d.domain, local};
        break;
      }
    }
    if (row.a.domain < 0)
      throw Error(fmt::format("ddm.target_vertices: vertex {} belongs to no element", v));
    rows.push_back(row);
  }
  return rows;
}

std::vector<DomainCoupling> domain_couplings(const std::vector<ConstraintRow>& rows,
                                             int num_domains) {
  std::vector<DomainCoupling> couplings(static_cast<std::size_t>(num_domains));
  std::vector<std::map<Index, Index>> boundary_of(static_cast<std::size_t>(num_domains));
  for (const ConstraintRow& row : rows)
    for (const ConstraintRow::Copy* c : {&row.a, &row.b})
      if (c->domain >= 0) boundary_of[static_cast<std::size_t>(c->domain)].emplace(c->local, 0);
  for (int d = 0; d < num_domains; ++d) {
    auto& map = boundary_of[static_cast<std::size_t>(d)];
    Index next = 0;
    for (auto& [local, index] : map) {
      index = next++;
      couplings[static_cast<std::size_t>(d)].vertices.push_back(local);
    }
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const ConstraintRow& row = rows[r];
    for (const auto& [copy, sign] : {std::pair{&row.a, 1.0}, std::pair{&row.b, -1.0}}) {
      if (copy->domain < 0) continue;
      const auto d = static_cast<std::size_t>(copy->domain);
      couplings[d].entries.push_back({static_cast<Index>(r), boundary_of[d].at(copy->local), sign});
    }
  }
  return couplings;
}

}  // namespace substruct::ddm
