// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "detail/line_reader.hpp"
#include "detail/mesh_builder.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/hex_split.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct {

namespace {

using mesh_detail::Fields;
using mesh_detail::kMaxCount;
using mesh_detail::LineReader;

constexpr std::string_view kAllElements = "allElements";
constexpr std::string_view kKeywords =
    "a section keyword (*VERTICES, *ELEMENTS, *MATERIAL, *SET, *REGION, *INCLUDE)";
constexpr std::size_t kMaxIncludeDepth = 16;

// What the file and the files it includes have declared so far.
struct VegContent {
  bool has_vertices = false;
  bool has_elements = false;
  std::vector<double> xyz;
  std::size_t element_nodes = 4;  // TET: 4, CUBIC: 8
  std::vector<Index> elements;    // element_nodes vertex indices per element
  std::vector<long> element_lines;
  std::vector<Material> materials;
  std::vector<Index> element_material;  // −1 until a region assigns a material
  std::map<std::string, std::vector<Index>> sets;
  std::vector<std::filesystem::path> including;  // the chain of files being read

  Index num_vertices() const { return static_cast<Index>(xyz.size() / 3); }
  Index num_elements() const { return static_cast<Index>(elements.size() / element_nodes); }
};

bool is_keyword_line(std::string_view line) {
  return !line.empty() && line.front() == '*';
}

void read_vertices(LineReader& r, VegContent& c) {
  if (c.has_vertices) r.fail("a single *VERTICES section", "a second one");
  r.require_content("the vertex header 'NUM_VERTICES 3 0 0'");
  Fields header(r);
  const long long n = header.next_integer("the number of vertices", 1, kMaxCount);
  const long long dim = header.next_integer("the dimension 3");
  if (dim != 3) r.fail("the dimension 3", std::to_string(dim));
  while (!header.done()) header.next_integer("an integer in the vertex header");

  for (long long i = 0; i < n; ++i) {
    const auto expected = [&] { return fmt::format("vertex {} of {}", i + 1, n); };
    if (!r.next_content()) r.fail_end_of_file(expected());
    if (is_keyword_line(r.line())) r.fail_token(expected(), r.line());
    Fields f(r);
    const long long index = f.next_integer("the vertex index");
    if (index != i + 1) r.fail(fmt::format("vertex index {}", i + 1), std::to_string(index));
    c.xyz.push_back(f.next_double("the x coordinate"));
    c.xyz.push_back(f.next_double("the y coordinate"));
    c.xyz.push_back(f.next_double("the z coordinate"));
    f.expect_end("the z coordinate");
  }
  c.has_vertices = true;
}

void read_elements(LineReader& r, VegContent& c) {
  if (c.has_elements) r.fail("a single *ELEMENTS section", "a second one");
  if (!c.has_vertices) r.fail("*VERTICES before *ELEMENTS", "*ELEMENTS");
  constexpr std::string_view kTypes = "the element type TET or CUBIC";
  r.require_content(kTypes);
  Fields type(r);
  const std::string_view name = type.next(kTypes);
  if (name != "TET" && name != "CUBIC")
    r.fail_token("the element type TET (linear tetrahedra) or CUBIC (hexahedra)", name);
  type.expect_end("the element type");
  c.element_nodes = name == "TET" ? 4 : 8;
  const auto nodes = static_cast<long long>(c.element_nodes);

  r.require_content(fmt::format("the element header 'NUM_ELEMENTS {} 0'", nodes));
  Fields header(r);
  const long long m = header.next_integer("the number of elements", 1, kMaxCount);
  const long long k = header.next_integer("the number of vertices per element");
  if (k != nodes) r.fail(fmt::format("{} vertices per {} element", nodes, name), std::to_string(k));
  while (!header.done()) header.next_integer("an integer in the element header");

  const long long n = c.num_vertices();
  std::vector<long long> v(c.element_nodes);
  for (long long j = 0; j < m; ++j) {
    const auto expected = [&] { return fmt::format("element {} of {}", j + 1, m); };
    if (!r.next_content()) r.fail_end_of_file(expected());
    if (is_keyword_line(r.line())) r.fail_token(expected(), r.line());
    Fields f(r);
    const long long index = f.next_integer("the element index");
    if (index != j + 1) r.fail(fmt::format("element index {}", j + 1), std::to_string(index));
    for (auto& vi : v) vi = f.next_integer("a vertex index", 1, n);
    f.expect_end(fmt::format("the {} vertex indices", nodes));
    std::vector<long long> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      r.fail(fmt::format("{} distinct vertex indices in element {}", nodes, j + 1),
             fmt::format("{}", fmt::join(v, " ")));
    for (const long long vi : v) c.elements.push_back(static_cast<Index>(vi - 1));
    c.element_lines.push_back(r.line_number());
  }
  c.element_material.assign(static_cast<std::size_t>(m), -1);
  c.has_elements = true;
}

void read_material(LineReader& r, Fields& f, VegContent& c) {
  Material material;
  material.name = std::string(f.next("a material name after *MATERIAL"));
  f.expect_end("the material name");
  for (const Material& other : c.materials)
    if (other.name == material.name) r.fail_token("a material name not used before", other.name);

  r.require_content("the material parameters 'ENU, density, E, nu'");
  Fields p(r, /*commas=*/true);
  const std::string_view model = p.next("the material model ENU");
  if (model != "ENU")
    r.fail_token("the material model ENU (isotropic: density, Young's modulus, Poisson's ratio)",
                 model);
  material.density = p.next_double("the density");
  if (!(material.density > 0)) r.fail("a positive density", fmt::format("{}", material.density));
  material.youngs_modulus = p.next_double("Young's modulus");
  if (!(material.youngs_modulus > 0))
    r.fail("a positive Young's modulus", fmt::format("{}", material.youngs_modulus));
  material.poisson_ratio = p.next_double("Poisson's ratio");
  if (!(material.poisson_ratio > -1 && material.poisson_ratio < 0.5))
    r.fail("Poisson's ratio in (-1, 0.5)", fmt::format("{}", material.poisson_ratio));
  p.expect_end("Poisson's ratio");
  c.materials.push_back(std::move(material));
}

void read_set(LineReader& r, Fields& f, VegContent& c) {
  if (!c.has_elements) r.fail("*ELEMENTS before *SET", "*SET");
  std::string name(f.next("a set name after *SET"));
  f.expect_end("the set name");
  if (name == kAllElements) r.fail_token("a set name other than the implicit allElements", name);
  if (c.sets.count(name) != 0) r.fail_token("a set name not used before", name);

  // Element ids run over the following lines, up to a blank line or the next keyword.
  std::vector<Index> ids;
  const long long m = c.num_elements();
  while (r.next()) {
    if (r.blank()) break;
    if (r.line().empty()) continue;  // a comment
    if (is_keyword_line(r.line())) {
      r.unread();
      break;
    }
    Fields list(r, /*commas=*/true);
    while (!list.done())
      ids.push_back(static_cast<Index>(list.next_integer("an element index", 1, m) - 1));
  }
  mesh_detail::sort_unique(ids);
  c.sets.emplace(std::move(name), std::move(ids));
}

void read_region(LineReader& r, VegContent& c) {
  constexpr std::string_view kRegionLine = "a line 'SET_NAME, MATERIAL_NAME' after *REGION";
  if (!c.has_elements) r.fail("*ELEMENTS before *REGION", "*REGION");
  int lines = 0;
  bool at_end = true;
  while (r.next()) {
    if (r.blank()) {
      at_end = false;
      break;
    }
    if (r.line().empty()) continue;
    if (is_keyword_line(r.line())) {
      r.unread();
      at_end = false;
      break;
    }
    Fields f(r, /*commas=*/true);
    const std::string_view set = f.next("a set name");
    const std::string_view material = f.next("a material name after the set name");
    f.expect_end("the material name");
    const auto found = std::find_if(c.materials.begin(), c.materials.end(),
                                    [&](const Material& m) { return m.name == material; });
    if (found == c.materials.end())
      r.fail_token("a material defined by an earlier *MATERIAL", material);
    const auto k = static_cast<Index>(found - c.materials.begin());
    // Later regions override earlier ones.
    if (set == kAllElements) {
      std::fill(c.element_material.begin(), c.element_material.end(), k);
    } else {
      const auto it = c.sets.find(std::string(set));
      if (it == c.sets.end()) r.fail_token("a set defined by an earlier *SET, or allElements", set);
      for (const Index e : it->second) c.element_material[static_cast<std::size_t>(e)] = k;
    }
    ++lines;
  }
  if (lines == 0) {
    if (at_end) r.fail_end_of_file(kRegionLine);
    r.fail(kRegionLine, r.blank() ? std::string("a blank line") : mesh_detail::quoted(r.line()));
  }
}

void read_file(const std::filesystem::path& file, VegContent& c);

void read_include(LineReader& r, Fields& f, VegContent& c) {
  const std::string_view name = f.rest();
  if (name.empty()) r.fail("a file name after *INCLUDE", "end of line");
  const std::filesystem::path target = r.file().parent_path() / std::string(name);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(target, ec))
    r.fail("an existing file to include", fmt::format("{} ({} is not a readable file)",
                                                      mesh_detail::quoted(name), target.string()));
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(target, ec);
  if (c.including.size() >= kMaxIncludeDepth ||
      std::find(c.including.begin(), c.including.end(), canonical) != c.including.end())
    r.fail_token("a file that is not already being included", name);
  read_file(target, c);
}

