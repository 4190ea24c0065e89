// SPDX-License-Identifier: GPL-3.0-or-later
// The vtk exporter plugin, loaded through the plugin host: the files it writes are parsed back.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/domains/decomposition.hpp"
#include "substruct/io/exporter.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/scene.hpp"
#include "support/temp_dir_test.hpp"
#include "support/vtk_files.hpp"

using namespace substruct;
using substruct::testing::DataSet;
using substruct::testing::read_pvd;
using substruct::testing::read_vtu;
using substruct::testing::Vtu;
namespace fs = std::filesystem;

namespace {

/// Positions and velocities of frame k: rest shape plus an irregular motion whose values need
/// all 17 digits.
Points positions_at(const Scene& scene, long k) {
  Points x = scene.mesh.vertices;
  for (Index v = 0; v < x.rows(); ++v)
    for (int d = 0; d < 3; ++d) x(v, d) += 1e-3 * std::sin(0.7 * v + 1.3 * d + 0.1 * double(k)) / 3;
  return x;
}
Points velocities_at(const Scene& scene, long k) {
  Points u = scene.mesh.vertices;
  for (Index v = 0; v < u.rows(); ++v)
    for (int d = 0; d < 3; ++d) u(v, d) = std::cos(0.3 * v - d + double(k)) / 7;
  return u;
}

class VtkExporterTest : public substruct::testing::TempDirTest {
 protected:
  void SetUp() override {
    // A 2 × 1 × 1 box of 12 tets, split into its two cells as domains 0 and 1.
    scene_.mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
    scene_.name = "box";
    ElementPartition partition;
    partition.num_domains = 2;
    for (Index e = 0; e < scene_.mesh.num_elements(); ++e)
      partition.domain_of_element.push_back(e < 6 ? 0 : 1);
    scene_.decomposition = decompose(scene_.mesh, partition);
  }

  std::unique_ptr<Exporter> make(const std::vector<Setting>& settings) {
    std::vector<Setting> all = {{"run.exporters", "vtk", "test"}};
    all.insert(all.end(), settings.begin(), settings.end());
    configs_.push_back(std::make_unique<Config>(Config::from_settings(all, dir(), host_)));
    return host_.create<Exporter>("vtk", PluginKind::exporter, PluginContext{*configs_.back()});
  }

  void write_frames(Exporter& exporter, const std::vector<long>& steps) {
    for (long k : steps) {
      const Points x = positions_at(scene_, k);
      const Points v = velocities_at(scene_, k);
      exporter.write(ExportFrame{k, 0.01 * double(k), x, v, Energies{}});
    }
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  std::vector<std::unique_ptr<Config>> configs_;
  Scene scene_;
};

class VtkFormat : public VtkExporterTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(VtkFormat, FramesRoundTripAndThePvdAppearsOnlyInFinish) {
  auto exporter = make({{"vtk.format", GetParam(), "test"}});
  const fs::path pvd = dir() / "out" / "box.pvd";
  exporter->begin(ExportSetup{scene_, "full", pvd, 0.01});
  write_frames(*exporter, {0, 5, 10});
  EXPECT_FALSE(fs::exists(pvd));
  EXPECT_FALSE(fs::exists(dir() / "out" / "box"));
  EXPECT_TRUE(exporter->outputs().empty());
  exporter->finish();

