// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/bimaterial_bar_generator.hpp"

#include <string>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/scene/bar_generator.hpp"

namespace substruct {

TetMesh generate_bimaterial_bar(const BimaterialBarParameters& p,
                                std::vector<Index>* fixed_vertices,
                                std::vector<Index>* tip_corners) {
  const auto require = [](bool condition, const std::string& what) {
    if (!condition) throw Error("bimaterial bar: " + what);
  };
  require(p.cells_x >= 2 && p.cells_x % 2 == 0,
          fmt::format("cells along x must be even and ≥ 2, found {}", p.cells_x));
  require(p.stiffness_ratio > 0 && p.stiffness_ratio < 1e12,
          fmt::format("stiffness ratio must be > 0, found {}", p.stiffness_ratio));
  require(p.soft.name != "stiff", "the soft material cannot be named 'stiff'");

  BarParameters bar;
  bar.length = p.length;
  bar.height = p.height;
  bar.width = p.width;
  bar.cells_x = p.cells_x;
  bar.cells_y = p.cells_y;
  bar.cells_z = p.cells_z;
  bar.domains = 2;  // "domain0" = the stiff half x < length / 2, "domain1" = the soft half
  bar.material = p.soft;
  TetMesh mesh = generate_bar(bar, fixed_vertices, tip_corners);

  Material stiff = p.soft;
  stiff.name = "stiff";
  stiff.youngs_modulus = p.soft.youngs_modulus * p.stiffness_ratio;
  mesh.materials = {stiff, p.soft};
  std::vector<Index> stiff_elements = std::move(mesh.element_sets.at("domain0"));
  std::vector<Index> soft_elements = std::move(mesh.element_sets.at("domain1"));
  mesh.element_sets.clear();
  for (Index e : soft_elements) mesh.element_material[static_cast<std::size_t>(e)] = 1;
  for (Index e : stiff_elements) mesh.element_material[static_cast<std::size_t>(e)] = 0;
  mesh.element_sets["stiff"] = std::move(stiff_elements);
  mesh.element_sets["soft"] = std::move(soft_elements);
  return mesh;
}

}  // namespace substruct
