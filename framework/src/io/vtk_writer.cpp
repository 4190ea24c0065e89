// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/io/vtk_writer.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>
#include <limits>
#include <sstream>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/io/staged_file.hpp"

namespace substruct {

namespace fs = std::filesystem;

namespace {

constexpr std::uint8_t kVtkTetra = 10;
static_assert(std::is_same_v<Index, std::int32_t>, "connectivity is written as Int32");

/// "LittleEndian" or "BigEndian": the byte order of this machine, which binary arrays use.
const char* byte_order() {
  return std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";
}

/// RFC 4648 base64 with '=' padding.
std::string base64(const unsigned char* data, std::size_t size) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t n = (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8) |
                            std::uint32_t{data[i + 2]};
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  if (const std::size_t rest = size - i; rest > 0) {
    std::uint32_t n = std::uint32_t{data[i]} << 16;
    if (rest == 2) n |= std::uint32_t{data[i + 1]} << 8;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += rest == 2 ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

/// `text` with &, <, >, " and ' escaped, for an XML attribute.
std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

template <class T>
constexpr const char* vtk_type() {
  if constexpr (std::is_same_v<T, double>) return "Float64";
  if constexpr (std::is_same_v<T, std::int32_t>) return "Int32";
  if constexpr (std::is_same_v<T, std::int64_t>) return "Int64";
  if constexpr (std::is_same_v<T, std::uint8_t>) return "UInt8";
}

/// The values of a DataArray, after its start tag.
template <class T>
void append_values(std::string& out, const VtkArray& array, std::span<const T> values,
                   VtkEncoding encoding, int indent) {
  if (encoding == VtkEncoding::binary) {
    const std::size_t bytes = values.size() * sizeof(T);
    if (bytes > std::numeric_limits<std::uint32_t>::max())
      throw Error(
          fmt::format("vtk: the data array '{}' of {} bytes is larger than the 4 GiB a binary VTK "
                      "header counts; write it as ascii",
                      array.name, bytes));
    // One base64 stream: the UInt32 byte count, then the values.
    std::string raw(sizeof(std::uint32_t) + bytes, '\0');
    const auto count = static_cast<std::uint32_t>(bytes);
    std::memcpy(raw.data(), &count, sizeof count);
    if (bytes > 0) std::memcpy(raw.data() + sizeof count, values.data(), bytes);
    out += base64(reinterpret_cast<const unsigned char*>(raw.data()), raw.size());
    return;
  }
  // ASCII, in the shortest form that reads back exactly: one tuple a line (12 scalars a line),
  // indented below the tag.
  const std::size_t per_line =
      array.components > 1 ? static_cast<std::size_t>(array.components) : 12;
  auto sink = std::back_inserter(out);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i % per_line == 0) {
      out += '\n';
      out.append(static_cast<std::size_t>(indent + 2), ' ');
    } else {
      out += ' ';
    }
    if constexpr (std::is_same_v<T, std::uint8_t>)
      fmt::format_to(sink, "{}", static_cast<unsigned>(values[i]));
    else
      fmt::format_to(sink, "{}", values[i]);
  }
  out += '\n';
  out.append(static_cast<std::size_t>(indent), ' ');
}

/// One line <DataArray type=… Name=… NumberOfComponents=… [NumberOfTuples=…] format=…>…
/// </DataArray>, indented by `indent` spaces. NumberOfTuples is what field data needs.
void append_array(std::string& out, const VtkArray& array, VtkEncoding encoding, int indent,
                  bool with_tuple_count = false) {
  std::visit(
      [&]<class T>(std::span<const T> values) {
        out.append(static_cast<std::size_t>(indent), ' ');
        out += fmt::format("<DataArray type=\"{}\" Name=\"{}\" NumberOfComponents=\"{}\"",
                           vtk_type<T>(), xml_escape(array.name), array.components);
        if (with_tuple_count)
          out += fmt::format(" NumberOfTuples=\"{}\"",
                             values.size() / static_cast<std::size_t>(array.components));
        out += fmt::format(" format=\"{}\">", encoding == VtkEncoding::binary ? "binary" : "ascii");
        append_values(out, array, values, encoding, indent);
        out += "</DataArray>\n";
      },
      array.values);
}

std::size_t size_of(const VtkArray& array) {
  return std::visit([](const auto& values) { return values.size(); }, array.values);
}

/// Throws unless `array` holds `tuples` tuples (any whole number when `tuples` is negative).
void check_size(const VtkArray& array, long tuples, std::string_view where) {
  if (array.components < 1)
    throw Error(fmt::format("vtk: the {} array '{}' has {} components", where, array.name,
                            array.components));
  const std::size_t size = size_of(array);
  const auto components = static_cast<std::size_t>(array.components);
  const bool fits =
      tuples < 0 ? size % components == 0 : size == components * static_cast<std::size_t>(tuples);
  if (!fits)
    throw Error(fmt::format("vtk: the {} array '{}' has {} values, expected {} × {}", where,
                            array.name, size, array.components,
                            tuples < 0 ? std::string("a whole number") : std::to_string(tuples)));
}

void write_text(std::ostream& out, const std::string& text) {
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

/// Throws unless each array of `data` holds `tuples` tuples and `scalars` and `vectors` name
/// arrays of it; `tag` says which data for the message.
void check_data(const VtkData& data, long tuples, std::string_view tag) {
  for (const VtkArray& array : data.arrays) check_size(array, tuples, tag);
  for (const auto& [attribute, named] :
       {std::pair{"Scalars", &data.scalars}, std::pair{"Vectors", &data.vectors}}) {
    const std::string& name = *named;  // (a lambda may not capture a structured binding)
    if (!name.empty() && std::none_of(data.arrays.begin(), data.arrays.end(),
                                      [&](const VtkArray& a) { return a.name == name; }))
      throw Error(
          fmt::format("vtk: the {} '{}' of the {} is none of its arrays", attribute, name, tag));
  }
}

/// <PointData …> or <CellData …> with its arrays; nothing without arrays. Each array is encoded
/// and written before the next, so that only one is held as text.
void write_data_element(std::ostream& out, const char* tag, const VtkData& data,
                        VtkEncoding encoding) {
  if (data.arrays.empty()) return;
  std::string text = fmt::format("      <{}", tag);
  if (!data.scalars.empty()) text += fmt::format(" Scalars=\"{}\"", xml_escape(data.scalars));
  if (!data.vectors.empty()) text += fmt::format(" Vectors=\"{}\"", xml_escape(data.vectors));
  text += ">\n";
  for (const VtkArray& array : data.arrays) {
    append_array(text, array, encoding, 8);
    write_text(out, text);
    text.clear();
  }
  write_text(out, fmt::format("      </{}>\n", tag));
}

}  // namespace

VtuWriter::VtuWriter(const Tets& tets, const VtkData& cell_data, VtkEncoding encoding)
    : num_cells_(static_cast<Index>(tets.rows())), encoding_(encoding) {
  const auto m = static_cast<std::size_t>(tets.rows());
  if (4 * m > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw Error(fmt::format("vtk: {} tets are more than Int32 offsets can count", m));
  for (Index e = 0; e < num_cells_; ++e)
    for (int k = 0; k < 4; ++k) {
      if (tets(e, k) < 0)
        throw Error(fmt::format("vtk: tet {} has the negative point index {}", e, tets(e, k)));
      max_point_ = std::max(max_point_, tets(e, k));
    }
  std::vector<std::int32_t> offsets(m);
  for (std::size_t e = 0; e < m; ++e) offsets[e] = static_cast<std::int32_t>(4 * (e + 1));
  const std::vector<std::uint8_t> types(m, kVtkTetra);
  cells_ = "      <Cells>\n";
  append_array(cells_, {"connectivity", 1, std::span<const std::int32_t>(tets.data(), 4 * m)},
               encoding_, 8);
  append_array(cells_, {"offsets", 1, std::span<const std::int32_t>(offsets)}, encoding_, 8);
  append_array(cells_, {"types", 1, std::span<const std::uint8_t>(types)}, encoding_, 8);
  cells_ += "      </Cells>\n";
  check_data(cell_data, num_cells_, "CellData");
  std::ostringstream text;
  write_data_element(text, "CellData", cell_data, encoding_);
  cell_data_ = text.str();
}

void VtuWriter::write(const fs::path& file, const Points& points, const VtkData& point_data,
                      std::span<const VtkArray> field_data, Durability durability) const {
  write_file_atomically(
      file, [&](std::ostream& out) { write(out, points, point_data, field_data); }, durability);
}

void VtuWriter::write(std::ostream& out, const Points& points, const VtkData& point_data,
                      std::span<const VtkArray> field_data) const {
  const Index n = static_cast<Index>(points.rows());
  if (num_cells_ > 0 && max_point_ >= n)
    throw Error(fmt::format("vtk: the tets use point {}, the grid has {} points", max_point_, n));
  check_data(point_data, n, "PointData");
  for (const VtkArray& array : field_data) check_size(array, -1, "FieldData");
  write_text(out, fmt::format("<?xml version=\"1.0\"?>\n"
                              "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
                              "byte_order=\"{}\" header_type=\"UInt32\">\n"
                              "  <UnstructuredGrid>\n",
                              byte_order()));
  if (!field_data.empty()) {
    std::string text = "    <FieldData>\n";
    for (const VtkArray& array : field_data) append_array(text, array, encoding_, 6, true);
    text += "    </FieldData>\n";
    write_text(out, text);
  }
  write_text(
      out, fmt::format("    <Piece NumberOfPoints=\"{}\" NumberOfCells=\"{}\">\n", n, num_cells_));
  write_data_element(out, "PointData", point_data, encoding_);
  write_text(out, cell_data_);
  std::string text = "      <Points>\n";
  append_array(text, {"Points", 3, flat_values(points)}, encoding_, 8);
  text += "      </Points>\n";
  write_text(out, text);
  write_text(out, cells_);
  write_text(out,
             "    </Piece>\n"
             "  </UnstructuredGrid>\n"
             "</VTKFile>\n");
}

void write_vtk_collection(std::ostream& out, std::span<const VtkTimeStep> steps) {
  std::string text = fmt::format(
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"{}\">\n"
      "  <Collection>\n",
      byte_order());
  for (const VtkTimeStep& step : steps)
    text += fmt::format("    <DataSet timestep=\"{}\" group=\"\" part=\"0\" file=\"{}\"/>\n",
                        step.time, xml_escape(step.file));
  text +=
      "  </Collection>\n"
      "</VTKFile>\n";
  write_text(out, text);
}

}  // namespace substruct
