// SPDX-License-Identifier: GPL-3.0-or-later
#include "material_checks.hpp"

#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::detail {

void check_materials(const TetMesh& mesh, bool density, bool elasticity) {
  const auto num_elements = static_cast<std::size_t>(mesh.num_elements());
  if (mesh.element_material.size() != num_elements)
    throw Error(fmt::format("the mesh gives {} element materials for {} elements",
                            mesh.element_material.size(), num_elements));
  std::vector<char> used(mesh.materials.size(), 0);
  for (std::size_t e = 0; e < num_elements; ++e) {
    const Index m = mesh.element_material[e];
    if (m < 0 || static_cast<std::size_t>(m) >= mesh.materials.size())
      throw Error(fmt::format("element {} uses material {}, but the mesh has {} materials", e, m,
                              mesh.materials.size()));
    used[static_cast<std::size_t>(m)] = 1;
  }
  for (std::size_t m = 0; m < mesh.materials.size(); ++m) {
    if (!used[m]) continue;
    const Material& mat = mesh.materials[m];
    if (density && !(mat.density > 0 && std::isfinite(mat.density)))
      throw Error(
          fmt::format("material '{}' has density {}; it must be positive", mat.name, mat.density));
    if (elasticity && !(mat.youngs_modulus > 0 && std::isfinite(mat.youngs_modulus)))
      throw Error(fmt::format("material '{}' has Young's modulus {}; it must be positive", mat.name,
                              mat.youngs_modulus));
    if (elasticity && !(mat.poisson_ratio > -1 && mat.poisson_ratio < 0.5))
      throw Error(fmt::format("material '{}' has Poisson's ratio {}; it must lie in (-1, 0.5)",
                              mat.name, mat.poisson_ratio));
  }
}

}  // namespace substruct::detail
