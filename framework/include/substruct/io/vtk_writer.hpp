// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// VTK XML files for ParaView (docs.vtk.org, "VTK XML file formats"): a tet mesh with its point,
/// cell and field data as an UnstructuredGrid (.vtu), and a time series of such files as a
/// Collection (.pvd). The data are plain arrays, so any mesh, state or mode shape can be written:
///
///   const VtuWriter writer(mesh.tets, {}, VtkEncoding::ascii);
///   const VtkArray u{"displacement", 3, flat_values(displacement)};
///   writer.write("out/shape.vtu", mesh.vertices, {{u}, "", "displacement"});
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/io/staged_file.hpp"

namespace substruct {

/// How the values of a data array are stored. ascii: decimal text that reads back exactly.
/// binary: inline base64 of [UInt32 byte count][the values in this machine's byte order], the
/// layout VTK reads for uncompressed data with header_type="UInt32"; smaller and faster, but an
/// array cannot exceed 4 GiB.
enum class VtkEncoding { ascii, binary };

/// One named array: `components` numbers per tuple (1: a scalar, 3: a vector), tuple after tuple.
/// The values are viewed, not copied: they must live until the write returns.
struct VtkArray {
  using Values = std::variant<std::span<const double>, std::span<const std::int32_t>,
                              std::span<const std::int64_t>, std::span<const std::uint8_t>>;
  std::string name;
  int components = 1;
  Values values;
};

/// The arrays of the point data or the cell data, one tuple per point or cell, and which of them
/// ParaView shows first: `scalars` and `vectors` name one of the arrays, or are empty.
struct VtkData {
  std::vector<VtkArray> arrays;
  std::string scalars;
  std::string vectors;
};

/// The values of an N×3 point array (x0 y0 z0 x1 …), for a 3-component VtkArray.
inline std::span<const double> flat_values(const Points& points) {
  return {points.data(), static_cast<std::size_t>(points.size())};
}

/// Writes .vtu files of one tet mesh: the cells (VTK_TETRA) and their cell data are encoded once,
/// here, and each file adds the point positions, the point data and the field data (arrays about
/// the whole grid, such as the time). Errors (an array whose size does not fit the mesh, a file
/// that cannot be written) are Error naming the array or the file.
class VtuWriter {
 public:
  /// `tets` holds 0-based point indices; each array of `cell_data` has one tuple per tet.
  VtuWriter(const Tets& tets, const VtkData& cell_data, VtkEncoding encoding);

  /// Writes the grid to `file` through a StagedFile: it appears complete or not at all.
  void write(const std::filesystem::path& file, const Points& points, const VtkData& point_data,
             std::span<const VtkArray> field_data = {},
             Durability durability = Durability::fsync) const;
  /// Writes the grid's XML to `out`; the arrays are checked before anything is written.
  void write(std::ostream& out, const Points& points, const VtkData& point_data,
             std::span<const VtkArray> field_data = {}) const;

  VtkEncoding encoding() const { return encoding_; }

 private:
  Index num_cells_ = 0;
  Index max_point_ = -1;  // the largest point index the tets use
  VtkEncoding encoding_;
  std::string cells_;      // the <Cells> element
  std::string cell_data_;  // the <CellData> element, or nothing
};

/// One file of a time series: the time it shows and its path relative to the .pvd file.
struct VtkTimeStep {
  double time;
  std::string file;
};

/// Writes a Collection (.pvd) listing `steps` in order, which ParaView plays as one series.
void write_vtk_collection(std::ostream& out, std::span<const VtkTimeStep> steps);

}  // namespace substruct
