// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// One frame of a run as a .vtu file (io/vtk_writer.hpp), as the vtk exporter writes it and the
/// replay converter expands a recording to: the tets with their "domain" and "material" as cell
/// data, the positions as points with the "displacement" x − X (and "velocity") as point data,
/// and "TimeValue" and "Step" as field data.
#include <cstdint>
#include <filesystem>
#include <span>

#include "substruct/core/types.hpp"
#include "substruct/io/vtk_writer.hpp"

namespace substruct {

/// The writer of the frames of a tet mesh: `domain` and `material` hold one entry per tet, or
/// are empty (every tet then 0). Error when one has another size.
VtuWriter run_frame_writer(const Tets& tets, std::span<const std::int32_t> domain,
                           std::span<const std::int32_t> material, VtkEncoding encoding);

/// Writes the frame at `positions` (rest positions `rest`, `velocities` empty or one row per
/// point) to `file` with a writer from run_frame_writer().
void write_run_frame(const VtuWriter& writer, const std::filesystem::path& file, const Points& rest,
                     const Points& positions, const Points& velocities, double time, long step,
                     Durability durability);

}  // namespace substruct
