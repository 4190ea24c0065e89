// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <utility>
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

constexpr long long kMaxTag = std::numeric_limits<long long>::max();
constexpr int kTetType = 4;

// Gmsh element types: the dimension and node count of each (Gmsh reference manual, "MSH file
// format"), so that a line is checked and the element's role is known.
struct ElementType {
  int type;
  int dim;
  int nodes;
  const char* name;
};
constexpr std::array<ElementType, 33> kElementTypes = {{
    {1, 1, 2, "2-node line"},
    {2, 2, 3, "3-node triangle"},
    {3, 2, 4, "4-node quadrangle"},
    {4, 3, 4, "4-node tetrahedron"},
    {5, 3, 8, "8-node hexahedron"},
    {6, 3, 6, "6-node prism"},
    {7, 3, 5, "5-node pyramid"},
    {8, 1, 3, "3-node line"},
    {9, 2, 6, "6-node triangle"},
    {10, 2, 9, "9-node quadrangle"},
    {11, 3, 10, "10-node tetrahedron"},
    {12, 3, 27, "27-node hexahedron"},
    {13, 3, 18, "18-node prism"},
    {14, 3, 14, "14-node pyramid"},
    {15, 0, 1, "1-node point"},
    {16, 2, 8, "8-node quadrangle"},
    {17, 3, 20, "20-node hexahedron"},
    {18, 3, 15, "15-node prism"},
    {19, 3, 13, "13-node pyramid"},
    {20, 2, 9, "9-node triangle"},
    {21, 2, 10, "10-node triangle"},
    {22, 2, 12, "12-node triangle"},
    {23, 2, 15, "15-node triangle"},
    {24, 2, 15, "15-node triangle"},
    {25, 2, 21, "21-node triangle"},
    {26, 1, 4, "4-node line"},
    {27, 1, 5, "5-node line"},
    {28, 1, 6, "6-node line"},
    {29, 3, 20, "20-node tetrahedron"},
    {30, 3, 35, "35-node tetrahedron"},
    {31, 3, 56, "56-node tetrahedron"},
    {92, 3, 64, "64-node hexahedron"},
    {93, 3, 125, "125-node hexahedron"},
}};

const ElementType& element_type(LineReader& r, long long type) {
  for (const ElementType& t : kElementTypes)
    if (t.type == type) return t;
  r.fail("a Gmsh element type of points, lines, surfaces or linear tetrahedra",
         fmt::format("element type {}", type));
}

struct Node {
  long long tag;
  double x, y, z;
  long line;
};

struct Element {
  long long tag;
  int type;
  int dim;
  int nodes;
  long long group;  // v2: the physical tag (0: none); v4: the entity tag
  std::size_t first_node;
  long line;
};

struct GmshContent {
  int major = 0;  // 1, 2 or 4
  bool has_physical_names = false;
  bool has_entities = false;
  bool has_nodes = false;
  bool has_elements = false;
  long elements_line = 0;
  std::map<std::pair<int, long long>, std::string> physical_names;     // (dim, tag) → name
  std::map<std::pair<int, long long>, std::vector<long long>> entity;  // (dim, tag) → physicals
  std::vector<Node> nodes;
  std::vector<Element> elements;
  std::vector<long long> element_nodes;
};

void expect_marker(LineReader& r, std::string_view marker) {
  r.require_content(marker);
  if (r.line() != marker) r.fail_token(marker, r.line());
}

void read_mesh_format(LineReader& r, GmshContent& c) {
  r.require_content("the format line 'VERSION FILE_TYPE DATA_SIZE'");
  Fields f(r);
  const std::string_view version = f.next("the format version");
  const long long file_type = f.next_integer("the file type (0 for ASCII)");
  f.next_integer("the data size");
  f.expect_end("the data size");
  if (file_type == 1)
    r.fail("an ASCII .msh (file type 0)",
           "file type 1: binary .msh is not supported; re-save as ASCII");
  if (file_type != 0) r.fail("the file type 0 (ASCII)", std::to_string(file_type));
  if (version == "4.1")
    c.major = 4;
  else if (version == "2.2" || version == "2.1" || version == "2.0" || version == "2")
    c.major = 2;
  else
    r.fail("Gmsh format version 2.2 or 4.1",
           fmt::format("version {} (re-save the mesh in format 4.1 or 2.2, ASCII)",
                       mesh_detail::quoted(version)));
  expect_marker(r, "$EndMeshFormat");
}