  EXPECT_EQ(files(),
            (std::vector<std::string>{"out/box.pvd", "out/box/box_000000.vtu",
                                      "out/box/box_000005.vtu", "out/box/box_000010.vtu"}));
  EXPECT_EQ(exporter->outputs(), std::vector<fs::path>{pvd});
  const std::vector<DataSet> sets = read_pvd(pvd);
  ASSERT_EQ(sets.size(), 3u);
  const long steps[] = {0, 5, 10};
  for (std::size_t i = 0; i < 3; ++i) {
    const long k = steps[i];
    EXPECT_EQ(sets[i].time, 0.01 * double(k));
    EXPECT_EQ(sets[i].file, fmt::format("box/box_{:06d}.vtu", k));
    const Vtu vtu = read_vtu(dir() / "out" / sets[i].file);
    EXPECT_EQ(vtu.points, 12);
    EXPECT_EQ(vtu.cells, 12);
    EXPECT_EQ(vtu.field.at("TimeValue"), std::vector<double>{0.01 * double(k)});
    EXPECT_EQ(vtu.field.at("Step"), std::vector<double>{double(k)});

    // Exact round trip of positions, displacements and velocities (binary and ASCII).
    const Points x = positions_at(scene_, k);
    const Points u = x - scene_.mesh.vertices;
    const Points v = velocities_at(scene_, k);
    const auto& points = vtu.geometry.at("Points");
    const auto& displacement = vtu.point.at("displacement");
    const auto& velocity = vtu.point.at("velocity");
    ASSERT_EQ(points.size(), 36u);
    ASSERT_EQ(displacement.size(), 36u);
    ASSERT_EQ(velocity.size(), 36u);
    for (std::size_t j = 0; j < 36; ++j) {
      EXPECT_EQ(points[j], x.data()[j]) << j;
      EXPECT_EQ(displacement[j], u.data()[j]) << j;
      EXPECT_EQ(velocity[j], v.data()[j]) << j;
    }
    EXPECT_NE(displacement[1], 0.0);  // the frames do move

    // Cells: the mesh's tets, as VTK_TETRA (10), with their domain and material.
    const auto& connectivity = vtu.topology.at("connectivity");
    const auto& offsets = vtu.topology.at("offsets");
    const auto& types = vtu.topology.at("types");
    ASSERT_EQ(connectivity.size(), 48u);
    ASSERT_EQ(offsets.size(), 12u);
    ASSERT_EQ(types.size(), 12u);
    for (Index e = 0; e < 12; ++e) {
      for (int c = 0; c < 4; ++c)
        EXPECT_EQ(connectivity[static_cast<std::size_t>(4 * e + c)], scene_.mesh.tets(e, c));
      EXPECT_EQ(offsets[static_cast<std::size_t>(e)], 4 * (e + 1));
      EXPECT_EQ(types[static_cast<std::size_t>(e)], 10);
      EXPECT_EQ(vtu.cell.at("domain")[static_cast<std::size_t>(e)], e < 6 ? 0 : 1);
      EXPECT_EQ(vtu.cell.at("material")[static_cast<std::size_t>(e)], 0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, VtkFormat, ::testing::Values("binary", "ascii"));

TEST_F(VtkExporterTest, BinaryIsTheDefaultAndWritesBase64) {
  auto exporter = make({});
  exporter->begin(ExportSetup{scene_, "full", dir() / "box.pvd", 0.01});
  write_frames(*exporter, {1});
  exporter->finish();
  const std::string text = read("box/box_000001.vtu");
  EXPECT_NE(text.find("format=\"binary\""), std::string::npos);
  EXPECT_EQ(text.find("format=\"ascii\""), std::string::npos);
  // 36 Float64 values = 288 bytes: the UInt32 header 288 = 0x120 starts the stream "IAEAA".
  EXPECT_NE(text.find("Name=\"displacement\" NumberOfComponents=\"3\" format=\"binary\">IAEAA"),
            std::string::npos);
}

TEST_F(VtkExporterTest, EveryKthFrameIsWritten) {
  auto exporter = make({{"vtk.every", "2", "test"}});
  exporter->begin(ExportSetup{scene_, "full", dir() / "box.pvd", 0.01});
  write_frames(*exporter, {0, 1, 2, 3, 4});
  exporter->finish();
  const std::vector<DataSet> sets = read_pvd(dir() / "box.pvd");
  ASSERT_EQ(sets.size(), 3u);
  EXPECT_EQ(sets[0].file, "box/box_000000.vtu");
  EXPECT_EQ(sets[1].file, "box/box_000002.vtu");
  EXPECT_EQ(sets[2].file, "box/box_000004.vtu");
  EXPECT_EQ(sets[2].time, 0.04);
}

TEST_F(VtkExporterTest, AbortLeavesNothing) {
  auto exporter = make({});
  exporter->begin(ExportSetup{scene_, "full", dir() / "out" / "box.pvd", 0.01});
  write_frames(*exporter, {0, 1, 2});
  EXPECT_FALSE(files().empty());  // frames are being staged
  exporter->abort();
  EXPECT_EQ(files(), std::vector<std::string>{});
  EXPECT_FALSE(fs::exists(dir() / "out" / "box.tmp"));

  // After finish(), a failing run still removes what it published.
  auto second = make({});
  second->begin(ExportSetup{scene_, "full", dir() / "out" / "box.pvd", 0.01});
  write_frames(*second, {0, 1});
  second->finish();
  EXPECT_EQ(files().size(), 3u);
  second->abort();
  EXPECT_EQ(files(), std::vector<std::string>{});
  EXPECT_TRUE(second->outputs().empty());
}

TEST_F(VtkExporterTest, ANewRunReplacesThePreviousSeriesOnlyWhenItFinishes) {
  auto first = make({});
  first->begin(ExportSetup{scene_, "full", dir() / "box.pvd", 0.01});
  write_frames(*first, {0, 1, 2});
  first->finish();
  write("box/notes.txt", "not a frame\n");

  auto second = make({{"vtk.format", "ascii", "test"}});
  second->begin(ExportSetup{scene_, "full", dir() / "box.pvd", 0.01});
  write_frames(*second, {7, 9});
  // Until the new series is finished, the previous one stays complete and consistent.
  EXPECT_EQ(read_pvd(dir() / "box.pvd").size(), 3u);
  for (const DataSet& s : read_pvd(dir() / "box.pvd")) EXPECT_TRUE(fs::exists(dir() / s.file));
  second->finish();

  const std::vector<DataSet> sets = read_pvd(dir() / "box.pvd");
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[0].file, "box/box_000007.vtu");
  EXPECT_EQ(sets[1].file, "box/box_000009.vtu");
  EXPECT_EQ(files(), (std::vector<std::string>{"box.pvd", "box/box_000007.vtu",
                                               "box/box_000009.vtu", "box/notes.txt"}));
}

TEST_F(VtkExporterTest, StagingLeftByAnInterruptedRunIsCleanedUp) {
  write("box.tmp/box_000003.vtu", "half a frame");
  auto exporter = make({});
  exporter->begin(ExportSetup{scene_, "full", dir() / "box.pvd", 0.01});
  write_frames(*exporter, {0});
  exporter->finish();
  EXPECT_EQ(files(), (std::vector<std::string>{"box.pvd", "box/box_000000.vtu"}));
}

TEST_F(VtkExporterTest, RejectsBadOptionsAndBadFrames) {
  EXPECT_THROW(make({{"vtk.format", "hdf5", "test"}}), Error);
  EXPECT_THROW(make({{"vtk.every", "0", "test"}}), Error);
  auto exporter = make({});
  exporter->begin(ExportSetup{scene_, "full", dir() / "box.pvd", 0.01});
  const Points too_few = Points::Zero(3, 3);
  EXPECT_THROW(exporter->write(ExportFrame{0, 0.0, too_few, too_few, Energies{}}), Error);
  exporter->abort();
  EXPECT_EQ(files(), std::vector<std::string>{});
}

TEST_F(VtkExporterTest, TheSeriesPassesTheStandaloneChecker) {
  if (std::system("python3 -c 'import xml.etree.ElementTree' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3 is not available to run tests/cli/check_vtk_series.py";
  const std::string checker = std::string(SUBSTRUCT_SOURCE_DIR) + "/tests/cli/check_vtk_series.py";
  for (const char* format : {"binary", "ascii"}) {
    auto exporter = make({{"vtk.format", format, "test"}});
    const fs::path pvd = dir() / format / "box.pvd";
    exporter->begin(ExportSetup{scene_, "full", pvd, 0.01});
    write_frames(*exporter, {0, 1, 2, 3});
    exporter->finish();
    const std::string command = fmt::format("python3 '{}' '{}' --frames 4", checker, pvd.string());
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
  }
  // A frame whose point count disagrees with its data is caught.
  const fs::path broken = dir() / "binary" / "box" / "box_000002.vtu";
  std::string text = read(broken);
  text.replace(text.find("NumberOfPoints=\"12\""), 19, "NumberOfPoints=\"13\"");
  write(broken, text);
  const std::string command = fmt::format("python3 '{}' '{}' > /dev/null 2>&1", checker,
                                          (dir() / "binary" / "box.pvd").string());
  EXPECT_NE(std::system(command.c_str()), 0);
}

}  // namespace
