// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "detail/mesh_builder.hpp"
#include "substruct/core/error.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct {

namespace {

// A name read_veg reads back as one field: no separators, no comment, not a keyword.
void require_writable_name(const std::filesystem::path& file, std::string_view kind,
                           const std::string& name) {
  const bool bad =
      name.empty() || name.front() == '*' || std::any_of(name.begin(), name.end(), [](char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' ||
               c == ',' || c == '#';
      });
  if (bad)
    throw Error(
        fmt::format("cannot write '{}': {} name '{}' must be non-empty, must not start "
                    "with '*' and must not contain whitespace, ',' or '#'",
                    file.string(), kind, name));
}

void write_ids(fmt::memory_buffer& out, const std::vector<Index>& ids) {
  constexpr std::size_t kPerLine = 8;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    fmt::format_to(std::back_inserter(out), "{}{}", static_cast<long>(ids[i]) + 1,
                   (i + 1) % kPerLine == 0 || i + 1 == ids.size() ? ",\n" : ", ");
  }
}

}  // namespace

void write_veg(const std::filesystem::path& file, const TetMesh& mesh) {
  const Index m = mesh.num_elements();
  const auto num_materials = static_cast<Index>(mesh.materials.size());
  if (num_materials > 0 && static_cast<Index>(mesh.element_material.size()) != m)
    throw Error(fmt::format("cannot write '{}': {} elements but {} element materials",
                            file.string(), m, mesh.element_material.size()));
  for (const Index k : mesh.element_material)
    if (k < 0 || k >= num_materials)
      throw Error(fmt::format("cannot write '{}': element material index {} is not in [0, {})",
                              file.string(), k, num_materials));
  for (Index i = 0; i < num_materials; ++i) {
    const std::string& name = mesh.materials[static_cast<std::size_t>(i)].name;
    require_writable_name(file, "material", name);
    for (Index j = 0; j < i; ++j)
      if (mesh.materials[static_cast<std::size_t>(j)].name == name)
        throw Error(
            fmt::format("cannot write '{}': two materials are named '{}'", file.string(), name));
  }
  for (const auto& [name, ids] : mesh.element_sets) {
    require_writable_name(file, "set", name);
    if (name == "allElements")
      throw Error(
          fmt::format("cannot write '{}': 'allElements' is the implicit set of all "
                      "elements and cannot be a named set",
                      file.string()));
  }

  // Regions: the most used material for allElements, then every other material through the
  // set of exactly its elements (a named one if there is one, else an extra set).
  std::map<std::string, std::vector<Index>> sets;
  for (const auto& [name, ids] : mesh.element_sets) {
    std::vector<Index> sorted = ids;
    mesh_detail::sort_unique(sorted);
    sets.emplace(name, std::move(sorted));
  }
  std::vector<std::pair<std::string, std::string>> regions;
  if (num_materials > 0) {
    std::vector<std::vector<Index>> elements_of(static_cast<std::size_t>(num_materials));
    for (Index e = 0; e < m; ++e)
      elements_of[static_cast<std::size_t>(mesh.element_material[static_cast<std::size_t>(e)])]
          .push_back(e);
    std::size_t base = 0;
    for (std::size_t k = 1; k < elements_of.size(); ++k)
      if (elements_of[k].size() > elements_of[base].size()) base = k;
    regions.emplace_back("allElements", mesh.materials[base].name);
    for (std::size_t k = 0; k < elements_of.size(); ++k) {
      if (k == base || elements_of[k].empty()) continue;
      const std::string& material = mesh.materials[k].name;
      const auto same = std::find_if(sets.begin(), sets.end(),
                                     [&](const auto& set) { return set.second == elements_of[k]; });
      std::string set_name;
      if (same != sets.end()) {
        set_name = same->first;
      } else {
        set_name = material + "Elements";
        for (int suffix = 2; sets.count(set_name) != 0; ++suffix)
          set_name = fmt::format("{}Elements_{}", material, suffix);
        sets.emplace(set_name, elements_of[k]);
      }
      regions.emplace_back(set_name, material);
    }
  }

  fmt::memory_buffer out;
  auto to = std::back_inserter(out);
  fmt::format_to(to, "# Vega mesh file.\n# {} vertices, {} elements\n\n*VERTICES\n{} 3 0 0\n",
                 mesh.num_vertices(), m, mesh.num_vertices());
  for (Index i = 0; i < mesh.num_vertices(); ++i)
    fmt::format_to(to, "{} {:.17g} {:.17g} {:.17g}\n", static_cast<long>(i) + 1,
                   mesh.vertices(i, 0), mesh.vertices(i, 1), mesh.vertices(i, 2));
  fmt::format_to(to, "\n*ELEMENTS\nTET\n{} 4 0\n", m);
  for (Index e = 0; e < m; ++e)
    fmt::format_to(to, "{} {} {} {} {}\n", static_cast<long>(e) + 1,
                   static_cast<long>(mesh.tets(e, 0)) + 1, static_cast<long>(mesh.tets(e, 1)) + 1,
                   static_cast<long>(mesh.tets(e, 2)) + 1, static_cast<long>(mesh.tets(e, 3)) + 1);
  for (const Material& material : mesh.materials)
    fmt::format_to(to, "\n*MATERIAL {}\nENU, {:.17g}, {:.17g}, {:.17g}\n", material.name,
                   material.density, material.youngs_modulus, material.poisson_ratio);
  for (const auto& [name, ids] : sets) {
    fmt::format_to(to, "\n*SET {}\n", name);
    write_ids(out, ids);
  }
  if (!regions.empty()) {
    fmt::format_to(to, "\n*REGION\n");
    for (const auto& [set, material] : regions) fmt::format_to(to, "{}, {}\n", set, material);
  }

  write_file_atomically(file, std::string_view(out.data(), out.size()));
}

}  // namespace substruct