// The next line of a section's body; a section marker there means the body ended too soon.
// `expected()` describes the line, formatted only when it is missing.
template <class Expected>
void require_record(LineReader& r, const Expected& expected) {
  if (!r.next_content()) r.fail_end_of_file(expected());
  if (r.line().front() == '$') r.fail_token(expected(), r.line());
}

long long read_count(LineReader& r, std::string_view what) {
  r.require_content(what);
  Fields f(r);
  const long long n = f.next_integer(what, 0, kMaxCount);
  f.expect_end(what);
  return n;
}

void read_physical_names(LineReader& r, GmshContent& c) {
  const long long n = read_count(r, "the number of physical names");
  for (long long i = 0; i < n; ++i) {
    require_record(r, [&] { return fmt::format("physical name {} of {}", i + 1, n); });
    Fields f(r);
    const auto dim = static_cast<int>(f.next_integer("the physical dimension", 0, 3));
    const long long tag = f.next_integer("the physical tag");
    const std::string_view name = f.rest();
    if (name.size() < 2 || name.front() != '"' || name.back() != '"')
      r.fail("a quoted physical name \"NAME\"",
             name.empty() ? std::string("end of line") : mesh_detail::quoted(name));
    c.physical_names[{dim, tag}] = std::string(name.substr(1, name.size() - 2));
  }
  expect_marker(r, "$EndPhysicalNames");
}

// v4.1: which physical groups each point, curve, surface and volume belongs to.
void read_entities(LineReader& r, GmshContent& c) {
  constexpr std::array<const char*, 4> kKinds = {"point", "curve", "surface", "volume"};
  r.require_content("the entity counts 'NUM_POINTS NUM_CURVES NUM_SURFACES NUM_VOLUMES'");
  Fields header(r);
  std::array<long long, 4> counts{};
  for (int d = 0; d < 4; ++d)
    counts[static_cast<std::size_t>(d)] =
        header.next_integer(fmt::format("the number of {} entities", kKinds[d]), 0, kMaxCount);
  header.expect_end("the number of volume entities");
  for (int d = 0; d < 4; ++d) {
    const long long n = counts[static_cast<std::size_t>(d)];
    for (long long i = 0; i < n; ++i) {
      require_record(r, [&] { return fmt::format("{} entity {} of {}", kKinds[d], i + 1, n); });
      Fields f(r);
      const long long tag = f.next_integer("the entity tag");
      for (int k = 0; k < (d == 0 ? 3 : 6); ++k)
        f.next_double(d == 0 ? "a point coordinate" : "a bounding box coordinate");
      const long long num_physicals = f.next_integer("the number of physical tags", 0, kMaxCount);
      std::vector<long long>& physicals = c.entity[{d, tag}];
      for (long long k = 0; k < num_physicals; ++k)
        physicals.push_back(std::llabs(f.next_integer("a physical tag", -kMaxTag, kMaxTag)));
      if (d > 0) {
        const long long num_bounding =
            f.next_integer("the number of bounding entities", 0, kMaxCount);
        for (long long k = 0; k < num_bounding; ++k) f.next_integer("a bounding entity tag");
      }
      f.expect_end(d == 0 ? "the physical tags" : "the bounding entity tags");
    }
  }
  expect_marker(r, "$EndEntities");
}

void read_node_line(LineReader& r, Fields& f, long long tag, int parametric_coordinates,
                    GmshContent& c) {
  Node node{tag, 0, 0, 0, r.line_number()};
  node.x = f.next_double("the x coordinate");
  node.y = f.next_double("the y coordinate");
  node.z = f.next_double("the z coordinate");
  for (int k = 0; k < parametric_coordinates; ++k) f.next_double("a parametric coordinate");
  f.expect_end(parametric_coordinates > 0 ? "the parametric coordinates" : "the z coordinate");
  c.nodes.push_back(node);
}

// v2 ($Nodes … $EndNodes) and v1 ($NOD … $ENDNOD): a count, then "TAG X Y Z" lines.
void read_nodes_v2(LineReader& r, GmshContent& c, std::string_view end_marker = "$EndNodes") {
  const long long n = read_count(r, "the number of nodes");
  for (long long i = 0; i < n; ++i) {
    require_record(r, [&] { return fmt::format("node {} of {}", i + 1, n); });
    Fields f(r);
    const long long tag = f.next_integer("the node tag", 1, kMaxTag);
    read_node_line(r, f, tag, 0, c);
  }
  expect_marker(r, end_marker);
}

