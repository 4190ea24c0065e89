// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/mesh/unused_vertices.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

std::vector<Index> unused_vertices(const TetMesh& mesh) {
  std::vector<char> used(static_cast<std::size_t>(mesh.num_vertices()), 0);
  for (Index i = 0; i < mesh.tets.size(); ++i) {
    const Index v = mesh.tets.data()[i];
    if (v >= 0 && v < mesh.num_vertices()) used[static_cast<std::size_t>(v)] = 1;
  }
  std::vector<Index> unused;
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    if (!used[static_cast<std::size_t>(v)]) unused.push_back(v);
  return unused;
}

void require_used_or_fixed(const TetMesh& mesh, const std::vector<Index>& fixed,
                           const std::filesystem::path& file) {
  std::vector<Index> loose;
  for (Index v : unused_vertices(mesh))
    if (!std::binary_search(fixed.begin(), fixed.end(), v)) loose.push_back(v);
  if (loose.empty()) return;
  std::string list;
  for (std::size_t i = 0; i < loose.size() && i < 8; ++i)
    list += (i ? ", " : "") + std::to_string(loose[i]);
  if (loose.size() > 8) list += ", …";
  throw Error(fmt::format(
      "{}: {} of its {} vertices {} to no tetrahedron (0-based: {}): such a vertex has no mass "
      "and no stiffness and nothing can move it; remove it from the mesh (or fix it)",
      file.string(), loose.size(), mesh.num_vertices(), loose.size() == 1 ? "belongs" : "belong",
      list));
}

}  // namespace substruct
