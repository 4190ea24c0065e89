// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading back the VTK XML files substruct writes (.vtu UnstructuredGrid, .pvd Collection), with
// Boost.PropertyTree: every DataArray's values as doubles, ascii or inline base64 alike.
//
//   const Vtu vtu = read_vtu(dir() / "box.vtu");
//   EXPECT_EQ(vtu.point.at("displacement").size(), 3u * vtu.points);
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

namespace substruct::testing {

/// The bytes of RFC 4648 base64 `text` (padding and whitespace skipped).
inline std::vector<unsigned char> base64_decode(const std::string& text) {
  std::vector<unsigned char> out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    int value;
    if (c >= 'A' && c <= 'Z')
      value = c - 'A';
    else if (c >= 'a' && c <= 'z')
      value = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      value = c - '0' + 52;
    else if (c == '+')
      value = 62;
    else if (c == '/')
      value = 63;
    else
      continue;  // '=' padding and whitespace
    buffer = (buffer << 6) | static_cast<std::uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<unsigned char>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

/// The values of a <DataArray> as doubles (exact for every type substruct writes), checking that
/// a binary array's UInt32 header counts its bytes.
inline std::vector<double> values_of(const boost::property_tree::ptree& array) {
  const std::string type = array.get<std::string>("<xmlattr>.type");
  const std::string format = array.get<std::string>("<xmlattr>.format");
  const std::string text = array.get_value<std::string>();
  std::vector<double> values;
  if (format == "ascii") {
    std::istringstream in(text);
    double v;
    while (in >> v) values.push_back(v);
    EXPECT_TRUE(in.eof()) << "unparsed ASCII data in "
                          << array.get<std::string>("<xmlattr>.Name", "");
    return values;
  }
  EXPECT_EQ(format, "binary");
  const std::vector<unsigned char> raw = base64_decode(text);
  std::uint32_t bytes = 0;
  EXPECT_GE(raw.size(), 4u);
  std::memcpy(&bytes, raw.data(), 4);
  EXPECT_EQ(bytes, raw.size() - 4) << "binary header of " << type;
  const unsigned char* p = raw.data() + 4;
  const auto read = [&]<class T>(T) {
    for (std::size_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
      T v;
      std::memcpy(&v, p + i, sizeof(T));
      values.push_back(static_cast<double>(v));
    }
  };
  if (type == "Float64")
    read(double{});
  else if (type == "Int32")
    read(std::int32_t{});
  else if (type == "Int64")
    read(std::int64_t{});
  else if (type == "UInt8")
    read(std::uint8_t{});
  else
    ADD_FAILURE() << "unexpected type " << type;
  return values;
}

/// The DataArrays below `node` (none when it is missing), by Name.
inline std::map<std::string, std::vector<double>> arrays_in(
    const boost::optional<const boost::property_tree::ptree&>& node) {
  std::map<std::string, std::vector<double>> arrays;
  if (!node) return arrays;
  for (const auto& [tag, child] : *node)
    if (tag == "DataArray") arrays[child.get<std::string>("<xmlattr>.Name")] = values_of(child);
  return arrays;
}

/// One UnstructuredGrid: its sizes and the values of its arrays, by section and name.
struct Vtu {
  int points = 0;
  int cells = 0;
  std::map<std::string, std::vector<double>> field, point, cell, geometry, topology;
};

/// Reads a .vtu, expecting the UInt32 headers substruct writes.
inline Vtu read_vtu(const std::filesystem::path& file) {
  boost::property_tree::ptree tree;
  boost::property_tree::read_xml(file.string(), tree);
  const boost::property_tree::ptree& root = tree.get_child("VTKFile");
  EXPECT_EQ(root.get<std::string>("<xmlattr>.type"), "UnstructuredGrid");
  EXPECT_EQ(root.get<std::string>("<xmlattr>.header_type"), "UInt32");
  const boost::property_tree::ptree& grid = root.get_child("UnstructuredGrid");
  const boost::property_tree::ptree& piece = grid.get_child("Piece");
  Vtu vtu;
  vtu.points = piece.get<int>("<xmlattr>.NumberOfPoints");
  vtu.cells = piece.get<int>("<xmlattr>.NumberOfCells");
  vtu.field = arrays_in(grid.get_child_optional("FieldData"));
  vtu.point = arrays_in(piece.get_child_optional("PointData"));
  vtu.cell = arrays_in(piece.get_child_optional("CellData"));
  vtu.geometry = arrays_in(piece.get_child_optional("Points"));
  vtu.topology = arrays_in(piece.get_child_optional("Cells"));
  return vtu;
}

/// One entry of a .pvd collection.
struct DataSet {
  double time;
  std::string file;
};

inline std::vector<DataSet> read_pvd(const std::filesystem::path& file) {
  boost::property_tree::ptree tree;
  boost::property_tree::read_xml(file.string(), tree);
  const boost::property_tree::ptree& root = tree.get_child("VTKFile");
  EXPECT_EQ(root.get<std::string>("<xmlattr>.type"), "Collection");
  std::vector<DataSet> sets;
  for (const auto& [tag, child] : root.get_child("Collection"))
    if (tag == "DataSet")
      sets.push_back(
          {child.get<double>("<xmlattr>.timestep"), child.get<std::string>("<xmlattr>.file")});
  return sets;
}

}  // namespace substruct::testing
