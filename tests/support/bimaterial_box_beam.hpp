// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A 4 × 1 × 1 box beam along x (16 × 3 × 3 cells, clamp it at its "xmin" vertices) whose half
// x > 2 is `ratio` times softer: material 0 "stiff", material 1 "soft" (Young's modulus / ratio).
#include "substruct/mesh/box_mesh.hpp"

namespace substruct::testing {

inline TetMesh bimaterial_box_beam(double ratio) {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 16, 3, 3);
  Material soft = mesh.materials[0];
  soft.name = "soft";
  soft.youngs_modulus /= ratio;
  mesh.materials[0].name = "stiff";
  mesh.materials.push_back(soft);
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    double x = 0;
    for (int a = 0; a < 4; ++a) x += mesh.vertices(mesh.tets(e, a), 0) / 4;
    mesh.element_material[static_cast<std::size_t>(e)] = x > 2 ? 1 : 0;
  }
  return mesh;
}

}  // namespace substruct::testing
