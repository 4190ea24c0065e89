// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The domain graph: domains are its vertices, interfaces its edges (Barbič–Zhao 2011, §3;
/// Zhao 2014, ch. 4). Methods that propagate frames from a root need it to be a tree; loops are
/// resolved by a breadth-first spanning tree whose redundant edges are reported (Zhao 2014,
/// §4.1, step 6).
#include <memory>
#include <utility>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/domains/interface.hpp"

namespace substruct {

struct Decomposition;

/// An edge between domains a < b; `interface` is the index of its Interface (or its position in
/// the edge list the graph was built from).
struct DomainEdge {
  int a = 0;
  int b = 0;
  int interface = 0;
  bool operator==(const DomainEdge&) const = default;
};

/// A tree domain graph directed away from its root.
struct TreeView {
  int root = 0;
  std::vector<int> bfs_order;              // root first; parents before children
  std::vector<int> parent;                 // −1 for the root
  std::vector<int> parent_edge;            // index into DomainGraph::edges(), −1 for the root
  std::vector<int> parent_interface;       // that edge's interface index, −1 for the root
  std::vector<std::vector<int>> children;  // ascending ids
  std::vector<int> depth;                  // 0 at the root

  /// The domains on the tree path from `from` to `to`, both included.
  std::vector<int> path(int from, int to) const;
};

/// A breadth-first spanning tree (lowest-numbered neighbours first) and the graph edges it left
/// out, in the breadth-first order they were met (loops nearer the root first).
struct SpanningTree {
  TreeView tree;
  std::vector<DomainEdge> removed_edges;
};

class DomainGraph {
 public:
  /// Domains 0…num_domains−1, one edge per interface of rank ≥ min_rank (edge property: the
  /// index into `interfaces`). With min_rank = 2, domains touching only at a corner or along an
  /// edge are not neighbours.
  DomainGraph(int num_domains, const std::vector<Interface>& interfaces, int min_rank = 0);
  /// Domains 0…num_domains−1 and the given edges (either order; no self-loops or duplicates).
  DomainGraph(int num_domains, const std::vector<std::pair<int, int>>& edges);
  DomainGraph(const DomainGraph&);
  DomainGraph(DomainGraph&&) noexcept;
  DomainGraph& operator=(const DomainGraph&);
  DomainGraph& operator=(DomainGraph&&) noexcept;
  ~DomainGraph();

  int num_domains() const;
  /// Sorted by (a, b).
  const std::vector<DomainEdge>& edges() const;
  /// Ascending ids.
  std::vector<int> neighbors(int domain) const;

  /// Connected and without cycles.
  bool is_tree() const;
  /// Each component's domains, ascending; components ordered by their lowest domain.
  std::vector<std::vector<int>> connected_components() const;
  /// The domains of one cycle in order, starting at its lowest domain and continuing to the
  /// lower of that domain's two cycle neighbours; empty when the graph has no cycle.
  std::vector<int> find_cycle() const;

  /// The domain holding the most of `fixed_vertices` (global ids; vertices on an interface count
  /// for every domain that uses them); ties go to the lowest id. Without fixed vertices: a centre
  /// of the graph, the domain whose farthest domain is nearest (breadth-first depth); ties go to
  /// the lowest id (a disconnected graph, where every domain has unreachable ones, gives 0).
  /// Throws Error when the decomposition's domain count differs, a fixed vertex is negative,
  /// or no domain uses any of the fixed vertices.
  int choose_root(const std::vector<Index>& fixed_vertices,
                  const Decomposition& decomposition) const;

  /// The tree directed away from `root`. Throws Error naming a cycle and/or the components when
  /// the graph is not a tree.
  TreeView rooted_at(int root) const;
  /// The breadth-first spanning tree from `root` and the removed edges. Throws Error listing the
  /// components when the graph is not connected.
  SpanningTree spanning_tree(int root) const;
  /// The same domains without the given edges (domain pairs, either order; each must be an edge).
  /// Remaining edges keep their interface index.
  DomainGraph without_edges(const std::vector<std::pair<int, int>>& pairs) const;

 private:
  struct Impl;
  explicit DomainGraph(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace substruct
