// SPDX-License-Identifier: GPL-3.0-or-later
// VTK unstructured grids of tetrahedra, as SOFA, meshio and ParaView write them: .vtu in every
// encoding (ascii, inline base64, appended raw or base64, zlib-compressed, either byte order,
// UInt32 or UInt64 headers) and legacy ASCII .vtk (versions up to 4.2, and 5.1).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;
const fs::path kData = fs::path(SUBSTRUCT_SOURCE_DIR) / "tests" / "data" / "meshes";

// The two tets (0 1 2 3) and (1 2 3 4) on five points, and a boundary triangle (0 1 2) that
// the readers skip.
const std::vector<double> kXyz = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
const std::vector<std::int64_t> kConnectivity = {0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4};
const std::vector<std::int64_t> kOffsets = {3, 7, 11};
const std::vector<std::uint8_t> kTypes = {5, 10, 10};

void expect_two_tets(const TetMesh& mesh) {
  ASSERT_EQ(mesh.num_vertices(), 5);
  ASSERT_EQ(mesh.num_elements(), 2);
  for (Index v = 0; v < 5; ++v)
    for (int d = 0; d < 3; ++d)
      EXPECT_EQ(mesh.vertices(v, d), kXyz[static_cast<std::size_t>(3 * v + d)]);
  EXPECT_EQ(mesh.tets.row(0), (Eigen::RowVector4i(0, 1, 2, 3)));
  EXPECT_EQ(mesh.tets.row(1), (Eigen::RowVector4i(1, 2, 3, 4)));
  ASSERT_EQ(mesh.materials.size(), 1u);
  EXPECT_EQ(mesh.element_material, (std::vector<Index>{0, 0}));
}

