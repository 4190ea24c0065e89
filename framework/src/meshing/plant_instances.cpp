// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/meshing/plant_instances.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/SVD>

namespace substruct {

namespace {

// A piece's vertices centred on their mean and divided by their RMS radius, with their
// principal axes (columns, ascending variance) and whether those are distinct.
struct Normalized {
  std::vector<Vec3> y;
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
  bool distinct_axes = false;
  std::vector<double> radii;               // sorted |y|
  std::set<std::array<int, 3>> triangles;  // local vertex numbers, sorted within each
};

Normalized normalize(const SurfaceMesh& s, const PlantPiece& piece) {
  Normalized n;
  Vec3 mean = Vec3::Zero();
  for (const Index v : piece.vertices) mean += s.vertices.row(v).transpose();
  mean /= static_cast<double>(piece.vertices.size());
  double rms = 0;
  for (const Index v : piece.vertices) rms += (s.vertices.row(v).transpose() - mean).squaredNorm();
  rms = std::sqrt(rms / static_cast<double>(piece.vertices.size()));
  if (!(rms > 0)) rms = 1;
  Eigen::Matrix3d c = Eigen::Matrix3d::Zero();
  for (const Index v : piece.vertices) {
    n.y.push_back((s.vertices.row(v).transpose() - mean) / rms);
    c += n.y.back() * n.y.back().transpose();
    n.radii.push_back(n.y.back().norm());
  }
  std::sort(n.radii.begin(), n.radii.end());
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(c);
  n.axes = eig.eigenvectors();
  const Vec3 l = eig.eigenvalues() / std::max(eig.eigenvalues().maxCoeff(), 1e-300);
  n.distinct_axes = l(1) - l(0) > 1e-3 && l(2) - l(1) > 1e-3;
  for (const Index t : piece.triangles) {
    std::array<int, 3> tri{};
    for (int k = 0; k < 3; ++k)
      tri[static_cast<std::size_t>(k)] = static_cast<int>(
          std::lower_bound(piece.vertices.begin(), piece.vertices.end(), s.triangles(t, k)) -
          piece.vertices.begin());
    std::sort(tri.begin(), tri.end());
    n.triangles.insert(tri);
  }
  return n;
}

// Whether z_i = R a.y_i matches b's vertices one to one within tol, triangles onto triangles.
bool matches(const Normalized& a, const Normalized& b, const Eigen::Matrix3d& r, double tol) {
  std::vector<int> map(a.y.size(), -1);
  std::vector<char> used(b.y.size(), 0);
  for (std::size_t i = 0; i < a.y.size(); ++i) {
    const Vec3 z = r * a.y[i];
    int best = -1;
    double best_d = tol;
    for (std::size_t j = 0; j < b.y.size(); ++j) {
      const double d = (b.y[j] - z).norm();
      if (d <= best_d) {
        best_d = d;
        best = static_cast<int>(j);
      }
    }
    if (best < 0 || used[static_cast<std::size_t>(best)]) return false;
    used[static_cast<std::size_t>(best)] = 1;
    map[i] = best;
  }
  for (const auto& t : a.triangles) {
    std::array<int, 3> u = {map[static_cast<std::size_t>(t[0])],
                            map[static_cast<std::size_t>(t[1])],
                            map[static_cast<std::size_t>(t[2])]};
    std::sort(u.begin(), u.end());
    if (b.triangles.count(u) == 0) return false;
  }
  return true;
}

bool copies(const Normalized& a, const Normalized& b, double tol) {
  if (a.y.size() != b.y.size() || a.triangles.size() != b.triangles.size()) return false;
  for (std::size_t i = 0; i < a.radii.size(); ++i)
    if (std::abs(a.radii[i] - b.radii[i]) > tol) return false;
  if (matches(a, b, Eigen::Matrix3d::Identity(), tol)) return true;
  // Three vertices of a far apart (no two collinear with the centroid), each matched to the
  // vertices of b as far from the centroid and as far from the others; the rotation that best
  // maps each matching triple (Kabsch: H = Σ a bᵀ = U S Vᵀ, R = V diag(1, 1, det V Uᵀ) Uᵀ) is
  // tried. Symmetric pieces (a crown turned by a quarter) have several triples; few are tried.
  const std::size_t n = a.y.size();
  std::size_t a0 = 0, a1 = 0, a2 = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (a.y[i].norm() > a.y[a0].norm()) a0 = i;
  for (std::size_t i = 0; i < n; ++i)
    if ((a.y[i] - a.y[a0]).norm() > (a.y[a1] - a.y[a0]).norm()) a1 = i;
  for (std::size_t i = 0; i < n; ++i)
    if ((a.y[i] - a.y[a0]).cross(a.y[a1] - a.y[a0]).norm() >
        (a.y[a2] - a.y[a0]).cross(a.y[a1] - a.y[a0]).norm())
      a2 = i;
  const double eps = 4 * tol;
  const auto like = [&](std::size_t ai, std::size_t bj) {
    return std::abs(a.y[ai].norm() - b.y[bj].norm()) <= eps;
  };
  const auto apart = [&](std::size_t ai, std::size_t ak, std::size_t bj, std::size_t bl) {
    return std::abs((a.y[ai] - a.y[ak]).norm() - (b.y[bj] - b.y[bl]).norm()) <= eps;
  };
  int tried = 0;
  for (std::size_t b0 = 0; b0 < n; ++b0) {
    if (!like(a0, b0)) continue;
    for (std::size_t b1 = 0; b1 < n; ++b1) {
      if (b1 == b0 || !like(a1, b1) || !apart(a0, a1, b0, b1)) continue;
      for (std::size_t b2 = 0; b2 < n; ++b2) {
        if (b2 == b0 || b2 == b1 || !like(a2, b2) || !apart(a0, a2, b0, b2) ||
            !apart(a1, a2, b1, b2))
          continue;
        if (++tried > 64) return false;
        const Eigen::Matrix3d h = a.y[a0] * b.y[b0].transpose() + a.y[a1] * b.y[b1].transpose() +
                                  a.y[a2] * b.y[b2].transpose();
        const Eigen::JacobiSVD<Eigen::Matrix3d> svd(h, Eigen::ComputeFullU | Eigen::ComputeFullV);
        Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
        d(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0 ? -1 : 1;
        if (matches(a, b, svd.matrixV() * d * svd.matrixU().transpose(), tol)) return true;
      }
    }
  }
  if (!a.distinct_axes || !b.distinct_axes) return false;
  for (int signs = 0; signs < 8; ++signs) {
    Eigen::Matrix3d flip = Eigen::Matrix3d::Identity();
    for (int d = 0; d < 3; ++d)
      if ((signs >> d) & 1) flip(d, d) = -1;
    const Eigen::Matrix3d r = b.axes * flip * a.axes.transpose();
    if (r.determinant() < 0) continue;  // a mirror image is not a copy
    if (matches(a, b, r, tol)) return true;
  }
  return false;
}

}  // namespace

std::vector<int> find_instances(const SurfaceMesh& surface, const std::vector<PlantPiece>& pieces,
                                double tolerance) {
  std::vector<Normalized> normalized;
  normalized.reserve(pieces.size());
  for (const PlantPiece& p : pieces) normalized.push_back(normalize(surface, p));
  std::vector<int> of(pieces.size());
  std::vector<int> representatives;
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    of[p] = static_cast<int>(p);
    for (const int r : representatives)
      if (pieces[static_cast<std::size_t>(r)].type == pieces[p].type &&
          copies(normalized[static_cast<std::size_t>(r)], normalized[p], tolerance)) {
        of[p] = r;
        break;
      }
    if (of[p] == static_cast<int>(p)) representatives.push_back(static_cast<int>(p));
  }
  return of;
}

}  // namespace substruct
