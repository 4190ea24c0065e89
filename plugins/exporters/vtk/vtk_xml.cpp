// SPDX-License-Identifier: GPL-3.0-or-later
#include "vtk_xml.hpp"

#include <cstdint>
#include <span>

#include "substruct/io/vtk_frame.hpp"

namespace substruct::vtk {

VtuWriter frame_writer(const Scene& scene, VtkEncoding encoding) {
  const std::vector<int>& partition = scene.decomposition.partition.domain_of_element;
  // A mesh whose materials do not cover its tets shows material 0 everywhere.
  std::span<const std::int32_t> material(scene.mesh.element_material);
  if (material.size() != static_cast<std::size_t>(scene.mesh.num_elements())) material = {};
  return run_frame_writer(scene.mesh.tets, std::span<const std::int32_t>(partition), material,
                          encoding);
}

void write_frame(const VtuWriter& writer, const std::filesystem::path& file, const Scene& scene,
                 const ExportFrame& frame, Durability durability) {
  write_run_frame(writer, file, scene.mesh.vertices, frame.positions, frame.velocities, frame.time,
                  frame.step, durability);
}

}  // namespace substruct::vtk
