// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// What the frames of the vtk exporter show, written with io/vtk_writer.hpp: the positions of the
/// vertices; per vertex the displacement from the rest shape and the velocity; per tet its domain
/// and its material; and the time and step of the frame as field data.
#include <filesystem>

#include "substruct/io/exporter.hpp"
#include "substruct/io/vtk_writer.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct::vtk {

/// A writer of the frames of `scene`: its tets, with the domain of each (0 everywhere for a scene
/// without a partition) and its material as cell data. Throws Error when the scene's partition
/// does not fit its mesh.
VtuWriter frame_writer(const Scene& scene, VtkEncoding encoding);

/// Writes `frame` of `scene` to `file` with a writer from frame_writer(). A frame without
/// velocities (none given) is written without the velocity array. `durability`: see StagedFile.
void write_frame(const VtuWriter& writer, const std::filesystem::path& file, const Scene& scene,
                 const ExportFrame& frame, Durability durability = Durability::fsync);

}  // namespace substruct::vtk
