// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/mesh/element_orientation.hpp"

#include <utility>

#include <fmt/format.h>

#include <Eigen/Geometry>

#include "substruct/core/error.hpp"

namespace substruct {

namespace {

// det[x1 − x0, x2 − x0, x3 − x0] = 6 × the signed volume.
double signed_volume6(const TetMesh& mesh, Index e) {
  const Vec3 x0 = mesh.vertices.row(mesh.tets(e, 0)).transpose();
  const Vec3 d1 = mesh.vertices.row(mesh.tets(e, 1)).transpose() - x0;
  const Vec3 d2 = mesh.vertices.row(mesh.tets(e, 2)).transpose() - x0;
  const Vec3 d3 = mesh.vertices.row(mesh.tets(e, 3)).transpose() - x0;
  return d1.dot(d2.cross(d3));
}

}  // namespace

Index count_inverted_elements(const TetMesh& mesh) {
  Index n = 0;
  for (Index e = 0; e < mesh.num_elements(); ++e) n += signed_volume6(mesh, e) < 0 ? 1 : 0;
  return n;
}

Index orient_elements(TetMesh& mesh, const std::filesystem::path& source, bool reorient) {
  Index first = -1, count = 0;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    if (!(signed_volume6(mesh, e) < 0)) continue;
    if (first < 0) first = e;
    ++count;
    if (reorient) std::swap(mesh.tets(e, 1), mesh.tets(e, 2));
  }
  if (count == 0 || reorient) return count;
  throw ParseError(
      source, 0,
      fmt::format("expected positively oriented tetrahedra (det[x1−x0, x2−x0, x3−x0] > 0), "
                  "found {} inverted, the first element {} (1-based, vertices {} {} {} {}); a "
                  "mesh made with the other vertex order is accepted with [scene] "
                  "reorient_elements = true (substruct modes --reorient)",
                  count, first + 1, mesh.tets(first, 0) + 1, mesh.tets(first, 1) + 1,
                  mesh.tets(first, 2) + 1, mesh.tets(first, 3) + 1));
}

}  // namespace substruct
