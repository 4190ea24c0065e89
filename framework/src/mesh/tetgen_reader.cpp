// SPDX-License-Identifier: GPL-3.0-or-later
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "detail/line_reader.hpp"
#include "detail/mesh_builder.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct {

namespace {

using mesh_detail::Fields;
using mesh_detail::kMaxCount;
using mesh_detail::LineReader;

constexpr long long kMaxAttributes = 1 << 20;

// TetGen numbers points and elements from 0 or from 1, as the first one declares.
long long first_index(LineReader& r, long long index, std::string_view what) {
  if (index != 0 && index != 1)
    r.fail(fmt::format("the first {} index 0 or 1", what), std::to_string(index));
  return index;
}

void expect_end_of_file(LineReader& r, long long count, std::string_view what) {
  if (r.next_content()) r.fail_token(fmt::format("end of file after {} {}", count, what), r.line());
}

struct NodeFile {
  std::vector<double> xyz;
  long long base = 0;
  std::map<long long, std::vector<Index>> by_marker;  // non-zero boundary marker → points
};

// Named sets "PREFIX_K" from sets keyed by K.
std::map<std::string, std::vector<Index>> named(const std::string& prefix,
                                                std::map<long long, std::vector<Index>>& sets) {
  std::map<std::string, std::vector<Index>> out;
  for (auto& [k, ids] : sets) out.emplace(fmt::format("{}_{}", prefix, k), std::move(ids));
  return out;
}

NodeFile read_node_file(const std::filesystem::path& file) {
  LineReader r(file, '#', "TetGen node file");
  NodeFile nodes;
  r.require_content("the header 'NUM_POINTS 3 NUM_ATTRIBUTES NUM_BOUNDARY_MARKERS'");
  Fields header(r);
  const long long n = header.next_integer("the number of points", 1, kMaxCount);
  const long long dim = header.next_integer("the dimension 3");
  if (dim != 3) r.fail("the dimension 3", std::to_string(dim));
  const long long attributes =
      header.done() ? 0 : header.next_integer("the number of attributes", 0, kMaxAttributes);
  const long long markers =
      header.done() ? 0 : header.next_integer("the number of boundary markers", 0, 1);
  header.expect_end("the number of boundary markers");

  for (long long i = 0; i < n; ++i) {
    if (!r.next_content()) r.fail_end_of_file(fmt::format("point {} of {}", i + 1, n));
    Fields f(r);
    const long long index = f.next_integer("the point index");
    if (i == 0)
      nodes.base = first_index(r, index, "point");
    else if (index != nodes.base + i)
      r.fail(fmt::format("point index {}", nodes.base + i), std::to_string(index));
    nodes.xyz.push_back(f.next_double("the x coordinate"));
    nodes.xyz.push_back(f.next_double("the y coordinate"));
    nodes.xyz.push_back(f.next_double("the z coordinate"));
    for (long long a = 0; a < attributes; ++a) f.next_double("a point attribute");
    if (markers == 1) {
      const long long marker = f.next_integer("the boundary marker");
      if (marker != 0) nodes.by_marker[marker].push_back(static_cast<Index>(i));
    }
    f.expect_end(markers == 1     ? "the boundary marker"
                 : attributes > 0 ? "the point attributes"
                                  : "the z coordinate");
  }
  expect_end_of_file(r, n, "points");
  return nodes;
}

}  // namespace

TetMesh read_tetgen(const std::filesystem::path& node_or_ele_file) {
  // STEM.node and STEM.ele, given either one or the stem (which may hold dots: mesh.1).
  std::filesystem::path stem = node_or_ele_file;
  if (stem.extension() == ".node" || stem.extension() == ".ele") stem.replace_extension();
  const std::filesystem::path node_file = stem.string() + ".node";
  const std::filesystem::path ele_file = stem.string() + ".ele";

  NodeFile nodes = read_node_file(node_file);
  const long long n = static_cast<long long>(nodes.xyz.size() / 3);

  LineReader r(ele_file, '#', "TetGen element file");
  r.require_content("the header 'NUM_TETRAHEDRA 4 NUM_ATTRIBUTES'");
  Fields header(r);
  const long long m = header.next_integer("the number of tetrahedra", 1, kMaxCount);
  const long long corners = header.next_integer("the number of nodes per tetrahedron");
  if (corners != 4) r.fail("4 nodes per tetrahedron (linear elements)", std::to_string(corners));
  const long long attributes =
      header.done() ? 0 : header.next_integer("the number of attributes", 0, kMaxAttributes);
  header.expect_end("the number of attributes");

  std::vector<Index> tets;
  std::map<long long, std::vector<Index>> by_region;
  long long base = 0;
  for (long long j = 0; j < m; ++j) {
    if (!r.next_content()) r.fail_end_of_file(fmt::format("tetrahedron {} of {}", j + 1, m));
    Fields f(r);
    const long long index = f.next_integer("the tetrahedron index");
    if (j == 0)
      base = first_index(r, index, "tetrahedron");
    else if (index != base + j)
      r.fail(fmt::format("tetrahedron index {}", base + j), std::to_string(index));
    std::array<long long, 4> v{};
    for (auto& vi : v)
      vi = f.next_integer("a point index", nodes.base, nodes.base + n - 1) - nodes.base;
    if (mesh_detail::has_repeated_vertex(v))
      r.fail(fmt::format("4 distinct point indices in tetrahedron {}", index),
             fmt::format("{} {} {} {}", v[0] + nodes.base, v[1] + nodes.base, v[2] + nodes.base,
                         v[3] + nodes.base));
    for (const long long vi : v) tets.push_back(static_cast<Index>(vi));
    for (long long a = 0; a < attributes; ++a) {
      const double attribute = f.next_double("a tetrahedron attribute");
      if (a == 0) {
        // The first attribute is TetGen's region number.
        if (attribute != std::floor(attribute) || std::abs(attribute) > 1e15)
          r.fail("an integer region attribute", fmt::format("{}", attribute));
        by_region[static_cast<long long>(attribute)].push_back(static_cast<Index>(j));
      }
    }
    f.expect_end(attributes > 0 ? "the tetrahedron attributes" : "the fourth point index");
  }
  expect_end_of_file(r, m, "tetrahedra");

  TetMesh mesh;
  mesh.vertices = mesh_detail::to_points(nodes.xyz);
  mesh.tets = mesh_detail::to_tets(tets);
  mesh.materials = {Material{}};
  mesh.element_material.assign(static_cast<std::size_t>(m), 0);
  mesh.element_sets = named("region", by_region);
  mesh.vertex_sets = named("boundary", nodes.by_marker);
  check_tet_mesh(mesh, ele_file);
  return mesh;
}

}  // namespace substruct
