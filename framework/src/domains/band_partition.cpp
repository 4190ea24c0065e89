// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/band_partition.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/domains/edge_distance.hpp"

namespace substruct {

namespace {

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(static_cast<std::size_t>(n)) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  int find(int a) {
    while (parent[static_cast<std::size_t>(a)] != a)
      a = parent[static_cast<std::size_t>(a)] =
          parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(a)])];
    return a;
  }
  bool unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
    return true;
  }
};

}  // namespace

ElementPartition geodesic_band_partition(const TetMesh& mesh, const std::vector<Index>& fixed,
                                         int bands) {
  if (bands < 1) throw Error(fmt::format("domains = bands:{}: expected N ≥ 1 bands", bands));
  if (fixed.empty())
    throw Error(
        "domains = bands:N: bands are measured from the fixed vertices, and the scene "
        "has none ([scene] fixed or fixed_set)");
  const Index m = mesh.num_elements();
  const std::vector<double> d = edge_distances_to(mesh, fixed);
  std::vector<double> element_d(static_cast<std::size_t>(m));
  for (Index e = 0; e < m; ++e) {
    double sum = 0;
    for (int k = 0; k < 4; ++k) sum += d[static_cast<std::size_t>(mesh.tets(e, k))];
    if (!std::isfinite(sum))
      throw Error(
          fmt::format("domains = bands:{}: element {} (0-based) is not connected to the "
                      "fixed vertices through the mesh",
                      bands, e));
    element_d[static_cast<std::size_t>(e)] = sum / 4;
  }
  const double top = *std::max_element(element_d.begin(), element_d.end());
  std::vector<int> band(static_cast<std::size_t>(m), 0);
  for (std::size_t e = 0; e < band.size(); ++e)
    band[e] = top > 0 ? std::min(bands - 1, static_cast<int>(bands * element_d[e] / top)) : 0;

  // Face-connected pieces of each band; band 0 is one piece.
  UnionFind domains(static_cast<int>(m));
  std::map<std::array<Index, 3>, Index> faces;
  int first_root = -1;
  for (Index e = 0; e < m; ++e) {
    if (band[static_cast<std::size_t>(e)] == 0) {
      if (first_root < 0) first_root = static_cast<int>(e);
      domains.unite(first_root, static_cast<int>(e));
    }
    for (int skip = 0; skip < 4; ++skip) {
      std::array<Index, 3> f{};
      for (int k = 0, i = 0; k < 4; ++k)
        if (k != skip) f[static_cast<std::size_t>(i++)] = mesh.tets(e, k);
      std::sort(f.begin(), f.end());
      const auto [it, fresh] = faces.emplace(f, e);
      if (!fresh && band[static_cast<std::size_t>(it->second)] == band[static_cast<std::size_t>(e)])
        domains.unite(static_cast<int>(it->second), static_cast<int>(e));
    }
  }
  // Merge until each domain has no neighbour of its band and at most one of a lower band, and
  // no domain but the root is smaller than a quarter of an average band.
  const Index min_elements = std::max<Index>(1, m / (4 * bands));
  std::vector<std::vector<Index>> elements_of_vertex(static_cast<std::size_t>(mesh.num_vertices()));
  for (Index e = 0; e < m; ++e)
    for (int k = 0; k < 4; ++k)
      elements_of_vertex[static_cast<std::size_t>(mesh.tets(e, k))].push_back(e);
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<int> domain_band(static_cast<std::size_t>(m), bands);
    for (Index e = 0; e < m; ++e) {
      int& b = domain_band[static_cast<std::size_t>(domains.find(static_cast<int>(e)))];
      b = std::min(b, band[static_cast<std::size_t>(e)]);
    }
    std::map<int, std::set<int>> neighbours;
    std::vector<int> here;
    for (const auto& list : elements_of_vertex) {
      here.clear();
      for (const Index e : list) here.push_back(domains.find(static_cast<int>(e)));
      std::sort(here.begin(), here.end());
      here.erase(std::unique(here.begin(), here.end()), here.end());
      for (std::size_t a = 0; a < here.size(); ++a)
        for (std::size_t b = a + 1; b < here.size(); ++b) {
          neighbours[here[a]].insert(here[b]);
          neighbours[here[b]].insert(here[a]);
        }
    }
    for (const auto& [p, adjacent] : neighbours) {
      const int bp = domain_band[static_cast<std::size_t>(p)];
      int lower = -1;
      for (const int q : adjacent) {
        const int bq = domain_band[static_cast<std::size_t>(q)];
        if (bq == bp) {
          changed = domains.unite(p, q) || changed;
        } else if (bq < bp) {
          if (lower >= 0) changed = domains.unite(lower, q) || changed;
          lower = q;
        }
      }
    }
    if (changed) continue;
    // The tree holds: a domain of fewer than min_elements joins its one lower neighbour, which
    // adds to that neighbour only neighbours of higher bands.
    std::vector<Index> size(static_cast<std::size_t>(m), 0);
    for (Index e = 0; e < m; ++e)
      ++size[static_cast<std::size_t>(domains.find(static_cast<int>(e)))];
    for (const auto& [p, adjacent] : neighbours) {
      if (size[static_cast<std::size_t>(p)] >= min_elements) continue;
      for (const int q : adjacent)
        if (domain_band[static_cast<std::size_t>(q)] < domain_band[static_cast<std::size_t>(p)]) {
          changed = domains.unite(p, q) || changed;
          break;
        }
    }
  }
  // Domains numbered by their lowest element.
  ElementPartition p;
  std::map<int, int> number;
  p.domain_of_element.resize(static_cast<std::size_t>(m));
  for (Index e = 0; e < m; ++e) {
    const auto [it, fresh] = number.emplace(domains.find(static_cast<int>(e)), p.num_domains);
    if (fresh) ++p.num_domains;
    p.domain_of_element[static_cast<std::size_t>(e)] = it->second;
  }
  return p;
}

}  // namespace substruct
