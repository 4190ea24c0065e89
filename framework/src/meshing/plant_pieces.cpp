// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/meshing/plant_pieces.hpp"

#include <algorithm>
#include <numeric>
#include <regex>

#include <fmt/format.h>
#include <Eigen/Eigenvalues>

#include "substruct/core/error.hpp"

namespace substruct {

const char* piece_type_name(PieceType type) {
  switch (type) {
    case PieceType::flexible:
      return "F";
    case PieceType::rigid1:
      return "R1";
    case PieceType::rigid2:
      return "R2";
  }
  return "?";
}

namespace {

Index find_root(std::vector<Index>& parent, Index a) {
  while (parent[static_cast<std::size_t>(a)] != a) {
    parent[static_cast<std::size_t>(a)] =
        parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(a)])];
    a = parent[static_cast<std::size_t>(a)];
  }
  return a;
}

}  // namespace

std::vector<PlantPiece> split_into_pieces(const TriangleModel& model, bool by_mesh) {
  const SurfaceMesh& s = model.surface;
  const Index nv = static_cast<Index>(s.vertices.rows()),
              nt = static_cast<Index>(s.triangles.rows());
  // Union–find over vertices (by_mesh: over (mesh, vertex) pairs, one node per triangle corner
  // keyed by its mesh, so that meshes meeting at a vertex stay apart).
  const auto mesh_of = [&](Index t) {
    return by_mesh && !model.triangle_mesh.empty()
               ? model.triangle_mesh[static_cast<std::size_t>(t)]
               : 0;
  };
  int meshes = 1;
  if (by_mesh)
    for (Index t = 0; t < nt; ++t) meshes = std::max(meshes, mesh_of(t) + 1);
  std::vector<Index> parent(static_cast<std::size_t>(nv) * static_cast<std::size_t>(meshes));
  std::iota(parent.begin(), parent.end(), 0);
  const auto node = [&](Index t, int k) { return mesh_of(t) * nv + s.triangles(t, k); };
  for (Index t = 0; t < nt; ++t)
    for (int k = 1; k < 3; ++k) {
      const Index a = find_root(parent, node(t, 0)), b = find_root(parent, node(t, k));
      if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
    }
  std::vector<int> piece_of_root(parent.size(), -1);
  std::vector<PlantPiece> pieces;
  for (Index t = 0; t < nt; ++t) {
    const Index r = find_root(parent, node(t, 0));
    int& p = piece_of_root[static_cast<std::size_t>(r)];
    if (p < 0) {
      p = static_cast<int>(pieces.size());
      pieces.emplace_back();
      if (!model.triangle_mesh.empty() && !model.mesh_materials.empty())
        pieces.back().material = model.mesh_materials[static_cast<std::size_t>(
            model.triangle_mesh[static_cast<std::size_t>(t)])];
    }
    pieces[static_cast<std::size_t>(p)].triangles.push_back(t);
  }
  for (PlantPiece& piece : pieces) {
    for (const Index t : piece.triangles)
      for (int k = 0; k < 3; ++k) piece.vertices.push_back(s.triangles(t, k));
    std::sort(piece.vertices.begin(), piece.vertices.end());
    piece.vertices.erase(std::unique(piece.vertices.begin(), piece.vertices.end()),
                         piece.vertices.end());
    piece.lo = piece.hi = s.vertices.row(piece.vertices.front()).transpose();
    for (const Index v : piece.vertices) {
      piece.lo = piece.lo.cwiseMin(s.vertices.row(v).transpose());
      piece.hi = piece.hi.cwiseMax(s.vertices.row(v).transpose());
    }
  }
  return pieces;
}

namespace {

// The smallest principal extent of a piece's vertices over its largest (0 for a flat card).
double thinness(const SurfaceMesh& s, const PlantPiece& piece) {
  Vec3 mean = Vec3::Zero();
  for (const Index v : piece.vertices) mean += s.vertices.row(v).transpose();
  mean /= static_cast<double>(piece.vertices.size());
  Eigen::Matrix3d c = Eigen::Matrix3d::Zero();
  for (const Index v : piece.vertices) {
    const Vec3 d = s.vertices.row(v).transpose() - mean;
    c += d * d.transpose();
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(c);
  const Eigen::Matrix3d axes = eig.eigenvectors();
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
  for (const Index v : piece.vertices) {
    const Vec3 y = axes.transpose() * (s.vertices.row(v).transpose() - mean);
    lo = lo.cwiseMin(y);
    hi = hi.cwiseMax(y);
  }
  const Vec3 extent = hi - lo;
  return extent.maxCoeff() > 0 ? extent.minCoeff() / extent.maxCoeff() : 0.0;
}

}  // namespace

void type_pieces(const SurfaceMesh& surface, const PieceTyping& rules,
                 std::vector<PlantPiece>& pieces) {
  const int n = static_cast<int>(pieces.size());
  for (const auto* list : {&rules.rigid_pieces, &rules.flexible_pieces})
    for (const int p : *list)
      if (p < 0 || p >= n)
        throw Error(
            fmt::format("plant: piece {} does not exist: the model has pieces 0…{}", p, n - 1));
  std::regex rigid_material;
  try {
    rigid_material = std::regex(rules.rigid_materials.empty() ? "$^" : rules.rigid_materials,
                                std::regex::ECMAScript | std::regex::icase);
  } catch (const std::regex_error& e) {
    throw Error(fmt::format("plant: rigid materials '{}' is not a regular expression: {}",
                            rules.rigid_materials, e.what()));
  }
  const double plant =
      (surface.vertices.colwise().maxCoeff() - surface.vertices.colwise().minCoeff()).norm();
  const auto has = [](const std::vector<int>& list, int p) {
    return std::find(list.begin(), list.end(), p) != list.end();
  };
  int flexible = 0;
  for (int p = 0; p < n; ++p) {
    PlantPiece& piece = pieces[static_cast<std::size_t>(p)];
    piece.type = PieceType::rigid1;
    if (has(rules.flexible_pieces, p)) {
      piece.type = PieceType::flexible;
      piece.why = "flexible by choice";
    } else if (has(rules.rigid_pieces, p)) {
      piece.why = "rigid by choice";
    } else if (!rules.rigid_materials.empty() &&
               std::regex_search(piece.material, rigid_material)) {
      piece.why = fmt::format("material '{}'", piece.material);
    } else if (const double t = thinness(surface, piece); t < rules.thin) {
      piece.why = fmt::format("thin ({:.3g} of its length)", t);
    } else if (const double d = (piece.hi - piece.lo).norm(); d < rules.small * plant) {
      piece.why = fmt::format("small ({:.3g} of the plant)", d / plant);
    } else {
      piece.type = PieceType::flexible;
      piece.why = "solid";
    }
    flexible += piece.type == PieceType::flexible ? 1 : 0;
  }
  if (flexible == 0)
    throw Error(
        "plant: every piece is rigid (by material, thinness or size), so nothing carries the "
        "plant; name a flexible piece (--flexible-pieces) or change --rigid-materials, --thin, "
        "--small");
}

}  // namespace substruct