void read_nodes_v4(LineReader& r, GmshContent& c) {
  r.require_content("the node header 'NUM_BLOCKS NUM_NODES MIN_TAG MAX_TAG'");
  Fields header(r);
  const long long blocks = header.next_integer("the number of node blocks", 0, kMaxCount);
  const long long n = header.next_integer("the number of nodes", 0, kMaxCount);
  header.next_integer("the smallest node tag");
  header.next_integer("the largest node tag");
  header.expect_end("the largest node tag");

  std::vector<std::pair<long long, long>> tags;  // tag and its line, for one block
  long long total = 0;
  for (long long b = 0; b < blocks; ++b) {
    require_record(r, [&] { return fmt::format("node block {} of {}", b + 1, blocks); });
    Fields f(r);
    const auto dim = static_cast<int>(f.next_integer("the entity dimension", 0, 3));
    f.next_integer("the entity tag");
    const long long parametric = f.next_integer("the parametric flag", 0, 1);
    const long long count = f.next_integer("the number of nodes in the block", 0, kMaxCount);
    f.expect_end("the number of nodes in the block");
    tags.clear();
    for (long long k = 0; k < count; ++k) {
      require_record(r, [&] {
        return fmt::format("node tag {} of {} in node block {}", k + 1, count, b + 1);
      });
      Fields t(r);
      tags.emplace_back(t.next_integer("the node tag", 1, kMaxTag), r.line_number());
      t.expect_end("the node tag");
    }
    for (long long k = 0; k < count; ++k) {
      require_record(r, [&] {
        return fmt::format("the coordinates of node {} of {} in node block {}", k + 1, count,
                           b + 1);
      });
      Fields x(r);
      read_node_line(r, x, tags[static_cast<std::size_t>(k)].first, parametric != 0 ? dim : 0, c);
    }
    total += count;
  }
  r.require_content("$EndNodes");
  if (total != n)
    r.fail(fmt::format("{} nodes as the $Nodes header says", n),
           fmt::format("{} in {} blocks", total, blocks));
  if (r.line() != "$EndNodes") r.fail_token("$EndNodes", r.line());
}

void add_element(LineReader& r, Fields& f, long long tag, const ElementType& type, long long group,
                 GmshContent& c) {
  if (type.dim == 3 && type.type != kTetType)
    r.fail("linear tetrahedra (element type 4) as volume elements",
           fmt::format("element type {} ({})", type.type, type.name));
  Element e{tag, type.type, type.dim, type.nodes, group, c.element_nodes.size(), r.line_number()};
  for (int k = 0; k < type.nodes; ++k)
    c.element_nodes.push_back(f.next_integer("a node tag", 1, kMaxTag));
  if (!f.done()) f.expect_end(fmt::format("the {} node tags of a {}", type.nodes, type.name));
  c.elements.push_back(e);
}

// v2: "TAG TYPE NUM_TAGS PHYSICAL ELEMENTARY … NODE…" lines; v1 ($ELM … $ENDELM): "TAG TYPE
// PHYSICAL ELEMENTARY NUM_NODES NODE…".
void read_elements_v2(LineReader& r, GmshContent& c, bool v1 = false) {
  const long long n = read_count(r, "the number of elements");
  for (long long i = 0; i < n; ++i) {
    require_record(r, [&] { return fmt::format("element {} of {}", i + 1, n); });
    Fields f(r);
    const long long tag = f.next_integer("the element tag", 1, kMaxTag);
    const ElementType& type = element_type(r, f.next_integer("the element type"));
    long long physical = 0;
    if (v1) {
      physical = f.next_integer("the physical region");
      f.next_integer("the elementary region");
      const long long nodes = f.next_integer("the number of nodes", 1, kMaxCount);
      if (nodes != type.nodes)
        r.fail(fmt::format("{} nodes for a {}", type.nodes, type.name), std::to_string(nodes));
    } else {
      const long long num_tags = f.next_integer("the number of element tags", 0, kMaxCount);
      for (long long k = 0; k < num_tags; ++k) {  // the first is the physical group
        const long long value = f.next_integer("an element tag (physical, elementary, …)");
        if (k == 0) physical = value;
      }
    }
    add_element(r, f, tag, type, physical, c);
  }
  expect_marker(r, v1 ? "$ENDELM" : "$EndElements");
}

