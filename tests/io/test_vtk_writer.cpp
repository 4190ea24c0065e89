// SPDX-License-Identifier: GPL-3.0-or-later
// VtuWriter and write_vtk_collection: a two-tet grid with point, cell and field data is written
// as ascii and as binary and parsed back.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/io/vtk_writer.hpp"
#include "support/temp_dir_test.hpp"
#include "support/vtk_files.hpp"

namespace substruct {

/// For gtest's messages (found by argument-dependent lookup, hence outside the unnamed namespace).
void PrintTo(VtkEncoding encoding, std::ostream* out) {
  *out << (encoding == VtkEncoding::ascii ? "ascii" : "binary");
}

namespace {

namespace fs = std::filesystem;

/// Two tets sharing the face 1 2 3, with a velocity (vector) and a temperature (scalar) per
/// point, a domain per tet and the time as field data. The values need all 17 digits.
struct TwoTets {
  Points points{5, 3};
  Tets tets{2, 4};
  Points velocity{5, 3};
  std::vector<double> temperature{293.15, 1.0 / 3, -2.5e-7, 0.1, 1e300};
  std::vector<std::int32_t> domain{0, 7};
  std::vector<double> time{0.1 + 0.2};

  TwoTets() {
    points << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1.0 / 3, 2.0 / 3, 1.0 / 7;
    tets << 0, 1, 2, 3, 1, 2, 3, 4;
    for (Index v = 0; v < 5; ++v)
      for (int d = 0; d < 3; ++d) velocity(v, d) = 0.1 * v - d / 3.0;
  }
  VtkData cell_data() const { return {{{"domain", 1, std::span(domain)}}, "domain", ""}; }
  VtkData point_data() const {
    return {{{"velocity", 3, flat_values(velocity)}, {"temperature", 1, std::span(temperature)}},
            "temperature",
            "velocity"};
  }
  std::vector<VtkArray> field_data() const { return {{"TimeValue", 1, std::span(time)}}; }
};

std::vector<double> as_doubles(std::span<const double> values) {
  return {values.begin(), values.end()};
}

class VtkWriterTest : public testing::TempDirTest,
                      public ::testing::WithParamInterface<VtkEncoding> {};

TEST_P(VtkWriterTest, ATwoTetGridReadsBackExactly) {
  const TwoTets g;
  const VtuWriter writer(g.tets, g.cell_data(), GetParam());
  const fs::path file = dir() / "two.vtu";
  writer.write(file, g.points, g.point_data(), g.field_data());
  EXPECT_EQ(files(), std::vector<std::string>{"two.vtu"});

  const testing::Vtu vtu = testing::read_vtu(file);
  EXPECT_EQ(vtu.points, 5);
  EXPECT_EQ(vtu.cells, 2);
  EXPECT_EQ(vtu.geometry.at("Points"), as_doubles(flat_values(g.points)));
  EXPECT_EQ(vtu.point.at("velocity"), as_doubles(flat_values(g.velocity)));
  EXPECT_EQ(vtu.point.at("temperature"), g.temperature);
  EXPECT_EQ(vtu.cell.at("domain"), (std::vector<double>{0, 7}));
  EXPECT_EQ(vtu.field.at("TimeValue"), g.time);
  EXPECT_EQ(vtu.topology.at("connectivity"), (std::vector<double>{0, 1, 2, 3, 1, 2, 3, 4}));
  EXPECT_EQ(vtu.topology.at("offsets"), (std::vector<double>{4, 8}));
  EXPECT_EQ(vtu.topology.at("types"), (std::vector<double>{10, 10}));  // VTK_TETRA

  // What ParaView needs besides the values: components, tuple counts of field data, the active
  // arrays, the format.
  const std::string text = read(file);
  const std::string format = GetParam() == VtkEncoding::ascii ? "ascii" : "binary";
  for (const std::string& expected :
       {std::string("<PointData Scalars=\"temperature\" Vectors=\"velocity\">"),
        std::string("<CellData Scalars=\"domain\">"),
        fmt::format("Name=\"velocity\" NumberOfComponents=\"3\" format=\"{}\">", format),
        fmt::format("Name=\"temperature\" NumberOfComponents=\"1\" format=\"{}\">", format),
        fmt::format("Name=\"TimeValue\" NumberOfComponents=\"1\" NumberOfTuples=\"1\" "
                    "format=\"{}\">",
                    format)})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
}

TEST_P(VtkWriterTest, TheStandaloneCheckerAcceptsASeries) {
  if (std::system("python3 -c 'import xml.etree.ElementTree' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3 is not available to run tests/cli/check_vtk_series.py";
  TwoTets g;
  const VtuWriter writer(g.tets, g.cell_data(), GetParam());
  std::vector<VtkTimeStep> steps;
  for (int k = 0; k < 3; ++k) {
    g.points(4, 0) += 0.25;
    g.time[0] = 0.5 * k;
    const std::string name = fmt::format("frames/two_{}.vtu", k);
    fs::create_directories(dir() / "frames");
    writer.write(dir() / name, g.points, g.point_data(), g.field_data());
    steps.push_back({g.time[0], name});
  }
  write_file_atomically(dir() / "two.pvd",
                        [&](std::ostream& out) { write_vtk_collection(out, steps); });
  const std::string command =
      fmt::format("python3 '{}/tests/cli/check_vtk_series.py' '{}' --frames 3",
                  SUBSTRUCT_SOURCE_DIR, (dir() / "two.pvd").string());
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

std::string encoding_name(const ::testing::TestParamInfo<VtkEncoding>& test) {
  return test.param == VtkEncoding::ascii ? "ascii" : "binary";
}

INSTANTIATE_TEST_SUITE_P(Encodings, VtkWriterTest,
                         ::testing::Values(VtkEncoding::ascii, VtkEncoding::binary), encoding_name);

class VtkCollection : public testing::TempDirTest {};

TEST_F(VtkCollection, ListsTheStepsInOrderWithTheirNamesEscaped) {
  const std::vector<VtkTimeStep> steps{{0, "run/run_000000.vtu"}, {0.25, "run/a&b <1>.vtu"}};
  write_file_atomically(dir() / "run.pvd",
                        [&](std::ostream& out) { write_vtk_collection(out, steps); });
  EXPECT_NE(read("run.pvd").find("file=\"run/a&amp;b &lt;1&gt;.vtu\""), std::string::npos);
  const std::vector<testing::DataSet> sets = testing::read_pvd(dir() / "run.pvd");
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[0].time, 0);
  EXPECT_EQ(sets[0].file, "run/run_000000.vtu");
  EXPECT_EQ(sets[1].time, 0.25);
  EXPECT_EQ(sets[1].file, "run/a&b <1>.vtu");
}

class VtkWriterErrors : public testing::TempDirTest {};

TEST_F(VtkWriterErrors, ArraysThatDoNotFitTheGridAreErrorsAndNoFileIsLeft) {
  const TwoTets g;
  const VtuWriter writer(g.tets, g.cell_data(), VtkEncoding::ascii);
  const std::vector<double> four{1, 2, 3, 4};  // one short of a value per point
  const VtkData short_data{{{"pressure", 1, std::span(four)}}, "", ""};
  std::string message =
      testing::error_message([&] { writer.write(dir() / "bad.vtu", g.points, short_data); });
  EXPECT_NE(message.find("'pressure' has 4 values, expected 1 × 5"), std::string::npos) << message;

  const Points four_points = g.points.topRows(4);  // the second tet uses point 4
  message = testing::error_message([&] { writer.write(dir() / "bad.vtu", four_points, {}); });
  EXPECT_NE(message.find("point 4"), std::string::npos) << message;

  const VtkData unknown_vectors{{{"temperature", 1, std::span(g.temperature)}}, "", "velocity"};
  message =
      testing::error_message([&] { writer.write(dir() / "bad.vtu", g.points, unknown_vectors); });
  EXPECT_NE(message.find("'velocity'"), std::string::npos) << message;
  EXPECT_EQ(files(), std::vector<std::string>{});

  const std::vector<std::int32_t> three_domains{0, 1, 2};
  message = testing::error_message([&] {
    VtuWriter(g.tets, {{{"domain", 1, std::span(three_domains)}}, "", ""}, VtkEncoding::ascii);
  });
  EXPECT_NE(message.find("'domain' has 3 values, expected 1 × 2"), std::string::npos) << message;
}

}  // namespace
}  // namespace substruct
