// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/geometry/render_embedding.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include <Eigen/Geometry>
#include <Eigen/LU>

#include "substruct/core/error.hpp"
#include "substruct/mesh/closest_point.hpp"

namespace substruct {

namespace {

struct Tet {
  Vec3 x[4];
  Mat3 inverse;  // of [x1−x0, x2−x0, x3−x0]
};

Eigen::Vector4d barycentric(const Tet& t, const Vec3& p) {
  const Vec3 b = t.inverse * (p - t.x[0]);
  return {1 - b.sum(), b[0], b[1], b[2]};
}

double distance_to_tet(const Tet& t, const Eigen::Vector4d& w, const Vec3& p) {
  if (w.minCoeff() >= 0) return 0;
  constexpr int faces[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  double best = std::numeric_limits<double>::infinity();
  for (const auto& f : faces)
    best =
        std::min(best, (p - closest_point_on_triangle(p, t.x[f[0]], t.x[f[1]], t.x[f[2]])).norm());
  return best;
}

// A uniform grid of cells over the mesh's bounding box; each cell lists the tets whose bounding
// box overlaps it.
class TetGrid {
 public:
  TetGrid(const TetMesh& mesh, const std::vector<Eigen::AlignedBox3d>& boxes) {
    for (const auto& b : boxes) box_.extend(b);
    const Index m = mesh.num_elements();
    // About 2 tets per cell.
    const Vec3 size = box_.sizes().cwiseMax(1e-12);
    const double cell = std::cbrt(size.prod() / std::max<double>(1, m / 2.0));
    for (int a = 0; a < 3; ++a)
      dims_[a] = std::clamp(static_cast<int>(std::ceil(size[a] / cell)), 1, 256);
    cell_ = size.cwiseQuotient(Vec3(dims_[0], dims_[1], dims_[2]));
    cells_.resize(static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2]);
    for (Index e = 0; e < m; ++e) {
      const auto lo = cell_of(boxes[static_cast<std::size_t>(e)].min());
      const auto hi = cell_of(boxes[static_cast<std::size_t>(e)].max());
      for (int i = lo[0]; i <= hi[0]; ++i)
        for (int j = lo[1]; j <= hi[1]; ++j)
          for (int k = lo[2]; k <= hi[2]; ++k) cells_[index(i, j, k)].push_back(e);
    }
  }

  std::array<int, 3> cell_of(const Vec3& p) const {
    std::array<int, 3> c{};
    for (int a = 0; a < 3; ++a)
      c[a] = std::clamp(static_cast<int>(std::floor((p[a] - box_.min()[a]) / cell_[a])), 0,
                        dims_[a] - 1);
    return c;
  }
  std::size_t index(int i, int j, int k) const {
    return (static_cast<std::size_t>(k) * dims_[1] + j) * dims_[0] + i;
  }
  const std::vector<Index>& cell(int i, int j, int k) const { return cells_[index(i, j, k)]; }
  int dim(int a) const { return dims_[a]; }
  double min_cell() const { return cell_.minCoeff(); }
  // Distance from p to the box of cells within `ring` of c, a lower bound for tets beyond it.
  double ring_clearance(const Vec3& p, const std::array<int, 3>& c, int ring) const {
    double clearance = std::numeric_limits<double>::infinity();
    for (int a = 0; a < 3; ++a) {
      const double lo = box_.min()[a] + (c[a] - ring) * cell_[a];
      const double hi = box_.min()[a] + (c[a] + ring + 1) * cell_[a];
      if (c[a] - ring > 0) clearance = std::min(clearance, p[a] - lo);
      if (c[a] + ring + 1 < dims_[a]) clearance = std::min(clearance, hi - p[a]);
    }
    return clearance;
  }

 private:
  Eigen::AlignedBox3d box_;
  int dims_[3] = {1, 1, 1};
  Vec3 cell_ = Vec3::Ones();
  std::vector<std::vector<Index>> cells_;
};

}  // namespace

Index RenderEmbedding::dominant_vertex(Index k) const {
  Eigen::Index best = 0;
  weights.row(k).maxCoeff(&best);
  return vertices(k, best);
}

RenderEmbedding embed_points(const TetMesh& mesh, const Points& points) {
  const Index m = mesh.num_elements();
  if (m == 0) throw Error("render embedding: the tet mesh has no elements");
  std::vector<Tet> tets(static_cast<std::size_t>(m));
  std::vector<Eigen::AlignedBox3d> boxes(static_cast<std::size_t>(m));
  for (Index e = 0; e < m; ++e) {
    Tet& t = tets[static_cast<std::size_t>(e)];
    for (int a = 0; a < 4; ++a) {
      t.x[a] = mesh.vertices.row(mesh.tets(e, a)).transpose();
      boxes[static_cast<std::size_t>(e)].extend(t.x[a]);
    }
    Mat3 D;
    D << t.x[1] - t.x[0], t.x[2] - t.x[0], t.x[3] - t.x[0];
    t.inverse = D.inverse();
  }
  const TetGrid grid(mesh, boxes);

  RenderEmbedding out;
  const auto n = static_cast<Index>(points.rows());
  out.vertices.resize(n, 4);
  out.weights.resize(n, 4);
  out.distance.resize(n);
  for (Index k = 0; k < n; ++k) {
    const Vec3 p = points.row(k).transpose();
    if (!p.allFinite())
      throw Error(fmt::format("render embedding: point {} has a non-finite coordinate", k));
    const auto c = grid.cell_of(p);
    Index best = -1;
    double best_distance = std::numeric_limits<double>::infinity();
    Eigen::Vector4d best_w = Eigen::Vector4d::Zero();
    const int max_ring = std::max({grid.dim(0), grid.dim(1), grid.dim(2)});
    for (int ring = 0; ring <= max_ring; ++ring) {
      for (int i = c[0] - ring; i <= c[0] + ring; ++i)
        for (int j = c[1] - ring; j <= c[1] + ring; ++j)
          for (int l = c[2] - ring; l <= c[2] + ring; ++l) {
            if (i < 0 || j < 0 || l < 0 || i >= grid.dim(0) || j >= grid.dim(1) || l >= grid.dim(2))
              continue;
            // Only the shell of this ring (inner cells were visited before).
            if (std::max({std::abs(i - c[0]), std::abs(j - c[1]), std::abs(l - c[2])}) != ring)
              continue;
            for (Index e : grid.cell(i, j, l)) {
              const Tet& t = tets[static_cast<std::size_t>(e)];
              const Eigen::Vector4d w = barycentric(t, p);
              const double dist = distance_to_tet(t, w, p);
              // Inside ties go to the tet whose smallest coordinate is largest (most inside).
              if (dist < best_distance ||
                  (dist == best_distance && best >= 0 && w.minCoeff() > best_w.minCoeff())) {
                best = e;
                best_distance = dist;
                best_w = w;
              }
            }
          }
      if (best >= 0 && best_distance <= grid.ring_clearance(p, c, ring)) break;
    }
    for (int a = 0; a < 4; ++a) {
      out.vertices(k, a) = mesh.tets(best, a);
      out.weights(k, a) = best_w[a];
    }
    out.distance[k] = best_distance;
  }
  return out;
}

void embedded_positions(const RenderEmbedding& embedding, const Points& x, Points& y) {
  const Index n = embedding.size();
  y.resize(n, 3);
  for (Index k = 0; k < n; ++k) {
    Vec3 p = Vec3::Zero();
    for (int a = 0; a < 4; ++a)
      p += embedding.weights(k, a) * x.row(embedding.vertices(k, a)).transpose();
    y.row(k) = p.transpose();
  }
}

}  // namespace substruct