void read_elements_v4(LineReader& r, GmshContent& c) {
  r.require_content("the element header 'NUM_BLOCKS NUM_ELEMENTS MIN_TAG MAX_TAG'");
  Fields header(r);
  const long long blocks = header.next_integer("the number of element blocks", 0, kMaxCount);
  const long long n = header.next_integer("the number of elements", 0, kMaxCount);
  header.next_integer("the smallest element tag");
  header.next_integer("the largest element tag");
  header.expect_end("the largest element tag");

  long long total = 0;
  for (long long b = 0; b < blocks; ++b) {
    require_record(r, [&] { return fmt::format("element block {} of {}", b + 1, blocks); });
    Fields f(r);
    const auto dim = static_cast<int>(f.next_integer("the entity dimension", 0, 3));
    const long long entity = f.next_integer("the entity tag");
    const ElementType& type = element_type(r, f.next_integer("the element type"));
    const long long count = f.next_integer("the number of elements in the block", 0, kMaxCount);
    f.expect_end("the number of elements in the block");
    if (type.dim != dim)
      r.fail(fmt::format("an element type of dimension {}", dim),
             fmt::format("element type {} ({}, dimension {})", type.type, type.name, type.dim));
    for (long long k = 0; k < count; ++k) {
      require_record(r, [&] {
        return fmt::format("element {} of {} in element block {}", k + 1, count, b + 1);
      });
      Fields e(r);
      const long long tag = e.next_integer("the element tag", 1, kMaxTag);
      add_element(r, e, tag, type, entity, c);
    }
    total += count;
  }
  r.require_content("$EndElements");
  if (total != n)
    r.fail(fmt::format("{} elements as the $Elements header says", n),
           fmt::format("{} in {} blocks", total, blocks));
  if (r.line() != "$EndElements") r.fail_token("$EndElements", r.line());
}

void skip_section(LineReader& r) {
  const std::string end = fmt::format("$End{}", r.line().substr(1));
  while (r.next())
    if (r.line() == end) return;
  r.fail_end_of_file(end);
}

// Gmsh v1: $NOD and $ELM sections, and no $MeshFormat.
void read_sections_v1(LineReader& r, GmshContent& c) {
  c.major = 1;
  r.unread();
  while (r.next_content()) {
    const std::string_view line = r.line();
    if (line == "$NOD") {
      if (c.has_nodes) r.fail("a single $NOD section", "a second one");
      c.has_nodes = true;
      read_nodes_v2(r, c, "$ENDNOD");
    } else if (line == "$ELM") {
      if (c.has_elements) r.fail("a single $ELM section", "a second one");
      c.has_elements = true;
      c.elements_line = r.line_number();
      read_elements_v2(r, c, /*v1=*/true);
    } else {
      r.fail_token("a Gmsh v1 section ($NOD or $ELM)", line);
    }
  }
  if (!c.has_nodes) r.fail_end_of_file("a $NOD section");
  if (!c.has_elements) r.fail_end_of_file("an $ELM section");
}

void read_sections(LineReader& r, GmshContent& c) {
  r.require_content("$MeshFormat");
  if (r.line() == "$NOD") return read_sections_v1(r, c);
  if (r.line() != "$MeshFormat")
    r.fail_token("$MeshFormat (or $NOD for Gmsh v1) on the first line", r.line());
  read_mesh_format(r, c);
  const auto once = [&](bool& seen) {
    if (seen) r.fail(fmt::format("a single {} section", r.line()), "a second one");
    seen = true;
  };
  while (r.next_content()) {
    const std::string_view line = r.line();
    if (line == "$PhysicalNames") {
      once(c.has_physical_names);
      read_physical_names(r, c);
    } else if (line == "$Entities" && c.major == 4) {
      once(c.has_entities);
      read_entities(r, c);
    } else if (line == "$Nodes") {
      once(c.has_nodes);
      if (c.major == 4)
        read_nodes_v4(r, c);
      else
        read_nodes_v2(r, c);
    } else if (line == "$Elements") {
      once(c.has_elements);
      c.elements_line = r.line_number();
      if (c.major == 4)
        read_elements_v4(r, c);
      else
        read_elements_v2(r, c);
    } else if (line.size() > 1 && line.front() == '$' && line.substr(0, 4) != "$End") {
      skip_section(r);  // $Comments, $NodeData, $Periodic, … carry nothing a TetMesh holds
    } else {
      r.fail_token("a section ($PhysicalNames, $Entities, $Nodes, $Elements, …)", line);
    }
  }
  if (!c.has_nodes) r.fail_end_of_file("a $Nodes section");
  if (!c.has_elements) r.fail_end_of_file("an $Elements section");
}

// The physical groups an element belongs to.
std::vector<long long> physicals_of(const GmshContent& c, const Element& e) {
  if (c.major <= 2)
    return e.group != 0 ? std::vector<long long>{std::llabs(e.group)} : std::vector<long long>{};
  const auto it = c.entity.find({e.dim, e.group});
  return it != c.entity.end() ? it->second : std::vector<long long>{};
}

