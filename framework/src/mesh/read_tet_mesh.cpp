// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <cctype>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct {

TetMesh read_tet_mesh(const std::filesystem::path& file) {
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".veg") return read_veg(file);
  if (extension == ".node" || extension == ".ele") return read_tetgen(file);
  if (extension == ".msh") return read_gmsh(file);
  if (extension == ".vtu") return read_vtu(file);
  if (extension == ".vtk") return read_vtk_legacy(file);
  // A TetGen stem: mesh → mesh.node + mesh.ele (also mesh.1 → mesh.1.node + mesh.1.ele).
  std::error_code ec;
  if (std::filesystem::is_regular_file(file.string() + ".node", ec)) return read_tetgen(file);
  throw Error(
      fmt::format("cannot read mesh '{}': unknown format{}; expected .veg (Vega), "
                  ".node/.ele (TetGen, or their common stem), .msh (Gmsh), .vtu (VTK XML) or "
                  ".vtk (legacy VTK)",
                  file.string(), extension.empty() ? "" : " '" + extension + "'"));
}

}  // namespace substruct
