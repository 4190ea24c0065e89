// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A box beam of nx × ny × nz cells from the origin to `upper`, clamped at x = 0: written as
// DIR/STEM.veg and DIR/STEM.bou (the xmin vertices, 1-based), what the coupling suites run on.
#include <filesystem>
#include <fstream>
#include <string>

#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct::testing {

inline TetMesh write_clamped_box_beam(const std::filesystem::path& dir, const std::string& stem,
                                      const Vec3& upper, int nx, int ny, int nz) {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), upper, nx, ny, nz);
  write_veg(dir / (stem + ".veg"), mesh);
  std::ofstream bou(dir / (stem + ".bou"));
  for (Index v : mesh.vertex_sets.at("xmin")) bou << v + 1 << "\n";
  return mesh;
}

}  // namespace substruct::testing
