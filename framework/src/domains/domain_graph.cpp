// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/domain_graph.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>

#include "substruct/core/error.hpp"
#include "substruct/domains/decomposition.hpp"

namespace substruct {
namespace {

/// Edge property: the edge's position in DomainGraph::edges() and its interface index.
struct EdgeProperty {
  int edge = 0;
  int interface = 0;
};
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS,
                                    boost::no_property, EdgeProperty>;

/// A breadth-first forest: trees from the given sources (unvisited ones only), lowest-numbered
/// neighbours first, and the non-tree edges in the order they were first examined.
struct BfsForest {
  std::vector<int> order;
  std::vector<int> parent;
  std::vector<int> parent_edge;
  std::vector<int> depth;
  std::vector<int> non_tree_edges;
};

class ForestVisitor : public boost::default_bfs_visitor {
 public:
  ForestVisitor(BfsForest& forest, std::vector<char>& seen) : f_(forest), seen_(seen) {}
  void discover_vertex(Graph::vertex_descriptor v, const Graph&) const {
    f_.order.push_back(static_cast<int>(v));
  }
  void tree_edge(Graph::edge_descriptor e, const Graph& g) const {
    const int u = static_cast<int>(boost::source(e, g));
    const int w = static_cast<int>(boost::target(e, g));
    f_.parent[w] = u;
    f_.parent_edge[w] = g[e].edge;
    f_.depth[w] = f_.depth[u] + 1;
    seen_[g[e].edge] = 1;
  }
  void non_tree_edge(Graph::edge_descriptor e, const Graph& g) const {
    // The way back along a tree edge, or the second look at a non-tree edge: already seen.
    if (seen_[g[e].edge]) return;
    seen_[g[e].edge] = 1;
    f_.non_tree_edges.push_back(g[e].edge);
  }

 private:
  BfsForest& f_;
  std::vector<char>& seen_;
};

std::string format_component(const std::vector<int>& domains) {
  constexpr std::size_t kShown = 12;
  std::string s = "{";
  for (std::size_t i = 0; i < std::min(domains.size(), kShown); ++i)
    s += fmt::format("{}{}", i ? "," : "", domains[i]);
  if (domains.size() > kShown) s += fmt::format(",… ({} domains)", domains.size());
  return s + "}";
}

std::string format_components(const std::vector<std::vector<int>>& components) {
  constexpr std::size_t kShown = 6;
  const std::size_t shown = std::min(components.size(), kShown);
  std::string s;
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) s += (i + 1 == shown && components.size() <= kShown) ? " and " : ", ";
    s += format_component(components[i]);
  }
  if (components.size() > kShown)
    s += fmt::format(" and {} more components", components.size() - kShown);
  return s;
}

std::string format_cycle(const std::vector<int>& cycle) {
  std::string s;
  for (const int d : cycle) s += fmt::format("{} → ", d);
  return s + std::to_string(cycle.front());
}

/// Rotates a cycle to start at its lowest domain, heading to the lower of its two neighbours.
std::vector<int> canonical_cycle(std::vector<int> cycle) {
  const auto lowest = std::min_element(cycle.begin(), cycle.end());
  std::rotate(cycle.begin(), lowest, cycle.end());
  if (cycle.size() > 2 && cycle.back() < cycle[1]) std::reverse(cycle.begin() + 1, cycle.end());
  return cycle;
}

/// The tree path from a to b through their lowest common ancestor.
std::vector<int> tree_path(const std::vector<int>& parent, const std::vector<int>& depth, int a,
                           int b) {
  std::vector<int> up;    // a, parent(a), … (excluding the common ancestor)
  std::vector<int> down;  // b, parent(b), … (excluding the common ancestor)
  while (depth[a] > depth[b]) up.push_back(std::exchange(a, parent[a]));
  while (depth[b] > depth[a]) down.push_back(std::exchange(b, parent[b]));
  while (a != b) {
    up.push_back(std::exchange(a, parent[a]));
    down.push_back(std::exchange(b, parent[b]));
    if (a < 0 || b < 0) throw Error("the two domains are in different trees");
  }
  up.push_back(a);
  up.insert(up.end(), down.rbegin(), down.rend());
  return up;
}

}  // namespace

struct DomainGraph::Impl {
  int num_domains = 0;
  std::vector<DomainEdge> edges;  // sorted by (a, b)
  Graph graph;