std::string physical_name(const GmshContent& c, int dim, long long tag) {
  const auto it = c.physical_names.find({dim, tag});
  return it != c.physical_names.end() ? it->second : fmt::format("physical_{}_{}", dim, tag);
}

}  // namespace

TetMesh read_gmsh(const std::filesystem::path& file) {
  LineReader r(file, '\0', "Gmsh mesh file");
  GmshContent c;
  read_sections(r, c);

  // Vertices: the nodes in increasing tag order (tags may have gaps).
  std::vector<std::size_t> node_order(c.nodes.size());
  std::iota(node_order.begin(), node_order.end(), std::size_t{0});
  std::sort(node_order.begin(), node_order.end(),
            [&](std::size_t a, std::size_t b) { return c.nodes[a].tag < c.nodes[b].tag; });
  std::vector<long long> tags(c.nodes.size());
  std::vector<double> xyz;
  xyz.reserve(3 * c.nodes.size());
  for (std::size_t i = 0; i < node_order.size(); ++i) {
    const Node& node = c.nodes[node_order[i]];
    if (i > 0 && node.tag == tags[i - 1]) {
      const Node& other = c.nodes[node_order[i - 1]];
      r.fail_at(std::max(node.line, other.line), "node tags used once",
                fmt::format("node tag {} again (first on line {})", node.tag,
                            std::min(node.line, other.line)));
    }
    tags[i] = node.tag;
    xyz.insert(xyz.end(), {node.x, node.y, node.z});
  }
  const auto vertex_of = [&](const Element& e, std::size_t k) -> Index {
    const long long tag = c.element_nodes[e.first_node + k];
    const auto it = std::lower_bound(tags.begin(), tags.end(), tag);
    if (it == tags.end() || *it != tag)
      r.fail_at(e.line, "a node tag defined in $Nodes", std::to_string(tag));
    return static_cast<Index>(it - tags.begin());
  };

  // Elements in increasing tag order; the tets become the mesh.
  std::vector<std::size_t> element_order(c.elements.size());
  std::iota(element_order.begin(), element_order.end(), std::size_t{0});
  std::sort(element_order.begin(), element_order.end(),
            [&](std::size_t a, std::size_t b) { return c.elements[a].tag < c.elements[b].tag; });
  for (std::size_t i = 1; i < element_order.size(); ++i) {
    const Element& a = c.elements[element_order[i - 1]];
    const Element& b = c.elements[element_order[i]];
    if (a.tag == b.tag)
      r.fail_at(
          std::max(a.line, b.line), "element tags used once",
          fmt::format("element tag {} again (first on line {})", a.tag, std::min(a.line, b.line)));
  }

  TetMesh mesh;
  std::vector<Index> tets;
  for (const std::size_t i : element_order) {
    const Element& e = c.elements[i];
    const std::vector<long long> physicals = physicals_of(c, e);
    if (e.type == kTetType) {
      const auto t = static_cast<Index>(tets.size() / 4);
      const std::array<Index, 4> v = {vertex_of(e, 0), vertex_of(e, 1), vertex_of(e, 2),
                                      vertex_of(e, 3)};
      if (mesh_detail::has_repeated_vertex(v))
        r.fail_at(e.line, fmt::format("4 distinct node tags in element {}", e.tag),
                  fmt::format("{} {} {} {}", c.element_nodes[e.first_node],
                              c.element_nodes[e.first_node + 1], c.element_nodes[e.first_node + 2],
                              c.element_nodes[e.first_node + 3]));
      tets.insert(tets.end(), v.begin(), v.end());
      for (const long long p : physicals) mesh.element_sets[physical_name(c, 3, p)].push_back(t);
    } else {
      for (int k = 0; k < e.nodes; ++k) {
        const Index v = vertex_of(e, static_cast<std::size_t>(k));
        for (const long long p : physicals)
          mesh.vertex_sets[physical_name(c, e.dim, p)].push_back(v);
      }
    }
  }
  if (tets.empty()) r.fail_at(c.elements_line, "tetrahedra (element type 4) in $Elements", "none");

  mesh.vertices = mesh_detail::to_points(xyz);
  mesh.tets = mesh_detail::to_tets(tets);
  mesh.materials = {Material{}};
  mesh.element_material.assign(static_cast<std::size_t>(mesh.num_elements()), 0);
  for (auto& [name, ids] : mesh.element_sets) mesh_detail::sort_unique(ids);
  for (auto& [name, ids] : mesh.vertex_sets) mesh_detail::sort_unique(ids);
  check_tet_mesh(mesh, file);
  return mesh;
}

}  // namespace substruct
