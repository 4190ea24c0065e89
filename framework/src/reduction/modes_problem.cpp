// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/modes_problem.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/config/material_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/element_orientation.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/mesh/unused_vertices.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct {

void check_mode_count(long long count, std::string_view argument) {
  if (count < 1 || count > std::numeric_limits<int>::max())
    throw Error(
        fmt::format("modes: {} expects a positive whole number, found '{}'", argument, count));
}

ModesProblem modes_problem(const std::filesystem::path& mesh_file,
                           const std::filesystem::path& fixed_file,
                           std::vector<Index> fixed_indices, bool reorient, const Config& config) {
  ModesProblem p;
  p.mesh = read_tet_mesh(mesh_file);
  p.reoriented = orient_elements(p.mesh, mesh_file, reorient);
  const Index n = p.mesh.num_vertices();
  for (Index v : fixed_indices)
    if (v < 0 || v >= n)
      throw Error(
          fmt::format("modes: fixed vertex {} does not exist (the mesh has {} vertices, "
                      "numbered from 0)",
                      v, n));
  p.fixed = std::move(fixed_indices);
  if (!fixed_file.empty())
    for (Index v : read_bou(fixed_file, n)) p.fixed.push_back(v);
  std::sort(p.fixed.begin(), p.fixed.end());
  p.fixed.erase(std::unique(p.fixed.begin(), p.fixed.end()), p.fixed.end());
  require_used_or_fixed(p.mesh, p.fixed, mesh_file);
  p.dofs = DofMap::for_fixed_vertices(n, p.fixed);
  if (p.dofs.num_free() == 0)
    throw Error(fmt::format(
        "modes: every vertex of {} is fixed{}; nothing can move", mesh_file.string(),
        fixed_file.empty() ? std::string() : fmt::format(" by {}", fixed_file.string())));
  apply_material_overrides(material_options().read(config), p.mesh);
  return p;
}

}  // namespace substruct