  Impl(int n, std::vector<DomainEdge> list) : num_domains(n), graph(n > 0 ? n : 0) {
    if (n < 0) throw Error(fmt::format("a domain graph needs num_domains ≥ 0, got {}", n));
    for (DomainEdge& e : list) {
      if (e.a < 0 || e.a >= n || e.b < 0 || e.b >= n)
        throw Error(
            fmt::format("domain graph edge ({}, {}) names a domain outside 0…{}", e.a, e.b, n - 1));
      if (e.a == e.b)
        throw Error(fmt::format("domain graph edge ({}, {}) joins a domain to itself", e.a, e.b));
      if (e.a > e.b) std::swap(e.a, e.b);
    }
    std::sort(list.begin(), list.end(), [](const DomainEdge& x, const DomainEdge& y) {
      return std::tie(x.a, x.b, x.interface) < std::tie(y.a, y.b, y.interface);
    });
    for (std::size_t i = 1; i < list.size(); ++i)
      if (list[i].a == list[i - 1].a && list[i].b == list[i - 1].b)
        throw Error(fmt::format("domain graph edge ({}, {}) is given twice (interfaces {} and {})",
                                list[i].a, list[i].b, list[i - 1].interface, list[i].interface));
    // Edges added in (a, b) order: every vertex's adjacency list is ascending.
    for (std::size_t i = 0; i < list.size(); ++i)
      boost::add_edge(list[i].a, list[i].b, EdgeProperty{static_cast<int>(i), list[i].interface},
                      graph);
    edges = std::move(list);
  }

  void check_domain(int d, const char* what) const {
    if (d < 0 || d >= num_domains)
      throw Error(fmt::format("{}: domain {} is not in the domain graph (domains 0…{})", what, d,
                              num_domains - 1));
  }

  BfsForest bfs(const std::vector<int>& sources) const {
    BfsForest f;
    f.parent.assign(num_domains, -1);
    f.parent_edge.assign(num_domains, -1);
    f.depth.assign(num_domains, 0);
    std::vector<char> seen(edges.size(), 0);
    std::vector<boost::default_color_type> color(num_domains, boost::white_color);
    const auto color_map =
        boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, graph));
    boost::queue<Graph::vertex_descriptor> queue;
    for (const int s : sources)
      if (color[s] == boost::white_color)
        boost::breadth_first_visit(graph, s, queue, ForestVisitor(f, seen), color_map);
    return f;
  }

  std::vector<int> all_domains() const {
    std::vector<int> all(num_domains);
    for (int d = 0; d < num_domains; ++d) all[d] = d;
    return all;
  }

  std::string not_tree_message() const {
    std::string msg;
    const auto components = connected_components();
    const auto forest = bfs(all_domains());
    if (!forest.non_tree_edges.empty()) {
      const DomainEdge& e = edges[forest.non_tree_edges.front()];
      const auto cycle = canonical_cycle(tree_path(forest.parent, forest.depth, e.a, e.b));
      msg += fmt::format(
          "domain graph has a cycle: {} ({} independent {} in all); fix: merge or re-split these "
          "domains, or set [scene] resolve_loops = spanning-tree",
          format_cycle(cycle), forest.non_tree_edges.size(),
          forest.non_tree_edges.size() == 1 ? "cycle" : "cycles");
    }
    if (components.size() > 1) {
      if (!msg.empty()) msg += "; ";
      msg += fmt::format(
          "domain graph is not connected: components {}; fix: make the pieces share vertices "
          "(re-split the domains or join the meshes) or remove the stray pieces",
          format_components(components));
    }
    return msg;
  }

  std::vector<std::vector<int>> connected_components() const {
    std::vector<std::vector<int>> result;
    if (num_domains == 0) return result;
    std::vector<int> label(num_domains);
    const int count = boost::connected_components(graph, label.data());
    // Labels follow the first domain of each component, so components come ascending.
    std::vector<int> renumber(count, -1);
    int next = 0;
    for (int d = 0; d < num_domains; ++d) {
      int& r = renumber[label[d]];
      if (r < 0) {
        r = next++;
        result.emplace_back();
      }
      result[r].push_back(d);
    }
    return result;
  }

  bool is_tree() const {
    return num_domains >= 1 && static_cast<int>(edges.size()) == num_domains - 1 &&
           connected_components().size() == 1;
  }

  TreeView tree_view(int root, const BfsForest& f) const {
    TreeView t;
    t.root = root;
    t.bfs_order = f.order;
    t.parent = f.parent;
    t.parent_edge = f.parent_edge;
    t.depth = f.depth;
    t.parent_interface.assign(num_domains, -1);
    for (int d = 0; d < num_domains; ++d)
      if (f.parent_edge[d] >= 0) t.parent_interface[d] = edges[f.parent_edge[d]].interface;
    t.children.assign(num_domains, {});
    for (const int d : f.order)  // discovery order is ascending among siblings
      if (f.parent[d] >= 0) t.children[f.parent[d]].push_back(d);
    return t;
  }
};

std::vector<int> TreeView::path(int from, int to) const {
  const int n = static_cast<int>(parent.size());
  if (from < 0 || from >= n || to < 0 || to >= n)
    throw Error(fmt::format("tree path from {} to {}: domains are 0…{}", from, to, n - 1));
  return tree_path(parent, depth, from, to);
}

