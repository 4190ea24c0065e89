// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/hybrid_regions.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/domains/interface.hpp"

namespace substruct {

namespace {

int find_root(std::vector<int>& parent, int a) {
  while (parent[static_cast<std::size_t>(a)] != a) {
    parent[static_cast<std::size_t>(a)] =
        parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(a)])];
    a = parent[static_cast<std::size_t>(a)];
  }
  return a;
}

std::string domain_list(const std::vector<int>& domains) {
  std::string s;
  for (int d : domains) s += (s.empty() ? "" : ", ") + std::to_string(d);
  return s;
}

}  // namespace

HybridRegions hybrid_regions(const TetMesh& mesh, const ElementPartition& partition,
                             const std::vector<bool>& rigid_domain) {
  const int n = partition.num_domains;
  if (static_cast<int>(rigid_domain.size()) != n)
    throw Error(fmt::format("hybrid regions: {} rigid/deformable flags for {} domains",
                            rigid_domain.size(), n));
  // Union of same-type domains that share a triangle face.
  std::vector<int> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  std::map<std::array<Index, 3>, int> face_domain;
  static constexpr int kFaces[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const int d = partition.domain_of_element[static_cast<std::size_t>(e)];
    for (const auto& f : kFaces) {
      std::array<Index, 3> key{mesh.tets(e, f[0]), mesh.tets(e, f[1]), mesh.tets(e, f[2])};
      std::sort(key.begin(), key.end());
      const auto [it, inserted] = face_domain.emplace(key, d);
      if (inserted) continue;
      const int other = it->second;
      if (other != d && rigid_domain[static_cast<std::size_t>(other)] ==
                            rigid_domain[static_cast<std::size_t>(d)])
        parent[static_cast<std::size_t>(find_root(parent, d))] = find_root(parent, other);
    }
  }
  HybridRegions r;
  r.region_of_domain.assign(static_cast<std::size_t>(n), -1);
  for (int d = 0; d < n; ++d) {  // regions numbered by their lowest domain
    const int root = find_root(parent, d);
    if (r.region_of_domain[static_cast<std::size_t>(root)] < 0) {
      r.region_of_domain[static_cast<std::size_t>(root)] = static_cast<int>(r.regions.size());
      r.regions.push_back({rigid_domain[static_cast<std::size_t>(d)], {}, {}});
    }
    const int region = r.region_of_domain[static_cast<std::size_t>(root)];
    r.region_of_domain[static_cast<std::size_t>(d)] = region;
    r.regions[static_cast<std::size_t>(region)].domains.push_back(d);
  }
  for (Index e = 0; e < mesh.num_elements(); ++e)
    r.regions[static_cast<std::size_t>(r.region_of_domain[static_cast<std::size_t>(
                  partition.domain_of_element[static_cast<std::size_t>(e)])])]
        .elements.push_back(e);
  // Vertices used by a deformable and a rigid region.
  std::vector<std::set<int>> regions_at(static_cast<std::size_t>(mesh.num_vertices()));
  for (std::size_t k = 0; k < r.regions.size(); ++k)
    for (Index e : r.regions[k].elements)
      for (int i = 0; i < 4; ++i)
        regions_at[static_cast<std::size_t>(mesh.tets(e, i))].insert(static_cast<int>(k));
  std::map<std::pair<int, int>, std::vector<Index>> shared;
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    for (int a : regions_at[static_cast<std::size_t>(v)])
      for (int b : regions_at[static_cast<std::size_t>(v)])
        if (!r.regions[static_cast<std::size_t>(a)].rigid &&
            r.regions[static_cast<std::size_t>(b)].rigid)
          shared[{a, b}].push_back(v);
  for (auto& [pair, vertices] : shared) {
    if (affine_rank(mesh.vertices, vertices) < 2)
      throw Error(fmt::format(
          "hybrid regions: the boundary between deformable region {} (domains {}) and rigid "
          "region {} (domains {}) is degenerate: {} vertex(es), not 3 non-collinear ones, so it "
          "cannot carry a rotation; make the regions share a face",
          pair.first, domain_list(r.regions[static_cast<std::size_t>(pair.first)].domains),
          pair.second, domain_list(r.regions[static_cast<std::size_t>(pair.second)].domains),
          vertices.size()));
    r.boundaries.push_back({pair.first, pair.second, std::move(vertices)});
  }
  return r;
}

}  // namespace substruct
