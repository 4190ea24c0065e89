// SPDX-License-Identifier: GPL-3.0-or-later
// Legacy VTK (.vtk) unstructured grids, ASCII, versions 2 to 5.1 (5.x writes the cells as
// OFFSETS and CONNECTIVITY arrays). A small reader of our own rather than VTK's: Debian's
// libvtk9-dev is hundreds of megabytes for a format of a few keywords, and this one reports a
// bad file as "FILE:LINE: expected …" like the other mesh readers.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "detail/line_reader.hpp"
#include "detail/mesh_builder.hpp"
#include "detail/vtk_cells.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct {

namespace {

using mesh_detail::Fields;
using mesh_detail::kMaxCount;
using mesh_detail::LineReader;

// Whitespace-separated tokens across lines (legacy VTK puts numbers on lines freely).
class Tokens {
 public:
  explicit Tokens(LineReader& r) : r_(r) {}

  std::string_view next(std::string_view what) {
    while (!fields_ || fields_->done()) {
      if (!r_.next()) r_.fail_end_of_file(what);
      fields_.emplace(r_);
    }
    return fields_->next(what);
  }
  double next_double(std::string_view what) {
    next_token_check(what);
    return fields_->next_double(what);
  }
  long long next_integer(std::string_view what, long long lo, long long hi) {
    next_token_check(what);
    return fields_->next_integer(what, lo, hi);
  }
  // The current line must be done with; the next token starts a new line.
  void end_line() {
    if (fields_) fields_->expect_end("the values the section declares");
    fields_.reset();
  }
  LineReader& reader() { return r_; }

 private:
  void next_token_check(std::string_view what) {
    while (!fields_ || fields_->done()) {
      if (!r_.next()) r_.fail_end_of_file(what);
      fields_.emplace(r_);
    }
  }

