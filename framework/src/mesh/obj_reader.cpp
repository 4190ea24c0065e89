// SPDX-License-Identifier: GPL-3.0-or-later
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "detail/line_reader.hpp"
#include "detail/mesh_builder.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct {

namespace {

using mesh_detail::Fields;
using mesh_detail::LineReader;

constexpr std::string_view kCorner = "a face vertex (v, v/vt, v/vt/vn or v//vn)";

// The 0-based vertex of one face corner "v", "v/vt", "v/vt/vn" or "v//vn"; a negative v counts
// back from the last vertex defined so far.
Index corner_vertex(LineReader& r, std::string_view corner, long long num_vertices) {
  std::string_view parts[3];
  std::size_t count = 0;
  std::size_t begin = 0;
  while (true) {
    const std::size_t slash = corner.find('/', begin);
    if (count == 3) r.fail_token(kCorner, corner);
    parts[count++] = corner.substr(begin, slash == std::string_view::npos ? slash : slash - begin);
    if (slash == std::string_view::npos) break;
    begin = slash + 1;
  }
  long long v = 0;
  long long ignored = 0;
  if (!mesh_detail::parse_integer(parts[0], v)) r.fail_token(kCorner, corner);
  for (std::size_t k = 1; k < count; ++k) {
    if (k == 1 && count == 3 && parts[k].empty()) continue;  // v//vn
    if (!mesh_detail::parse_integer(parts[k], ignored)) r.fail_token(kCorner, corner);
  }
  if (v > 0 && v <= num_vertices) return static_cast<Index>(v - 1);
  if (v < 0 && -v <= num_vertices) return static_cast<Index>(num_vertices + v);
  r.fail(fmt::format("a vertex index in [1, {0}] or [-{0}, -1] (the vertices defined so far)",
                     num_vertices),
         mesh_detail::quoted(corner));
}

}  // namespace

SurfaceMesh read_obj(const std::filesystem::path& file) {
  LineReader r(file, '#', "OBJ file");
  std::vector<double> xyz;
  std::vector<Index> triangles;
  std::vector<Index> polygon;
  while (r.next_content()) {
    Fields f(r);
    const std::string_view record = f.next("a record");
    if (record == "v") {
      xyz.push_back(f.next_double("the x coordinate"));
      xyz.push_back(f.next_double("the y coordinate"));
      xyz.push_back(f.next_double("the z coordinate"));
      while (!f.done()) f.next_double("a vertex weight or color component");
      if (xyz.size() / 3 > static_cast<std::size_t>(mesh_detail::kMaxCount))
        r.fail("fewer vertices", "more than an Index holds");
    } else if (record == "f") {
      const auto num_vertices = static_cast<long long>(xyz.size() / 3);
      polygon.clear();
      while (!f.done()) polygon.push_back(corner_vertex(r, f.next(kCorner), num_vertices));
      if (polygon.size() < 3)
        r.fail("at least 3 vertices in a face", fmt::format("{}", polygon.size()));
      // Fan triangulation: (p0, pk, pk+1).
      for (std::size_t k = 1; k + 1 < polygon.size(); ++k)
        triangles.insert(triangles.end(), {polygon[0], polygon[k], polygon[k + 1]});
    }
    // vn, vt, g, o, s, usemtl, mtllib, l, … carry nothing a SurfaceMesh holds.
  }
  if (xyz.empty()) r.fail_end_of_file("vertex records 'v x y z'");
  if (triangles.empty()) r.fail_end_of_file("face records 'f v1 v2 v3 …'");

  SurfaceMesh mesh;
  mesh.vertices = mesh_detail::to_points(xyz);
  mesh.triangles.resize(static_cast<Eigen::Index>(triangles.size() / 3), 3);
  std::copy(triangles.begin(), triangles.end(), mesh.triangles.data());
  return mesh;
}

}  // namespace substruct
