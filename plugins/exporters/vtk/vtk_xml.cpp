// SPDX-License-Identifier: GPL-3.0-or-later
#include "vtk_xml.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::vtk {

VtuWriter frame_writer(const Scene& scene, VtkEncoding encoding) {
  const TetMesh& mesh = scene.mesh;
  const auto m = static_cast<std::size_t>(mesh.num_elements());
  const std::vector<int>& partition = scene.decomposition.partition.domain_of_element;
  std::vector<std::int32_t> domain(m, 0);
  if (!partition.empty()) {
    if (partition.size() != m)
      throw Error(fmt::format("vtk: the domain partition has {} entries for {} elements",
                              partition.size(), m));
    std::copy(partition.begin(), partition.end(), domain.begin());
  }
  std::vector<std::int32_t> material(m, 0);
  if (mesh.element_material.size() == m)
    std::copy(mesh.element_material.begin(), mesh.element_material.end(), material.begin());
  const VtkData cell_data{{{"domain", 1, std::span<const std::int32_t>(domain)},
                           {"material", 1, std::span<const std::int32_t>(material)}},
                          "domain",
                          ""};
  return VtuWriter(mesh.tets, cell_data, encoding);
}

void write_frame(const VtuWriter& writer, const std::filesystem::path& file, const Scene& scene,
                 const ExportFrame& frame, Durability durability) {
  const Points displacement = frame.positions - scene.mesh.vertices;
  VtkData point_data{{{"displacement", 3, flat_values(displacement)}}, "", "displacement"};
  if (frame.velocities.rows() != 0)
    point_data.arrays.push_back({"velocity", 3, flat_values(frame.velocities)});
  const double time[] = {frame.time};
  const std::int64_t step[] = {frame.step};
  const VtkArray field_data[] = {{"TimeValue", 1, std::span<const double>(time)},
                                 {"Step", 1, std::span<const std::int64_t>(step)}};
  writer.write(file, frame.positions, point_data, field_data, durability);
}

}  // namespace substruct::vtk
