// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/limb_generator.hpp"

#include <string>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/scene/bar_generator.hpp"

namespace substruct {

TetMesh generate_limb(const LimbParameters& p, std::vector<Index>* fixed_vertices,
                      std::vector<Index>* foot) {
  const auto require = [](bool condition, const std::string& what) {
    if (!condition) throw Error("limb: " + what);
  };
  require(p.bone_cells >= 1 && p.bone_cells <= p.cells - 2 && (p.cells - p.bone_cells) % 2 == 0,
          fmt::format("bone cells across must be in [1, cells − 2 = {}] and of the parity of "
                      "cells, found {}",
                      p.cells - 2, p.bone_cells));
  require(p.thigh_begin >= 1 && p.thigh_begin < p.thigh_end && p.thigh_end < p.shin_begin &&
              p.shin_begin < p.shin_end && p.shin_end <= p.cells_x - 1,
          fmt::format("the bones' cell layers [{}, {}) and [{}, {}) must lie inside [1, {}) in "
                      "order, flesh between them",
                      p.thigh_begin, p.thigh_end, p.shin_begin, p.shin_end, p.cells_x - 1));
  require(p.flesh.name != "bone0" && p.flesh.name != "bone1",
          "the flesh's material cannot be named like a bone");
  require(p.bone_stiffness_ratio > 0 && p.bone_stiffness_ratio < 1e12,
          fmt::format("the bone stiffness ratio must be > 0, found {}", p.bone_stiffness_ratio));
  BarParameters bar;
  bar.length = p.length;
  bar.height = p.thickness;
  bar.width = p.thickness;
  bar.cells_x = p.cells_x;
  bar.cells_y = p.cells;
  bar.cells_z = p.cells;
  bar.domains = 1;
  bar.material = p.flesh;
  std::vector<Index> corners;
  TetMesh mesh = generate_bar(bar, fixed_vertices, &corners);
  if (foot) *foot = corners;
  // One material per bone, named like its element set, so that a .veg file assigns each bone's
  // material through its own set (a set of both bones would overlap them for domains = sets).
  Material thigh = p.flesh, shin = p.flesh;
  thigh.name = "bone0";
  shin.name = "bone1";
  thigh.youngs_modulus = shin.youngs_modulus = p.flesh.youngs_modulus * p.bone_stiffness_ratio;
  mesh.materials = {p.flesh, thigh, shin};
  mesh.element_sets.clear();
  std::vector<Index> sets[3];  // thigh, shin, flesh
  const int lo = (p.cells - p.bone_cells) / 2, hi = lo + p.bone_cells;
  // Cell (i, j, k) holds elements 6 (i + nx (j + ny k)) … + 5 (generate_bar's numbering).
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const int cell = e / 6, i = cell % p.cells_x, j = (cell / p.cells_x) % p.cells,
              k = cell / (p.cells_x * p.cells);
    const bool core = j >= lo && j < hi && k >= lo && k < hi;
    int set = 2;
    if (core && i >= p.thigh_begin && i < p.thigh_end) set = 0;
    if (core && i >= p.shin_begin && i < p.shin_end) set = 1;
    sets[set].push_back(e);
    mesh.element_material[static_cast<std::size_t>(e)] = set < 2 ? set + 1 : 0;
  }
  mesh.element_sets["bone0"] = std::move(sets[0]);
  mesh.element_sets["bone1"] = std::move(sets[1]);
  mesh.element_sets["flesh"] = std::move(sets[2]);
  return mesh;
}

}  // namespace substruct
