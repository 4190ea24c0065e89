// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/meshing/plant_mesher.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/domains/interface.hpp"
#include "substruct/mesh/hex_split.hpp"
#include "substruct/meshing/voxel_mesher.hpp"
#include "triangle_geometry.hpp"

namespace substruct {

namespace {

using Cell = std::array<long, 3>;
constexpr long kOffset = 1L << 20;
long key(const Cell& c) {
  return ((c[0] + kOffset) << 42) | ((c[1] + kOffset) << 21) | (c[2] + kOffset);
}
Cell cell_of(long k) {
  constexpr long mask = (1L << 21) - 1;
  return {((k >> 42) & mask) - kOffset, ((k >> 21) & mask) - kOffset, (k & mask) - kOffset};
}
constexpr std::array<std::array<int, 3>, 8> kCorner = {
    {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}};
constexpr std::array<std::array<int, 3>, 6> kFace = {
    {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}}};

struct Lattice {
  Vec3 origin = Vec3::Zero();
  double h = 0;
  Vec3 point(const Cell& p) const {
    return origin + h * Vec3(static_cast<double>(p[0]), static_cast<double>(p[1]),
                             static_cast<double>(p[2]));
  }
  long floor_index(double x, int d) const {
    return static_cast<long>(std::floor((x - origin(d)) / h));
  }
};

// A box of cells [lo, hi] (inclusive) with flat indices, x fastest.
struct Window {
  Cell lo{}, n{};
  long size() const { return n[0] * n[1] * n[2]; }
  long flat(const Cell& c) const {
    return ((c[2] - lo[2]) * n[1] + (c[1] - lo[1])) * n[0] + (c[0] - lo[0]);
  }
  Cell at(long f) const {
    return {lo[0] + f % n[0], lo[1] + (f / n[0]) % n[1], lo[2] + f / (n[0] * n[1])};
  }
  bool contains(const Cell& c) const {
    for (std::size_t d = 0; d < 3; ++d)
      if (c[d] < lo[d] || c[d] >= lo[d] + n[d]) return false;
    return true;
  }
};

// Face-connected pieces of the marked cells: each cell's piece id (−1 unmarked) and the sizes.
std::vector<long> face_components(const Window& w, const std::vector<char>& marked,
                                  std::vector<int>& piece) {
  piece.assign(marked.size(), -1);
  std::vector<long> sizes;
  std::vector<long> stack;
  for (long s = 0; s < w.size(); ++s) {
    if (!marked[static_cast<std::size_t>(s)] || piece[static_cast<std::size_t>(s)] >= 0) continue;
    const int id = static_cast<int>(sizes.size());
    sizes.push_back(0);
    piece[static_cast<std::size_t>(s)] = id;
    stack.push_back(s);
    while (!stack.empty()) {
      const Cell c = w.at(stack.back());
      stack.pop_back();
      ++sizes.back();
      for (const auto& f : kFace) {
        const Cell q = {c[0] + f[0], c[1] + f[1], c[2] + f[2]};
        if (!w.contains(q)) continue;
        const auto u = static_cast<std::size_t>(w.flat(q));
        if (!marked[u] || piece[u] >= 0) continue;
        piece[u] = id;
        stack.push_back(static_cast<long>(u));
      }
    }
  }
  return sizes;
}

struct Voxels {
  std::vector<long> cells;  // keys, ascending
  long dropped = 0;         // cubes of smaller face-connected pieces left out
};

std::string piece_words(const std::vector<PlantPiece>& pieces, int p) {
  const PlantPiece& piece = pieces[static_cast<std::size_t>(p)];
  return fmt::format(
      "piece {} ({}{}, {} triangles, box ({:.4g}, {:.4g}, {:.4g})–({:.4g}, {:.4g}, "
      "{:.4g}))",
      p, piece.material.empty() ? "" : "material ",
      piece.material.empty() ? "no material" : "'" + piece.material + "'", piece.triangles.size(),
      piece.lo(0), piece.lo(1), piece.lo(2), piece.hi(0), piece.hi(1), piece.hi(2));
}

// Step 8: the cubes of one piece, from its own triangles.
Voxels voxelize_piece(const SurfaceMesh& s, const std::vector<PlantPiece>& pieces, int p,
                      const Lattice& g, VoxelFill fill, int cells_option) {
  const PlantPiece& piece = pieces[static_cast<std::size_t>(p)];
  Window w;
  for (int d = 0; d < 3; ++d) {
    w.lo[static_cast<std::size_t>(d)] = g.floor_index(piece.lo(d), d) - 2;
    w.n[static_cast<std::size_t>(d)] =
        g.floor_index(piece.hi(d), d) + 3 - w.lo[static_cast<std::size_t>(d)];
  }
  std::vector<char> marked(static_cast<std::size_t>(w.size()), 0);
  if (fill == VoxelFill::centre) {
    SurfaceMesh own;
    own.vertices = Points(static_cast<Eigen::Index>(piece.vertices.size()), 3);
    for (std::size_t v = 0; v < piece.vertices.size(); ++v)
      own.vertices.row(static_cast<Eigen::Index>(v)) = s.vertices.row(piece.vertices[v]);
    own.triangles = Triangles(static_cast<Eigen::Index>(piece.triangles.size()), 3);
    for (std::size_t t = 0; t < piece.triangles.size(); ++t)
      for (int k = 0; k < 3; ++k)
        own.triangles(static_cast<Eigen::Index>(t), k) =
            static_cast<Index>(std::lower_bound(piece.vertices.begin(), piece.vertices.end(),
                                                s.triangles(piece.triangles[t], k)) -
                               piece.vertices.begin());
    marked = cube_centres_inside(own, g.point(w.lo), g.h, w.n);
  } else {
    const Vec3 half = Vec3::Constant(0.5 * g.h * (1 + 1e-9));
    for (const Index t : piece.triangles) {
      const Vec3 a = s.vertices.row(s.triangles(t, 0)).transpose(),
                 b = s.vertices.row(s.triangles(t, 1)).transpose(),
                 c = s.vertices.row(s.triangles(t, 2)).transpose();
      const Vec3 lo = a.cwiseMin(b).cwiseMin(c), hi = a.cwiseMax(b).cwiseMax(c);
      const double eps = 1e-9 * g.h;
      for (long k = g.floor_index(lo(2) - eps, 2); k <= g.floor_index(hi(2) + eps, 2); ++k)
        for (long j = g.floor_index(lo(1) - eps, 1); j <= g.floor_index(hi(1) + eps, 1); ++j)
          for (long i = g.floor_index(lo(0) - eps, 0); i <= g.floor_index(hi(0) + eps, 0); ++i) {
            const Cell cell = {i, j, k};
            const auto f = static_cast<std::size_t>(w.flat(cell));
            if (marked[f]) continue;
            const Vec3 centre = g.point(cell) + Vec3::Constant(0.5 * g.h);
            if (detail::triangle_meets_box(a, b, c, centre, half)) marked[f] = 1;
          }
    }
    if (fill == VoxelFill::surface) {
      // The outside: flooded from the window's border (two cubes clear of the piece).
      std::vector<char> outside(marked.size(), 0);
      std::vector<long> stack;
      for (long f = 0; f < w.size(); ++f) {
        const Cell c = w.at(f);
        bool border = false;
        for (std::size_t d = 0; d < 3; ++d)
          border = border || c[d] == w.lo[d] || c[d] == w.lo[d] + w.n[d] - 1;
        if (border && !marked[static_cast<std::size_t>(f)]) {
          outside[static_cast<std::size_t>(f)] = 1;
          stack.push_back(f);
        }
      }
      while (!stack.empty()) {
        const Cell c = w.at(stack.back());
        stack.pop_back();
        for (const auto& d : kFace) {
          const Cell q = {c[0] + d[0], c[1] + d[1], c[2] + d[2]};
          if (!w.contains(q)) continue;
          const auto u = static_cast<std::size_t>(w.flat(q));
          if (marked[u] || outside[u]) continue;
          outside[u] = 1;
          stack.push_back(static_cast<long>(u));
        }
      }
      for (std::size_t f = 0; f < marked.size(); ++f) marked[f] = outside[f] ? 0 : 1;
    }
  }
  std::vector<int> component;
  const std::vector<long> sizes = face_components(w, marked, component);
  if (sizes.empty())
    throw Error(fmt::format(
        "plant: {} has no cube {} at cubes of {:.4g} (--plant-cells {}); use more cells, or "
        "--fill surface",
        piece_words(pieces, p),
        fill == VoxelFill::centre ? "whose centre is inside it" : "that its triangles touch", g.h,
        cells_option));
  const int largest =
      static_cast<int>(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
  Voxels v;
  for (long f = 0; f < w.size(); ++f)
    if (component[static_cast<std::size_t>(f)] == largest)
      v.cells.push_back(key(w.at(f)));
    else if (component[static_cast<std::size_t>(f)] >= 0)
      ++v.dropped;
  std::sort(v.cells.begin(), v.cells.end());
  return v;
}

struct DomainCells {
  int piece = 0;
  int parent = -1;  // index into the domain list
  PieceType type = PieceType::flexible;
  std::vector<long> cells;
  std::unordered_set<long> cell_set;
  std::unordered_map<long, Index> point;  // lattice point key → vertex
  Index fixed = 0;
  std::string notes;
};

void add_note(std::string& notes, const std::string& note) {
  notes += (notes.empty() ? "" : "; ") + note;
}

// The shortest face-connected path of cubes from `sources` (cubes of the parent) to the child's;
// the cubes it adds to the child (the parent's cube at its end included, the child's own
// excluded).
std::vector<long> bridge(const DomainCells& child, const std::vector<long>& sources) {
  Window w;
  Cell lo = {kOffset, kOffset, kOffset}, hi = {-kOffset, -kOffset, -kOffset};
  for (const auto* cells : {&child.cells, &sources})
    for (const long k : *cells) {
      const Cell c = cell_of(k);
      for (std::size_t a = 0; a < 3; ++a) {
        lo[a] = std::min(lo[a], c[a]);
        hi[a] = std::max(hi[a], c[a]);
      }
    }
  for (std::size_t a = 0; a < 3; ++a) {
    w.lo[a] = lo[a];
    w.n[a] = hi[a] - lo[a] + 1;
  }
  std::vector<long> from(static_cast<std::size_t>(w.size()), -2);  // −1: a source
  std::deque<long> queue;
  for (const long k : sources) {
    const long f = w.flat(cell_of(k));
    from[static_cast<std::size_t>(f)] = -1;
    queue.push_back(f);
  }
  while (!queue.empty()) {
    const long f = queue.front();
    queue.pop_front();
    const Cell c = w.at(f);
    if (child.cell_set.count(key(c)) != 0) {
      std::vector<long> path;
      for (long g = from[static_cast<std::size_t>(f)]; g >= 0;
           g = from[static_cast<std::size_t>(g)])
        path.push_back(key(w.at(g)));
      return path;
    }
    for (const auto& d : kFace) {
      const Cell q = {c[0] + d[0], c[1] + d[1], c[2] + d[2]};
      if (!w.contains(q)) continue;
      const auto u = static_cast<std::size_t>(w.flat(q));
      if (from[u] != -2) continue;
      from[u] = f;
      queue.push_back(static_cast<long>(u));
    }
  }
  return {};
}

}  // namespace

PlantMesh mesh_plant(const SurfaceMesh& surface, const std::vector<PlantPiece>& pieces,
                     const PlantTree& tree, const PlantMeshSettings& settings) {
  if (settings.cells < 1)
    throw Error(fmt::format("plant: {} cells across the plant; expected ≥ 1", settings.cells));
  const Vec3 lo = surface.vertices.colwise().minCoeff().transpose();
  const Vec3 hi = surface.vertices.colwise().maxCoeff().transpose();
  Lattice g;
  g.h = 1.2 * (hi - lo).maxCoeff() / settings.cells;
  if (!(g.h > 0)) throw Error("plant: the model has no extent");
  g.origin = 0.5 * (lo + hi) - 0.6 * (hi - lo).maxCoeff() * Vec3::Ones();
  PlantMesh out;
  out.cell = g.h;
  for (int d = 0; d < 3; ++d)
    out.dims[d] = static_cast<int>(std::ceil(1.2 * (hi(d) - lo(d)) / g.h - 1e-9));

  std::vector<double> xyz;
  std::vector<int> uses;  // domains using each vertex
  const auto fresh = [&](long point_key) {
    const Vec3 x = g.point(cell_of(point_key));
    xyz.insert(xyz.end(), {x(0), x(1), x(2)});
    uses.push_back(1);
    return static_cast<Index>(uses.size() - 1);
  };
  const auto corner = [](long cell_key, const std::array<int, 3>& c) {
    const Cell x = cell_of(cell_key);
    return key({x[0] + c[0], x[1] + c[1], x[2] + c[2]});
  };

  std::vector<DomainCells> domains;
  std::vector<int> domain_of_piece(pieces.size(), -1);
  for (const int p : tree.order) {
    const PlantPiece& piece = pieces[static_cast<std::size_t>(p)];
    const bool rigid = piece.type != PieceType::flexible;
    Voxels v = voxelize_piece(surface, pieces, p, g,
                              rigid ? settings.rigid_fill : settings.flexible_fill, settings.cells);
    DomainCells d;
    d.piece = p;
    d.type = piece.type;
    d.cells = std::move(v.cells);
    if (v.dropped > 0)
      add_note(d.notes, fmt::format("{} cubes apart from the rest left out", v.dropped));
    d.cell_set.insert(d.cells.begin(), d.cells.end());
    const int parent_piece = tree.parent[static_cast<std::size_t>(p)];
    if (parent_piece < 0) {  // the root
      for (const long c : d.cells)
        for (const auto& k : kCorner)
          if (const long x = corner(c, k); d.point.count(x) == 0) d.point[x] = fresh(x);
      domain_of_piece[static_cast<std::size_t>(p)] = static_cast<int>(domains.size());
      domains.push_back(std::move(d));
      continue;
    }
    const int pi = domain_of_piece[static_cast<std::size_t>(parent_piece)];
    DomainCells& parent = domains[static_cast<std::size_t>(pi)];
    d.parent = pi;
    const bool overlaps = std::any_of(d.cells.begin(), d.cells.end(),
                                      [&](long c) { return parent.cell_set.count(c) != 0; });
    if (!overlaps) {
      const std::vector<long> path = bridge(d, parent.cells);
      for (const long c : path) d.cell_set.insert(c);
      d.cells.assign(d.cell_set.begin(), d.cell_set.end());
      std::sort(d.cells.begin(), d.cells.end());
      add_note(d.notes,
               fmt::format("shares no cube with its parent: bridged by {} cubes", path.size()));
    }
    // Step 9: the corners of shared cubes welded to the parent's vertices there, unless taken.
    std::unordered_map<long, Index> welds;
    std::unordered_set<long> corners;
    const auto free_vertex = [&](long x) {
      const auto it = parent.point.find(x);
      return it != parent.point.end() && uses[static_cast<std::size_t>(it->second)] == 1
                 ? it->second
                 : Index{-1};
    };
    const auto weld = [&] {
      welds.clear();
      corners.clear();
      for (const long c : d.cells) {
        const bool shared = parent.cell_set.count(c) != 0;
        for (const auto& k : kCorner) {
          const long x = corner(c, k);
          corners.insert(x);
          if (!shared || welds.count(x) != 0) continue;
          if (const Index v = free_vertex(x); v >= 0) welds[x] = v;
        }
      }
      std::vector<Index> welded;
      for (const auto& [x, vtx] : welds) welded.push_back(vtx);
      std::sort(welded.begin(), welded.end());
      Points at(static_cast<Eigen::Index>(welded.size()), 3);
      for (std::size_t i = 0; i < welded.size(); ++i)
        for (int a = 0; a < 3; ++a)
          at(static_cast<Eigen::Index>(i), a) =
              xyz[3 * static_cast<std::size_t>(welded[i]) + static_cast<std::size_t>(a)];
      std::vector<Index> all(welded.size());
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<Index>(i);
      return welded.empty() ? -1 : affine_rank(at, all);
    };
    int rank = weld();
    if (rank < 2) {
      // The corners there are taken (by a sibling, or shared with the grandparent): a bridge to
      // the nearest cube of the parent with free corners not on one line.
      std::vector<long> free_cubes;
      for (const long c : parent.cells) {
        Points at(8, 3);
        std::vector<Index> free_corners;
        for (std::size_t k = 0; k < 8; ++k) {
          const long x = corner(c, kCorner[k]);
          if (free_vertex(x) < 0) continue;
          at.row(static_cast<Eigen::Index>(k)) = g.point(cell_of(x)).transpose();
          free_corners.push_back(static_cast<Index>(k));
        }
        if (free_corners.size() >= 3 && affine_rank(at, free_corners) >= 2) free_cubes.push_back(c);
      }
      if (!free_cubes.empty()) {
        const std::vector<long> path = bridge(d, free_cubes);
        for (const long c : path) d.cell_set.insert(c);
        d.cells.assign(d.cell_set.begin(), d.cell_set.end());
        std::sort(d.cells.begin(), d.cells.end());
        add_note(d.notes, fmt::format("its parent's vertices in their shared cubes are taken: "
                                      "bridged by {} cubes to free ones",
                                      path.size()));
        rank = weld();
      }
    }
    const char* why = nullptr;
    if (rank < 2)
      why = "its vertices shared with it are collinear or none (the corners there are taken)";
    else if (welds.size() == corners.size())
      why = "it is wholly inside it";
    if (why != nullptr) {
      // Merged: its cubes that the parent lacks join the parent, on the parent's vertices.
      for (const long c : d.cells) {
        if (parent.cell_set.count(c) != 0) continue;
        parent.cells.push_back(c);
        parent.cell_set.insert(c);
        for (const auto& k : kCorner)
          if (const long x = corner(c, k); parent.point.count(x) == 0) parent.point[x] = fresh(x);
      }
      out.merged.push_back(
          fmt::format("{} into piece {}: {}", piece_words(pieces, p), parent.piece, why));
      domain_of_piece[static_cast<std::size_t>(p)] = pi;
      continue;
    }
    for (const auto& [x, vtx] : welds) {
      d.point[x] = vtx;
      ++uses[static_cast<std::size_t>(vtx)];
    }
    d.fixed = static_cast<Index>(welds.size());
    std::vector<long> own(corners.begin(), corners.end());
    std::sort(own.begin(), own.end());  // vertices numbered in lattice order, run after run
    for (const long x : own)
      if (d.point.count(x) == 0) d.point[x] = fresh(x);
    const Index free_vertices = static_cast<Index>(d.point.size()) - d.fixed;
    if (d.type == PieceType::flexible && free_vertices < settings.min_free_vertices) {
      d.type = PieceType::rigid1;
      add_note(d.notes, fmt::format("made rigid: {} free vertices", free_vertices));
    }
    domain_of_piece[static_cast<std::size_t>(p)] = static_cast<int>(domains.size());
    domains.push_back(std::move(d));
  }

  // The tets: every domain's cubes, six each, on the final vertex numbers.
  std::vector<Index> tets;
  for (std::size_t di = 0; di < domains.size(); ++di) {
    DomainCells& d = domains[di];
    std::sort(d.cells.begin(), d.cells.end());
    PlantDomain r;
    r.piece = d.piece;
    r.parent = d.parent;
    r.type = d.type;
    r.cells = static_cast<Index>(d.cells.size());
    r.vertices = static_cast<Index>(d.point.size());
    r.fixed = d.fixed;
    r.notes = d.notes;
    for (const long c : d.cells) {
      Hexahedron hex{};
      for (std::size_t k = 0; k < 8; ++k) hex[k] = d.point.at(corner(c, kCorner[k]));
      const std::optional<SixTets> six = split_hexahedron(xyz, hex);  // a cube always splits
      for (const auto& t : *six) {
        tets.insert(tets.end(), t.begin(), t.end());
        out.element_domain.push_back(static_cast<int>(di));
      }
    }
    r.tets = 6 * r.cells;
    out.domains.push_back(r);
  }
  // R1 under an F domain, R2 under a rigid one (merges and rigid-made domains move them).
  for (PlantDomain& r : out.domains)
    if (r.parent >= 0 && r.type != PieceType::flexible)
      r.type = out.domains[static_cast<std::size_t>(r.parent)].type == PieceType::flexible
                   ? PieceType::rigid1
                   : PieceType::rigid2;
  out.mesh.vertices = Points(static_cast<Eigen::Index>(xyz.size() / 3), 3);
  std::copy(xyz.begin(), xyz.end(), out.mesh.vertices.data());
  out.mesh.tets = Tets(static_cast<Eigen::Index>(tets.size() / 4), 4);
  std::copy(tets.begin(), tets.end(), out.mesh.tets.data());
  out.mesh.materials = {Material{}};
  out.mesh.element_material.assign(static_cast<std::size_t>(out.mesh.num_elements()), 0);
  return out;
}

}  // namespace substruct