std::string base64(const std::string& bytes) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t v = 0;
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    for (std::size_t k = 0; k < 3; ++k)
      v = (v << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kAlphabet[(v >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

// The bytes of `values`, each written in the chosen byte order.
template <class T>
std::string bytes_of(const std::vector<T>& values, bool big_endian) {
  std::string out;
  for (const T& value : values) {
    char b[sizeof(T)];
    std::memcpy(b, &value, sizeof(T));
    for (std::size_t k = 0; k < sizeof(T); ++k) out += b[big_endian ? sizeof(T) - 1 - k : k];
  }
  return out;
}

struct Encoding {
  const char* format;  // "binary" or "appended"
  bool big_endian = false;
  bool header64 = false;
  bool appended_base64 = false;
};

// A .vtu of the two tets in `encoding`.
std::string vtu(const Encoding& e) {
  std::string appended;
  const auto array = [&](const char* type, const char* name, const std::string& data) {
    const std::string header =
        e.header64 ? bytes_of(std::vector<std::uint64_t>{data.size()}, e.big_endian)
                   : bytes_of(std::vector<std::uint32_t>{static_cast<std::uint32_t>(data.size())},
                              e.big_endian);
    std::string tag = fmt::format("<DataArray type=\"{}\" {} format=\"{}\"", type, name, e.format);
    if (std::string(e.format) == "binary")
      return tag + ">" + base64(header + data) + "</DataArray>\n";
    tag += fmt::format(" offset=\"{}\"/>\n", appended.size());
    appended += e.appended_base64 ? base64(header + data) : header + data;
    return tag;
  };
  std::string s = fmt::format(
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
      "byte_order=\"{}\" header_type=\"{}\">\n<UnstructuredGrid>\n"
      "<Piece NumberOfPoints=\"5\" NumberOfCells=\"3\">\n<Points>\n",
      e.big_endian ? "BigEndian" : "LittleEndian", e.header64 ? "UInt64" : "UInt32");
  s += array("Float64", "NumberOfComponents=\"3\"", bytes_of(kXyz, e.big_endian));
  s += "</Points>\n<Cells>\n";
  s += array("Int64", "Name=\"connectivity\"", bytes_of(kConnectivity, e.big_endian));
  s += array("Int64", "Name=\"offsets\"", bytes_of(kOffsets, e.big_endian));
  s += array("UInt8", "Name=\"types\"", bytes_of(kTypes, e.big_endian));
  s += "</Cells>\n</Piece>\n</UnstructuredGrid>\n";
  if (!appended.empty())
    s += fmt::format("<AppendedData encoding=\"{}\">\n_{}\n</AppendedData>\n",
                     e.appended_base64 ? "base64" : "raw", appended);
  return s + "</VTKFile>\n";
}

const std::string kLegacy =
    "# vtk DataFile Version 4.2\n"  // 1
    "two tets\n"
    "ASCII\n"
    "DATASET UNSTRUCTURED_GRID\n"
    "POINTS 5 float\n"  // 5
    "0 0 0 1 0 0\n"
    "0 1 0 0 0 1 1 1 1\n"
    "CELLS 3 14\n"
    "3 0 1 2\n"
    "4 0 1 2 3\n"  // 10
    "4 1 2 3 4\n"
    "CELL_TYPES 3\n"
    "5 10 10\n"
    "POINT_DATA 5\n"
    "SCALARS temperature float 1\n"
    "LOOKUP_TABLE default\n"
    "1 2 3 4 5\n";

class VtkReader : public testing::TempDirTest {
 protected:
  // The message of reading `text` as `name`, which must name the file and `line`.
  std::string error_of(const std::string& name, const std::string& text, long line) const {
    const fs::path file = write(name, text);
    const std::string message = testing::error_message([&] { read_tet_mesh(file); });
    EXPECT_NE(message.find(fmt::format("{}:{}: expected", file.string(), line)), std::string::npos)
        << message;
    return message;
  }
  // The message of reading `text` with its first `old` replaced by `with`.
  std::string error_of(const std::string& name, std::string text, const std::string& old,
                       const std::string& with, long line) const {
    const std::size_t at = text.find(old);
    EXPECT_NE(at, std::string::npos) << old;
    return error_of(name, text.replace(at, old.size(), with), line);
  }
};

TEST_F(VtkReader, MeshioFilesInEveryDefaultForm) {
  expect_two_tets(read_vtu(kData / "two_tets_meshio_zlib.vtu"));  // binary, zlib-compressed
  expect_two_tets(read_vtu(kData / "two_tets_meshio_ascii.vtu"));
  expect_two_tets(read_vtk_legacy(kData / "two_tets_meshio_v51.vtk"));  // OFFSETS, CONNECTIVITY
  expect_two_tets(read_tet_mesh(kData / "two_tets_meshio_zlib.vtu"));
}

TEST_F(VtkReader, EveryBinaryEncodingByteOrderAndHeaderSize) {
  for (const char* format : {"binary", "appended"})
    for (const bool big_endian : {false, true})
      for (const bool header64 : {false, true})
        for (const bool appended_base64 : {false, true}) {
          if (std::string(format) == "binary" && appended_base64) continue;
          const Encoding e{format, big_endian, header64, appended_base64};
          SCOPED_TRACE(fmt::format("{} big-endian {} UInt64 {} base64 {}", format, big_endian,
                                   header64, appended_base64));
          expect_two_tets(read_vtu(write("two.vtu", vtu(e))));
        }
}

TEST_F(VtkReader, LegacyVersion42WithPointDataAfterTheCells) {
  expect_two_tets(read_tet_mesh(write("two.vtk", kLegacy)));
}

TEST_F(VtkReader, BrokenLegacyFilesNameTheirLine) {
  struct Case {
    const char* old;
    const char* with;
    long line;
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {"1 2 3 4\n", "1 2 3 5\n", 11, "point indices of cell 2 in [0, 5) (0-based)"},
      {"0 1 0 0 0 1", "0 1 0 0 nan 1", 7, "(a finite number), found 'nan'"},
      {"5 10 10", "5 10 13", 11, "found cell type 13 (wedge) in cell 2 (0-based)"},
      {"5 10 10", "5 10 99", 11, "found cell type 99 in cell 2"},
      {"ASCII", "BINARY", 3, "re-save it as ASCII"},
      {"CELLS 3 14", "CELLS 3 15", 11, "a cell list of 15 numbers"},
      {"UNSTRUCTURED_GRID", "POLYDATA", 4, "UNSTRUCTURED_GRID (a tet or hex mesh)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.with);
    std::string text = kLegacy;
    text.replace(text.find(c.old), std::string(c.old).size(), c.with);
    EXPECT_NE(error_of("bad.vtk", text, c.line).find(c.fragment), std::string::npos);
  }
  EXPECT_NE(error_of("cut.vtk", kLegacy.substr(0, kLegacy.find("CELLS 3")), 7)
                .find("expected a CELLS section, found end of file"),
            std::string::npos);
}

TEST_F(VtkReader, BrokenVtuFilesNameTheirLine) {
  const std::string ascii = read(kData / "two_tets_meshio_ascii.vtu");
  std::string text = ascii.substr(0, ascii.find("</Points>") - 30);
  EXPECT_NE(error_of("cut.vtu", text, 7).find("</DataArray>, found end of file"),
            std::string::npos);

  const std::string nan = error_of("nan.vtu", ascii, "1.00000000000e+00", "nan", 11);
  EXPECT_NE(nan.find("expected value 3 (0-based) a finite number in the DataArray 'Points', "
                     "found 'nan'"),
            std::string::npos)
      << nan;

  const std::string appended = vtu({"appended"});
  const std::string cut_raw = appended.substr(0, appended.find("\n_") + 60);
  EXPECT_NE(error_of("cut_raw.vtu", cut_raw, 6).find("the file is truncated?"), std::string::npos);

  text = vtu({"binary"});
  const std::vector<double> bad = {
      0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, std::numeric_limits<double>::quiet_NaN()};
  const std::string good_points =
      base64(bytes_of(std::vector<std::uint32_t>{120}, false) + bytes_of(kXyz, false));
  text.replace(text.find(good_points), good_points.size(),
               base64(bytes_of(std::vector<std::uint32_t>{120}, false) + bytes_of(bad, false)));
  EXPECT_NE(error_of("nan_binary.vtu", text, 6)
                .find("expected finite values in the DataArray "
                      "'Points', found nan at value 14"),
            std::string::npos);

  // connectivity 0 1 2 | 0 1 2 3 | 1 2 3 4: the last 4 made 7
  EXPECT_NE(
      error_of("index.vtu", ascii, "\n4\n", "\n7\n", 47).find("point indices of cell 2 in [0, 5)"),
      std::string::npos);
  EXPECT_NE(error_of("pyramid.vtu", ascii, "\n10\n10\n", "\n10\n14\n", 47)
                .find("found cell type 14 (pyramid) in cell 2"),
            std::string::npos);
  EXPECT_NE(error_of("lz4.vtu", vtu({"binary"}), "header_type",
                     "compressor=\"vtkLZ4DataCompressor\" header_type", 2)
                .find("re-save the file with zlib or no compression"),
            std::string::npos);
  EXPECT_NE(error_of("poly.vtu", ascii, "UnstructuredGrid", "PolyData", 2)
                .find("a VTK file of type UnstructuredGrid"),
            std::string::npos);
}

}  // namespace
}  // namespace substruct
