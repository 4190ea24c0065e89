// SPDX-License-Identifier: GPL-3.0-or-later
#include <vector>

#include <fmt/format.h>

#include "detail/line_reader.hpp"
#include "detail/mesh_builder.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct {

std::vector<Index> read_bou(const std::filesystem::path& file, Index num_vertices) {
  mesh_detail::LineReader r(file, '#', "fixed-vertex file");
  const long long last = num_vertices >= 0 ? num_vertices : mesh_detail::kMaxCount;
  std::vector<Index> fixed;
  while (r.next_content()) {
    mesh_detail::Fields f(r, /*commas=*/true);
    while (!f.done())
      fixed.push_back(static_cast<Index>(f.next_integer("a 1-based vertex index", 1, last) - 1));
  }
  mesh_detail::sort_unique(fixed);
  return fixed;
}

}  // namespace substruct
