// SPDX-License-Identifier: GPL-3.0-or-later
// Graph helpers for partitioning meshes: the element dual graph, components, METIS.
#include <metis.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <tuple>

#include <fmt/format.h>

#include "domains_detail.hpp"
#include "substruct/core/error.hpp"

namespace substruct::detail {

CsrGraph element_dual_graph(const TetMesh& mesh) {
  const Index n = mesh.num_vertices();
  const Index m = mesh.num_elements();
  // Every face as its sorted vertex triple (v0 < v1 < v2) and element, bucketed by v0 (counting
  // sort, O(N + M)); faces equal in a bucket are shared by two tets, which become adjacent.
  struct Face {
    Index v1;
    Index v2;
    Index element;
  };
  std::vector<Index> start(n + 1, 0);
  const auto sorted_face = [&](Index e, int skip) {
    std::array<Index, 3> f;
    int k = 0;
    for (int i = 0; i < 4; ++i)
      if (i != skip) f[k++] = mesh.tets(e, i);
    std::sort(f.begin(), f.end());
    return f;
  };
  for (Index e = 0; e < m; ++e)
    for (int skip = 0; skip < 4; ++skip) ++start[sorted_face(e, skip)[0] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<Face> faces(start.back());
  {
    std::vector<Index> fill(start.begin(), start.end() - 1);
    for (Index e = 0; e < m; ++e)
      for (int skip = 0; skip < 4; ++skip) {
        const auto f = sorted_face(e, skip);
        faces[fill[f[0]]++] = {f[1], f[2], e};
      }
  }

  std::vector<std::pair<int, int>> pairs;
  for (Index v = 0; v < n; ++v) {
    const auto first = faces.begin() + start[v];
    const auto last = faces.begin() + start[v + 1];
    std::sort(first, last, [](const Face& x, const Face& y) {
      return std::tie(x.v1, x.v2, x.element) < std::tie(y.v1, y.v2, y.element);
    });
    for (auto i = first; i != last;) {
      auto j = i + 1;
      while (j != last && j->v1 == i->v1 && j->v2 == i->v2) ++j;
      for (auto p = i; p != j; ++p)
        for (auto q = p + 1; q != j; ++q)
          if (p->element != q->element) pairs.emplace_back(p->element, q->element);
      i = j;
    }
  }

  CsrGraph g;
  g.xadj.assign(m + 1, 0);
  for (const auto& [a, b] : pairs) {
    ++g.xadj[a + 1];
    ++g.xadj[b + 1];
  }
  std::partial_sum(g.xadj.begin(), g.xadj.end(), g.xadj.begin());
  g.adjncy.resize(g.xadj.back());
  std::vector<int> fill(g.xadj.begin(), g.xadj.end() - 1);
  for (const auto& [a, b] : pairs) {
    g.adjncy[fill[a]++] = b;
    g.adjncy[fill[b]++] = a;
  }
  for (int v = 0; v < m; ++v)
    std::sort(g.adjncy.begin() + g.xadj[v], g.adjncy.begin() + g.xadj[v + 1]);
  return g;
}

std::vector<int> component_labels(const CsrGraph& graph, int* num_components) {
  const int n = graph.num_vertices();
  std::vector<int> label(n, -1);
  std::vector<int> stack;
  int count = 0;
  for (int s = 0; s < n; ++s) {
    if (label[s] >= 0) continue;
    label[s] = count;
    stack.push_back(s);
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      for (int k = graph.xadj[v]; k < graph.xadj[v + 1]; ++k) {
        const int w = graph.adjncy[k];
        if (label[w] < 0) {
          label[w] = count;
          stack.push_back(w);
        }
      }
    }
    ++count;
  }
  if (num_components) *num_components = count;
  return label;
}

std::vector<int> metis_parts(const CsrGraph& graph, int nparts, const std::string& what) {
  const int n = graph.num_vertices();
  if (nparts < 1 || nparts > n)
    throw Error(fmt::format("{}: cannot split {} items into {} domains; ask for 1 to {}", what, n,
                            nparts, n));
  std::vector<int> part(n, 0);
  if (nparts == 1) return part;

  int num_components = 0;
  component_labels(graph, &num_components);

  static_assert(sizeof(idx_t) == sizeof(int), "METIS built with 32-bit idx_t is expected");
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;
  options[METIS_OPTION_NUMBERING] = 0;
  // METIS refuses contiguity for a disconnected graph; the pieces then stay apart anyway.
  options[METIS_OPTION_CONTIG] = num_components == 1 ? 1 : 0;

  idx_t nvtxs = n;
  idx_t ncon = 1;
  idx_t np = nparts;
  idx_t objval = 0;
  std::vector<idx_t> xadj(graph.xadj.begin(), graph.xadj.end());
  std::vector<idx_t> adjncy(graph.adjncy.begin(), graph.adjncy.end());
  adjncy.push_back(0);  // METIS wants a valid pointer even for a graph without edges
  std::vector<idx_t> result(n, 0);
  const int status =
      METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.data(), nullptr, nullptr, nullptr, &np,
                          nullptr, nullptr, options, &objval, result.data());
  if (status != METIS_OK)
    throw Error(fmt::format("{}: METIS failed to partition the graph of {} items (status {}{})",
                            what, n, status,
                            status == METIS_ERROR_MEMORY ? ", out of memory" : ""));

  std::vector<int> size(nparts, 0);
  for (int v = 0; v < n; ++v) {
    part[v] = result[v];
    ++size[result[v]];
  }
  std::vector<int> empty;
  for (int d = 0; d < nparts; ++d)
    if (size[d] == 0) empty.push_back(d);
  if (!empty.empty())
    throw Error(
        fmt::format("{}: METIS left {} of the {} domains empty (domains {}); ask for fewer domains",
                    what, empty.size(), nparts, format_ids(empty)));
  return part;
}

void require_valid_tets(const TetMesh& mesh) {
  const Index n = mesh.num_vertices();
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int i = 0; i < 4; ++i)
      if (mesh.tets(e, i) < 0 || mesh.tets(e, i) >= n)
        throw Error(fmt::format("element {} uses vertex {}, but the mesh has vertices 0…{}", e,
                                mesh.tets(e, i), n - 1));
}

std::string format_ids(std::span<const int> ids, std::size_t max_shown) {
  std::string s;
  const std::size_t shown = std::min(ids.size(), max_shown);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(ids[i]);
  }
  if (ids.size() > shown) s += fmt::format(", … ({} in all)", ids.size());
  return s;
}

}  // namespace substruct::detail
