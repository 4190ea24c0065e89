// SPDX-License-Identifier: GPL-3.0-or-later
#include <fmt/format.h>

#include "substruct/io/staged_file.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct {

void write_obj(const std::filesystem::path& file, const SurfaceMesh& surface) {
  write_file_atomically(file, [&](std::ostream& out) {
    std::string text;
    for (Eigen::Index v = 0; v < surface.vertices.rows(); ++v)
      text += fmt::format("v {:.17g} {:.17g} {:.17g}\n", surface.vertices(v, 0),
                          surface.vertices(v, 1), surface.vertices(v, 2));
    for (Eigen::Index t = 0; t < surface.triangles.rows(); ++t)
      text += fmt::format("f {} {} {}\n", surface.triangles(t, 0) + 1, surface.triangles(t, 1) + 1,
                          surface.triangles(t, 2) + 1);
    out << text;
  });
}

}  // namespace substruct