DomainGraph::DomainGraph(int num_domains, const std::vector<Interface>& interfaces, int min_rank)
    : impl_([&] {
        std::vector<DomainEdge> list;
        for (std::size_t i = 0; i < interfaces.size(); ++i)
          if (interfaces[i].rank >= min_rank)
            list.push_back({interfaces[i].a, interfaces[i].b, static_cast<int>(i)});
        return std::make_unique<Impl>(num_domains, std::move(list));
      }()) {}

DomainGraph::DomainGraph(int num_domains, const std::vector<std::pair<int, int>>& edges)
    : impl_([&] {
        std::vector<DomainEdge> list;
        for (std::size_t i = 0; i < edges.size(); ++i)
          list.push_back({edges[i].first, edges[i].second, static_cast<int>(i)});
        return std::make_unique<Impl>(num_domains, std::move(list));
      }()) {}

DomainGraph::DomainGraph(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DomainGraph::DomainGraph(const DomainGraph& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
DomainGraph::DomainGraph(DomainGraph&&) noexcept = default;
DomainGraph& DomainGraph::operator=(const DomainGraph& other) {
  if (this != &other) impl_ = std::make_unique<Impl>(*other.impl_);
  return *this;
}
DomainGraph& DomainGraph::operator=(DomainGraph&&) noexcept = default;
DomainGraph::~DomainGraph() = default;

int DomainGraph::num_domains() const {
  return impl_->num_domains;
}

const std::vector<DomainEdge>& DomainGraph::edges() const {
  return impl_->edges;
}

std::vector<int> DomainGraph::neighbors(int domain) const {
  impl_->check_domain(domain, "neighbors");
  std::vector<int> result;
  for (const auto v : boost::make_iterator_range(boost::adjacent_vertices(domain, impl_->graph)))
    result.push_back(static_cast<int>(v));
  return result;
}

bool DomainGraph::is_tree() const {
  return impl_->is_tree();
}

std::vector<std::vector<int>> DomainGraph::connected_components() const {
  return impl_->connected_components();
}

std::vector<int> DomainGraph::find_cycle() const {
  const auto forest = impl_->bfs(impl_->all_domains());
  if (forest.non_tree_edges.empty()) return {};
  const DomainEdge& e = impl_->edges[forest.non_tree_edges.front()];
  return canonical_cycle(tree_path(forest.parent, forest.depth, e.a, e.b));
}

int DomainGraph::choose_root(const std::vector<Index>& fixed_vertices,
                             const Decomposition& decomposition) const {
  const int n = impl_->num_domains;
  if (n < 1) throw Error("choose_root: the domain graph has no domains");
  if (static_cast<int>(decomposition.domains.size()) != n)
    throw Error(
        fmt::format("choose_root: the domain graph has {} domains but the decomposition "
                    "has {}",
                    n, decomposition.domains.size()));
  if (!fixed_vertices.empty()) {
    Index end = 0;
    for (const SubMesh& s : decomposition.domains)
      if (!s.global_vertex.empty()) end = std::max(end, s.global_vertex.back() + 1);
    std::vector<char> fixed(end, 0);
    for (const Index v : fixed_vertices) {
      if (v < 0) throw Error(fmt::format("choose_root: fixed vertex {} is negative", v));
      if (v < end) fixed[v] = 1;
    }
    int best = -1;
    Index best_count = 0;
    for (int d = 0; d < n; ++d) {
      Index count = 0;
      for (const Index v : decomposition.domains[d].global_vertex) count += fixed[v];
      if (count > best_count) {
        best = d;
        best_count = count;
      }
    }
    if (best < 0)
      throw Error(
          fmt::format("choose_root: none of the {} fixed vertices is used by a domain "
                      "(first: {})",
                      fixed_vertices.size(), fixed_vertices.front()));
    return best;
  }

  if (impl_->is_tree()) {
    // A tree's centre is the middle of any longest path: BFS to a farthest domain u, then from u
    // to a farthest w; the centre is the one or two middle domains of the u–w path.
    auto farthest = [&](const BfsForest& f) {
      return *std::max_element(f.order.begin(), f.order.end(),
                               [&](int x, int y) { return f.depth[x] < f.depth[y]; });
    };
    const int u = farthest(impl_->bfs({0}));
    const BfsForest from_u = impl_->bfs({u});
    int w = farthest(from_u);
    const int length = from_u.depth[w];
    for (int k = 0; k < length / 2; ++k) w = from_u.parent[w];
    // w is now at distance ⌈L/2⌉ from u; for odd L its parent is the other centre.
    return length % 2 == 1 ? std::min(w, from_u.parent[w]) : w;
  }

  // General graph. Unreachable domains count as infinitely far, so a disconnected graph gives
  // domain 0. Otherwise eccentricities are bounded as in Takes & Kosters (2011): a BFS from w
  // gives, for every v, max(d(v,w), ecc(w) − d(v,w)) ≤ ecc(v) ≤ ecc(w) + d(v,w). With R the
  // least upper bound, only domains whose lower bound is ≤ R can be centres; BFS continues
  // (alternating a candidate with the least lower bound and a domain with the largest upper
  // bound) until every candidate's eccentricity is known. Exact, usually a few dozen BFS.
  if (impl_->connected_components().size() > 1) return 0;
  std::vector<int> start(n + 1, 0);
  for (const DomainEdge& e : impl_->edges) {
    ++start[e.a + 1];
    ++start[e.b + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<int> adjacent(start.back());
  {
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (const DomainEdge& e : impl_->edges) {
      adjacent[fill[e.a]++] = e.b;
      adjacent[fill[e.b]++] = e.a;
    }
  }
  std::vector<int> dist(n);
  std::vector<int> queue(n);
  const auto bfs = [&](int s) {
    std::fill(dist.begin(), dist.end(), -1);
    int head = 0;
    int tail = 0;
    queue[tail++] = s;
    dist[s] = 0;
    while (head < tail) {
      const int v = queue[head++];
      for (int k = start[v]; k < start[v + 1]; ++k)
        if (const int w = adjacent[k]; dist[w] < 0) {
          dist[w] = dist[v] + 1;
          queue[tail++] = w;
        }
    }
    return dist[queue[tail - 1]];
  };
  std::vector<int> lower(n, 0);
  std::vector<int> upper(n, std::numeric_limits<int>::max());
  for (bool pick_candidate = true;; pick_candidate = !pick_candidate) {
    const int R = *std::min_element(upper.begin(), upper.end());
    int candidate = -1;  // unresolved candidate with the least lower bound
    int periphery = -1;  // unresolved domain with the largest upper bound
    for (int v = 0; v < n; ++v) {
      if (lower[v] == upper[v]) continue;
      if (lower[v] <= R && (candidate < 0 || lower[v] < lower[candidate])) candidate = v;
      if (periphery < 0 || upper[v] > upper[periphery]) periphery = v;
    }
    if (candidate < 0) {
      for (int v = 0; v < n; ++v)
        if (upper[v] == R) return v;  // candidates are resolved: ecc(v) = R, the radius
    }
    const int s = pick_candidate ? candidate : periphery;
    const int ecc = bfs(s);
    for (int v = 0; v < n; ++v) {
      lower[v] = std::max({lower[v], dist[v], ecc - dist[v]});
      upper[v] = std::min(upper[v], ecc + dist[v]);
    }
  }
}

TreeView DomainGraph::rooted_at(int root) const {
  impl_->check_domain(root, "rooted_at");
  if (!impl_->is_tree()) throw Error(impl_->not_tree_message());
  return impl_->tree_view(root, impl_->bfs({root}));
}

SpanningTree DomainGraph::spanning_tree(int root) const {
  impl_->check_domain(root, "spanning_tree");
  const auto components = impl_->connected_components();
  if (components.size() > 1)
    throw Error(fmt::format(
        "domain graph is not connected: components {}; a spanning tree needs one piece; fix: make "
        "the pieces share vertices (re-split the domains or join the meshes) or remove the stray "
        "pieces",
        format_components(components)));
  const BfsForest forest = impl_->bfs({root});
  SpanningTree result;
  result.tree = impl_->tree_view(root, forest);
  for (const int e : forest.non_tree_edges) result.removed_edges.push_back(impl_->edges[e]);
  return result;
}

DomainGraph DomainGraph::without_edges(const std::vector<std::pair<int, int>>& pairs) const {
  std::vector<char> drop(impl_->edges.size(), 0);
  for (auto [a, b] : pairs) {
    if (a > b) std::swap(a, b);
    const auto it = std::lower_bound(impl_->edges.begin(), impl_->edges.end(), std::pair{a, b},
                                     [](const DomainEdge& e, const std::pair<int, int>& p) {
                                       return std::pair{e.a, e.b} < p;
                                     });
    if (it == impl_->edges.end() || it->a != a || it->b != b)
      throw Error(
          fmt::format("cannot remove ({}, {}): domains {} and {} are not neighbours", a, b, a, b));
    char& d = drop[it - impl_->edges.begin()];
    if (d) throw Error(fmt::format("edge ({}, {}) is listed twice for removal", a, b));
    d = 1;
  }
  std::vector<DomainEdge> kept;
  for (std::size_t i = 0; i < impl_->edges.size(); ++i)
    if (!drop[i]) kept.push_back(impl_->edges[i]);
  return DomainGraph(std::make_unique<Impl>(impl_->num_domains, std::move(kept)));
}

}  // namespace substruct
