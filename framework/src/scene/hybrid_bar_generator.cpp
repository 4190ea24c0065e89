// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/hybrid_bar_generator.hpp"

#include <string>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/scene/bar_generator.hpp"

namespace substruct {

TetMesh generate_hybrid_bar(const HybridBarParameters& p, std::vector<Index>* fixed_vertices,
                            std::vector<Index>* tip_corners, std::vector<Index>* free_end) {
  if (!(p.rigid_stiffness_ratio > 0 && p.rigid_stiffness_ratio < 1e12))
    throw Error(fmt::format("hybrid bar: the rigid stiffness ratio must be > 0, found {}",
                            p.rigid_stiffness_ratio));
  for (int d : p.rigid_domains)
    if (d < 0 || d >= p.domains)
      throw Error(
          fmt::format("hybrid bar: rigid domain {} is not one of the {} domains", d, p.domains));
  BarParameters bar;
  bar.length = p.length;
  bar.height = p.height;
  bar.width = p.width;
  bar.cells_x = p.cells_x;
  bar.cells_y = p.cells_y;
  bar.cells_z = p.cells_z;
  bar.domains = p.domains;
  bar.material = p.soft;
  TetMesh mesh = generate_bar(bar, fixed_vertices, tip_corners);
  // One material per rigid domain ("rigid", or "rigid<d>" when there are several), so that a .veg
  // file assigns each through its domain's own set (one set of all rigid elements would overlap
  // the domains for `domains = sets`).
  mesh.materials = {p.soft};
  const int digits = static_cast<int>(std::to_string(p.domains - 1).size());
  for (int d : p.rigid_domains) {
    Material rigid = p.soft;
    rigid.name = p.rigid_domains.size() == 1 ? "rigid" : fmt::format("rigid{}", d);
    if (rigid.name == p.soft.name) rigid.name += "-part";
    rigid.youngs_modulus = p.soft.youngs_modulus * p.rigid_stiffness_ratio;
    const auto material = static_cast<Index>(mesh.materials.size());
    mesh.materials.push_back(rigid);
    for (Index e : mesh.element_sets.at(fmt::format("domain{:0{}}", d, digits)))
      mesh.element_material[static_cast<std::size_t>(e)] = material;
  }
  if (free_end) {
    free_end->clear();
    for (Index v = 0; v < mesh.num_vertices(); ++v)
      if (mesh.vertices(v, 0) == p.length) free_end->push_back(v);
  }
  return mesh;
}

}  // namespace substruct
