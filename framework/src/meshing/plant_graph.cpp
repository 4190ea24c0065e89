// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/meshing/plant_graph.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/parse_number.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "triangle_geometry.hpp"

namespace substruct {

namespace {

Vec3 at(const SurfaceMesh& s, Index v) {
  return s.vertices.row(v).transpose();
}

void corners(const SurfaceMesh& s, Index t, Vec3 (&x)[3]) {
  for (int k = 0; k < 3; ++k) x[k] = at(s, s.triangles(t, k));
}

}  // namespace

std::vector<PieceContact> find_piece_contacts(const SurfaceMesh& surface,
                                              const std::vector<PlantPiece>& pieces,
                                              double tolerance) {
  const Index nt = static_cast<Index>(surface.triangles.rows());
  std::vector<int> piece_of(static_cast<std::size_t>(nt), -1);
  for (std::size_t p = 0; p < pieces.size(); ++p)
    for (const Index t : pieces[p].triangles)
      piece_of[static_cast<std::size_t>(t)] = static_cast<int>(p);
  // Triangle boxes grown by the tolerance, and a grid about as fine as the typical box.
  std::vector<Vec3> lo(static_cast<std::size_t>(nt)), hi(static_cast<std::size_t>(nt));
  double mean_size = 0;
  for (Index t = 0; t < nt; ++t) {
    Vec3 x[3];
    corners(surface, t, x);
    lo[static_cast<std::size_t>(t)] =
        x[0].cwiseMin(x[1]).cwiseMin(x[2]) - Vec3::Constant(tolerance);
    hi[static_cast<std::size_t>(t)] =
        x[0].cwiseMax(x[1]).cwiseMax(x[2]) + Vec3::Constant(tolerance);
    mean_size += (hi[static_cast<std::size_t>(t)] - lo[static_cast<std::size_t>(t)]).maxCoeff();
  }
  const Vec3 origin = surface.vertices.colwise().minCoeff().transpose() - Vec3::Constant(tolerance);
  const Vec3 extent =
      surface.vertices.colwise().maxCoeff().transpose() + Vec3::Constant(tolerance) - origin;
  double cell = std::max(mean_size / std::max<Index>(nt, 1), 1e-12 * extent.maxCoeff());
  cell = std::max(cell, extent.maxCoeff() / 256);  // at most 256 cells a side
  const auto index = [&](const Vec3& x, int d) {
    return static_cast<long>(std::floor((x(d) - origin(d)) / cell));
  };
  const long ny = index(origin + extent, 1) + 1, nz = index(origin + extent, 2) + 1;
  std::unordered_map<long, std::vector<Index>> bins;
  for (Index t = 0; t < nt; ++t) {
    const std::size_t u = static_cast<std::size_t>(t);
    for (long i = index(lo[u], 0); i <= index(hi[u], 0); ++i)
      for (long j = index(lo[u], 1); j <= index(hi[u], 1); ++j)
        for (long k = index(lo[u], 2); k <= index(hi[u], 2); ++k)
          bins[(i * ny + j) * nz + k].push_back(t);
  }
  std::map<std::pair<int, int>, Index> pairs;
  for (const auto& [key, list] : bins)
    for (std::size_t m = 0; m < list.size(); ++m)
      for (std::size_t n = m + 1; n < list.size(); ++n) {
        const std::size_t t = static_cast<std::size_t>(list[m]),
                          u = static_cast<std::size_t>(list[n]);
        const int a = piece_of[t], b = piece_of[u];
        if (a == b || a < 0 || b < 0) continue;
        if ((lo[t].array() > hi[u].array()).any() || (lo[u].array() > hi[t].array()).any())
          continue;
        // Measured once: in the bin holding the low corner of the boxes' overlap.
        const Vec3 low = lo[t].cwiseMax(lo[u]);
        const long i = index(low, 0), j = index(low, 1), k = index(low, 2);
        if ((i * ny + j) * nz + k != key) continue;
        Vec3 x[3], y[3];
        corners(surface, static_cast<Index>(t), x);
        corners(surface, static_cast<Index>(u), y);
        if (detail::triangle_distance(x, y) <= tolerance) ++pairs[{std::min(a, b), std::max(a, b)}];
      }
  std::vector<PieceContact> contacts;
  for (const auto& [ab, count] : pairs) contacts.push_back({ab.first, ab.second, count});
  return contacts;
}

double piece_distance(const SurfaceMesh& surface, const PlantPiece& a, const PlantPiece& b) {
  double d = INFINITY;
  for (const auto& [p, q] : {std::pair{&a, &b}, std::pair{&b, &a}})
    for (const Index v : p->vertices) {
      const Vec3 x = at(surface, v);
      for (const Index t : q->triangles) {
        Vec3 y[3];
        corners(surface, t, y);
        d = std::min(d, (x - closest_point_on_triangle(x, y[0], y[1], y[2])).norm());
      }
    }
  return d;
}

namespace {

int choose_root(const std::vector<PlantPiece>& pieces, const std::string& root) {
  const int n = static_cast<int>(pieces.size());
  if (root != "lowest" && root != "largest") {
    const std::optional<long> id = parse_integer(root);
    if (!id || *id < 0 || *id >= n)
      throw Error(fmt::format(
          "plant: root '{}' is not lowest, largest or a piece index (the model has pieces 0…{})",
          root, n - 1));
    if (pieces[static_cast<std::size_t>(*id)].type != PieceType::flexible)
      throw Error(fmt::format("plant: root piece {} is rigid ({}); the root must be flexible", *id,
                              pieces[static_cast<std::size_t>(*id)].why));
    return static_cast<int>(*id);
  }
  int best = -1;
  for (int p = 0; p < n; ++p) {
    const PlantPiece& piece = pieces[static_cast<std::size_t>(p)];
    if (piece.type != PieceType::flexible) continue;
    if (best < 0) {
      best = p;
      continue;
    }
    const PlantPiece& b = pieces[static_cast<std::size_t>(best)];
    const double size = (piece.hi - piece.lo).norm(), best_size = (b.hi - b.lo).norm();
    const bool better = root == "lowest"
                            ? piece.lo(1) < b.lo(1) || (piece.lo(1) == b.lo(1) && size > best_size)
                            : size > best_size;
    if (better) best = p;
  }
  return best;
}

}  // namespace

PlantTree build_plant_tree(const SurfaceMesh& surface, std::vector<PlantPiece>& pieces,
                           const std::vector<PieceContact>& contacts, const std::string& root) {
  const int n = static_cast<int>(pieces.size());
  PlantTree tree;
  tree.parent.assign(static_cast<std::size_t>(n), -1);
  tree.root = choose_root(pieces, root);
  const auto flexible = [&](int p) {
    return pieces[static_cast<std::size_t>(p)].type == PieceType::flexible;
  };

  // The F graph on F ids.
  std::vector<int> f_id(static_cast<std::size_t>(n), -1), f_piece;
  for (int p = 0; p < n; ++p)
    if (flexible(p)) {
      f_id[static_cast<std::size_t>(p)] = static_cast<int>(f_piece.size());
      f_piece.push_back(p);
    }
  std::vector<std::pair<int, int>> edges;
  for (const PieceContact& c : contacts)
    if (flexible(c.a) && flexible(c.b))
      edges.emplace_back(f_id[static_cast<std::size_t>(c.a)], f_id[static_cast<std::size_t>(c.b)]);
  const int nf = static_cast<int>(f_piece.size());

  // Step 4: groups touching none of the root's attached to the nearest F piece, nearest first.
  std::vector<std::vector<int>> groups = DomainGraph(nf, edges).connected_components();
  tree.flexible_components = static_cast<int>(groups.size());
  std::vector<char> in_tree(static_cast<std::size_t>(nf), 0);
  const int root_f = f_id[static_cast<std::size_t>(tree.root)];
  std::erase_if(groups, [&](const std::vector<int>& g) {
    if (std::find(g.begin(), g.end(), root_f) == g.end()) return false;
    for (const int f : g) in_tree[static_cast<std::size_t>(f)] = 1;
    return true;
  });
  while (!groups.empty()) {
    std::size_t best_group = 0;
    Attachment best{0, 0, INFINITY};
    for (std::size_t g = 0; g < groups.size(); ++g)
      for (const int f : groups[g])
        for (int t = 0; t < nf; ++t) {
          if (!in_tree[static_cast<std::size_t>(t)]) continue;
          const double d = piece_distance(
              surface, pieces[static_cast<std::size_t>(f_piece[static_cast<std::size_t>(f)])],
              pieces[static_cast<std::size_t>(f_piece[static_cast<std::size_t>(t)])]);
          if (d < best.distance) {
            best = {f, t, d};
            best_group = g;
          }
        }
    edges.emplace_back(best.piece, best.to);
    tree.attached.push_back({f_piece[static_cast<std::size_t>(best.piece)],
                             f_piece[static_cast<std::size_t>(best.to)], best.distance});
    for (const int f : groups[best_group]) in_tree[static_cast<std::size_t>(f)] = 1;
    groups.erase(groups.begin() + static_cast<long>(best_group));
  }

  // Steps 5–6: the breadth-first spanning tree from the root.
  const SpanningTree spanning = DomainGraph(nf, edges).spanning_tree(root_f);
  for (int f = 0; f < nf; ++f) {
    const int p = spanning.tree.parent[static_cast<std::size_t>(f)];
    tree.parent[static_cast<std::size_t>(f_piece[static_cast<std::size_t>(f)])] =
        p < 0 ? -1 : f_piece[static_cast<std::size_t>(p)];
  }
  for (const DomainEdge& e : spanning.removed_edges)
    tree.cut_loops.emplace_back(f_piece[static_cast<std::size_t>(e.a)],
                                f_piece[static_cast<std::size_t>(e.b)]);

  // Step 7: rigid pieces under the piece they touch most, F first, then R1.
  std::vector<std::vector<std::pair<int, Index>>> touching(static_cast<std::size_t>(n));
  for (const PieceContact& c : contacts) {
    touching[static_cast<std::size_t>(c.a)].emplace_back(c.b, c.pairs);
    touching[static_cast<std::size_t>(c.b)].emplace_back(c.a, c.pairs);
  }
  const auto most_touched = [&](int p, PieceType type) {
    int best = -1;
    Index most = 0;
    for (const auto& [q, count] : touching[static_cast<std::size_t>(p)])
      if (pieces[static_cast<std::size_t>(q)].type == type &&
          (count > most || (count == most && q < best))) {
        best = q;
        most = count;
      }
    return best;
  };
  std::vector<int> rigid;
  for (int p = 0; p < n; ++p)
    if (!flexible(p)) rigid.push_back(p);
  std::vector<int> left;
  for (const int p : rigid) {
    const int q = most_touched(p, PieceType::flexible);
    if (q >= 0) {
      tree.parent[static_cast<std::size_t>(p)] = q;
      pieces[static_cast<std::size_t>(p)].type = PieceType::rigid1;
    } else {
      left.push_back(p);
      pieces[static_cast<std::size_t>(p)].type = PieceType::rigid2;  // not an R1: not a parent yet
    }
  }
  std::vector<int> unplaced;
  for (const int p : left) {
    const int q = most_touched(p, PieceType::rigid1);
    if (q >= 0)
      tree.parent[static_cast<std::size_t>(p)] = q;
    else
      unplaced.push_back(p);
  }
  for (const int p : unplaced) {
    Attachment best{p, -1, INFINITY};
    for (int q = 0; q < n; ++q) {
      const PieceType t = pieces[static_cast<std::size_t>(q)].type;
      if (q == p || t == PieceType::rigid2) continue;
      const double d = piece_distance(surface, pieces[static_cast<std::size_t>(p)],
                                      pieces[static_cast<std::size_t>(q)]);
      if (d < best.distance) best = {p, q, d};
    }
    tree.parent[static_cast<std::size_t>(p)] = best.to;
    pieces[static_cast<std::size_t>(p)].type =
        flexible(best.to) ? PieceType::rigid1 : PieceType::rigid2;
    tree.attached.push_back(best);
  }

  // Breadth-first order from the root.
  std::vector<std::vector<int>> children(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p)
    if (tree.parent[static_cast<std::size_t>(p)] >= 0)
      children[static_cast<std::size_t>(tree.parent[static_cast<std::size_t>(p)])].push_back(p);
  tree.order.push_back(tree.root);
  for (std::size_t i = 0; i < tree.order.size(); ++i)
    for (const int c : children[static_cast<std::size_t>(tree.order[i])]) tree.order.push_back(c);
  return tree;
}

}  // namespace substruct