void read_file(const std::filesystem::path& file, VegContent& c) {
  LineReader r(file, '#', "Vega mesh file");
  std::error_code ec;
  c.including.push_back(std::filesystem::weakly_canonical(file, ec));
  while (r.next_content()) {
    Fields f(r);
    const std::string_view keyword = f.next(kKeywords);
    if (keyword == "*VERTICES") {
      f.expect_end("*VERTICES");
      read_vertices(r, c);
    } else if (keyword == "*ELEMENTS") {
      f.expect_end("*ELEMENTS");
      read_elements(r, c);
    } else if (keyword == "*MATERIAL") {
      read_material(r, f, c);
    } else if (keyword == "*SET") {
      read_set(r, f, c);
    } else if (keyword == "*REGION") {
      f.expect_end("*REGION");
      read_region(r, c);
    } else if (keyword == "*INCLUDE") {
      read_include(r, f, c);
    } else {
      r.fail_token(kKeywords, keyword);
    }
  }
  c.including.pop_back();
  if (c.including.empty()) {
    if (!c.has_vertices) r.fail_end_of_file("a *VERTICES section");
    if (!c.has_elements) r.fail_end_of_file("an *ELEMENTS section");
  }
}

// CUBIC elements: cube j becomes the tets 6j … 6j+5, which keep its material and sets.
void split_cubes(const std::filesystem::path& file, const VegContent& c, TetMesh& mesh) {
  std::vector<Index> tets;
  tets.reserve(c.elements.size() * 3);
  for (std::size_t j = 0; j * 8 < c.elements.size(); ++j) {
    Hexahedron hex{};
    std::copy_n(c.elements.begin() + static_cast<std::ptrdiff_t>(8 * j), 8, hex.begin());
    const auto six = split_hexahedron(c.xyz, hex);
    if (!six)
      throw ParseError(
          file, c.element_lines[j],
          fmt::format("expected CUBIC element {} to be a convex hexahedron with its vertices "
                      "in Vega's order (bottom face 1 2 3 4 counter-clockwise, top 5 6 7 8), "
                      "found its six tetrahedra of mixed orientation or without volume",
                      j + 1));
    for (const auto& t : *six) tets.insert(tets.end(), t.begin(), t.end());
    mesh.element_material.insert(mesh.element_material.end(), 6, c.element_material[j]);
  }
  mesh.tets = mesh_detail::to_tets(tets);
  for (const auto& [name, cubes] : c.sets) {
    std::vector<Index>& ids = mesh.element_sets[name];
    for (const Index j : cubes)
      for (Index k = 0; k < 6; ++k) ids.push_back(6 * j + k);
  }
}

}  // namespace

TetMesh read_veg(const std::filesystem::path& file) {
  VegContent c;
  read_file(file, c);

  TetMesh mesh;
  mesh.vertices = mesh_detail::to_points(c.xyz);
  // Elements in no region get the first material; a file without materials gets the default.
  mesh.materials = c.materials.empty() ? std::vector<Material>{Material{}} : c.materials;
  for (Index& k : c.element_material)
    if (k < 0) k = 0;
  if (c.element_nodes == 4) {
    mesh.tets = mesh_detail::to_tets(c.elements);
    mesh.element_material = std::move(c.element_material);
    mesh.element_sets = std::move(c.sets);
  } else {
    split_cubes(file, c, mesh);
  }
  check_tet_mesh(mesh, file);
  return mesh;
}

}  // namespace substruct