  LineReader& r_;
  std::optional<Fields> fields_;
};

struct LegacyContent {
  int major = 0;
  std::vector<double> xyz;
  mesh_detail::VtkCells cells;
  std::vector<long> cell_lines;  // where each cell starts (the CELLS or OFFSETS line in 5.x)
  bool has_points = false, has_cells = false, has_types = false;
};

void read_header(LineReader& r, LegacyContent& c) {
  constexpr std::string_view kMagic = "# vtk DataFile Version ";
  r.require_content("the line '# vtk DataFile Version 3.0'");
  if (r.line().substr(0, kMagic.size()) != kMagic)
    r.fail_token("a legacy VTK file starting '# vtk DataFile Version'", r.line());
  const std::string_view version = r.line().substr(kMagic.size());
  c.major = version.empty() ? 0 : version.front() - '0';
  if (c.major < 1 || c.major > 5) r.fail_token("VTK file version 1 to 5.1", version);
  if (!r.next()) r.fail_end_of_file("the title line");
  r.require_content("ASCII or BINARY");
  if (r.line() == "BINARY")
    r.fail("an ASCII legacy VTK file",
           "BINARY (re-save it as ASCII, or as a .vtu file, which is read in all its forms)");
  if (r.line() != "ASCII") r.fail_token("ASCII", r.line());
  r.require_content("DATASET UNSTRUCTURED_GRID");
  Fields f(r);
  const std::string_view dataset = f.next("DATASET");
  if (dataset != "DATASET") r.fail_token("DATASET UNSTRUCTURED_GRID", dataset);
  const std::string_view kind = f.next("the dataset type");
  if (kind != "UNSTRUCTURED_GRID")
    r.fail_token("the dataset type UNSTRUCTURED_GRID (a tet or hex mesh)", kind);
  f.expect_end("the dataset type");
}

void read_points(Tokens& t, LegacyContent& c) {
  LineReader& r = t.reader();
  Fields f(r);
  f.next("POINTS");
  const long long n = f.next_integer("the number of points", 1, kMaxCount);
  f.next("the point data type (float, double)");
  f.expect_end("the point data type");
  t.end_line();
  for (long long i = 0; i < 3 * n; ++i)
    c.xyz.push_back(t.next_double(
        fmt::format("coordinate {} of point {} (0-based) of {}", "xyz"[i % 3], i / 3, n)));
  c.has_points = true;
}

// Versions up to 4: CELLS m size, then per cell "count i0 i1 …".
void read_cells_v4(Tokens& t, Fields& f, LegacyContent& c) {
  const long long m = f.next_integer("the number of cells", 0, kMaxCount);
  const long long size = f.next_integer("the size of the cell list", 0, kMaxCount);
  f.expect_end("the size of the cell list");
  t.end_line();
  long long read = 0;
  for (long long i = 0; i < m; ++i) {
    const long long count =
        t.next_integer(fmt::format("the point count of cell {} (0-based) of {}", i, m), 0, size);
    c.cell_lines.push_back(t.reader().line_number());
    for (long long k = 0; k < count; ++k)
      c.cells.connectivity.push_back(
          t.next_integer(fmt::format("point index {} of cell {}", k, i), -kMaxCount, kMaxCount));
    c.cells.offsets.push_back(static_cast<long long>(c.cells.connectivity.size()));
    read += count + 1;
  }
  if (read != size)
    t.reader().fail(fmt::format("a cell list of {} numbers as the CELLS line says", size),
                    std::to_string(read));
}

// Version 5: CELLS num_offsets num_connectivity, then OFFSETS TYPE and CONNECTIVITY TYPE arrays.
void read_cells_v5(Tokens& t, Fields& f, LegacyContent& c) {
  const long long num_offsets = f.next_integer("the number of offsets", 1, kMaxCount);
  const long long size = f.next_integer("the connectivity size", 0, kMaxCount);
  f.expect_end("the connectivity size");
  t.end_line();
  std::vector<long long> offsets;
  for (const std::string_view name : {"OFFSETS", "CONNECTIVITY"}) {
    const std::string_view keyword = t.next(name);
    if (keyword != name) t.reader().fail_token(name, keyword);
    t.next("the integer type (vtktypeint64, …)");
    t.end_line();
    const bool is_offsets = name == "OFFSETS";
    const long long n = is_offsets ? num_offsets : size;
    for (long long i = 0; i < n; ++i) {
      const long long value =
          t.next_integer(fmt::format("{} value {} of {}", name, i, n), 0, kMaxCount);
      if (is_offsets) {
        offsets.push_back(value);
        c.cell_lines.push_back(t.reader().line_number());
      } else {
        c.cells.connectivity.push_back(value);
      }
    }
    t.end_line();
  }
  if (offsets.front() != 0) t.reader().fail("the first offset 0", std::to_string(offsets.front()));
  c.cells.offsets.assign(offsets.begin() + 1, offsets.end());
  c.cell_lines.erase(c.cell_lines.begin());
}

void read_cell_types(Tokens& t, Fields& f, LegacyContent& c) {
  const long long m = f.next_integer("the number of cell types", 0, kMaxCount);
  f.expect_end("the number of cell types");
  if (!c.has_cells) t.reader().fail("CELLS before CELL_TYPES", "CELL_TYPES");
  if (m != static_cast<long long>(c.cells.offsets.size()))
    t.reader().fail(fmt::format("{} cell types, one per cell", c.cells.offsets.size()),
                    std::to_string(m));
  t.end_line();
  for (long long i = 0; i < m; ++i)
    c.cells.types.push_back(t.next_integer(fmt::format("the type of cell {} of {}", i, m), 0, 255));
  c.has_types = true;
}

}  // namespace

TetMesh read_vtk_legacy(const std::filesystem::path& file) {
  LineReader r(file, '\0', "VTK file");
  LegacyContent c;
  read_header(r, c);
  Tokens t(r);
  while (r.next_content()) {
    Fields f(r);
    const std::string_view keyword = f.next("a section keyword");
    if (keyword == "POINTS") {
      if (c.has_points) r.fail("a single POINTS section", "a second one");
      read_points(t, c);
    } else if (keyword == "CELLS") {
      if (c.has_cells) r.fail("a single CELLS section", "a second one");
      if (c.major >= 5)
        read_cells_v5(t, f, c);
      else
        read_cells_v4(t, f, c);
      c.has_cells = true;
    } else if (keyword == "CELL_TYPES") {
      read_cell_types(t, f, c);
    } else if (keyword == "METADATA") {
      while (r.next() && !r.blank()) {
      }
    } else if (keyword == "POINT_DATA" || keyword == "CELL_DATA" || keyword == "FIELD") {
      break;  // the attributes that follow carry nothing a TetMesh holds
    } else {
      r.fail_token("POINTS, CELLS, CELL_TYPES, POINT_DATA or CELL_DATA", keyword);
    }
    t.end_line();
  }
  if (!c.has_points) r.fail_end_of_file("a POINTS section");
  if (!c.has_cells) r.fail_end_of_file("a CELLS section");
  if (!c.has_types) r.fail_end_of_file("a CELL_TYPES section");
  return mesh_detail::tet_mesh_of_vtk_cells(file, c.xyz, c.cells, [&](std::size_t i) {
    return i < c.cell_lines.size() ? c.cell_lines[i] : 1L;
  });
}

}  // namespace substruct
