// SPDX-License-Identifier: GPL-3.0-or-later
// The csv exporter plugin, loaded through the plugin host: the file it writes is parsed back.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/io/exporter.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/scene.hpp"
#include "support/temp_dir_test.hpp"

using namespace substruct;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> items;
  std::string item;
  std::istringstream in(line);
  while (std::getline(in, item, separator)) items.push_back(item);
  return items;
}

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

Points positions_at(const Scene& scene, long k) {
  Points x = scene.mesh.vertices;
  for (Index v = 0; v < x.rows(); ++v)
    for (int d = 0; d < 3; ++d) x(v, d) += std::sin(0.9 * v + d + 0.37 * double(k)) / 11;
  return x;
}

Energies energies_at(long k) {
  return {0.1 * double(k) / 3, 2.0 / (k + 7), -9.81 * k / 13};
}

class CsvExporterTest : public substruct::testing::TempDirTest {
 protected:
  void SetUp() override {
    scene_.mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
    scene_.tracked_vertices = {5, 0};
  }

  std::unique_ptr<Exporter> make(const std::vector<Setting>& settings) {
    std::vector<Setting> all = {{"run.exporters", "csv", "test"}};
    all.insert(all.end(), settings.begin(), settings.end());
    configs_.push_back(std::make_unique<Config>(Config::from_settings(all, dir(), host_)));
    return host_.create<Exporter>("csv", PluginKind::exporter, PluginContext{*configs_.back()});
  }

  void write_frames(Exporter& exporter, const std::vector<long>& steps) {
    for (long k : steps) {
      const Points x = positions_at(scene_, k);
      exporter.write(ExportFrame{k, 0.01 * double(k), x, x, energies_at(k)});
    }
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
  std::vector<std::unique_ptr<Config>> configs_;
  Scene scene_;
};

TEST_F(CsvExporterTest, WritesEnergiesAndTrackedVerticesThatReadBackExactly) {
  auto exporter = make({});
  const fs::path csv = dir() / "out" / "box.csv";
  exporter->begin(ExportSetup{scene_, "full", dir() / "out" / "box.pvd", 0.01});
  write_frames(*exporter, {0, 1, 2, 3});
  EXPECT_FALSE(fs::exists(csv));  // published only in finish()
  EXPECT_TRUE(exporter->outputs().empty());
  exporter->finish();
  EXPECT_EQ(files(), std::vector<std::string>{"out/box.csv"});
  EXPECT_EQ(exporter->outputs(), std::vector<fs::path>{csv});

  const std::vector<std::string> lines = lines_of(csv);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "step,time,kinetic,elastic,gravity,total,v5_x,v5_y,v5_z,v0_x,v0_y,v0_z");
  for (long k = 0; k < 4; ++k) {
    const std::vector<std::string> cells = split(lines[static_cast<std::size_t>(k + 1)], ',');
    ASSERT_EQ(cells.size(), 12u);
    EXPECT_EQ(std::stol(cells[0]), k);
    EXPECT_EQ(std::strtod(cells[1].c_str(), nullptr), 0.01 * double(k));
    const Energies e = energies_at(k);
    EXPECT_EQ(std::strtod(cells[2].c_str(), nullptr), e.kinetic);
    EXPECT_EQ(std::strtod(cells[3].c_str(), nullptr), e.elastic);
    EXPECT_EQ(std::strtod(cells[4].c_str(), nullptr), e.gravity);
    EXPECT_EQ(std::strtod(cells[5].c_str(), nullptr), e.total());
    const Points x = positions_at(scene_, k);
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(std::strtod(cells[static_cast<std::size_t>(6 + d)].c_str(), nullptr), x(5, d));
      EXPECT_EQ(std::strtod(cells[static_cast<std::size_t>(9 + d)].c_str(), nullptr), x(0, d));
    }
  }
}

TEST_F(CsvExporterTest, FileOptionIsRelativeToTheOutputFolderAndEveryThins) {
  auto exporter = make({{"csv.file", "energy/trace.csv", "test"}, {"csv.every", "3", "test"}});
  exporter->begin(ExportSetup{scene_, "full", dir() / "out" / "box.pvd", 0.01});
  write_frames(*exporter, {0, 1, 2, 3, 4, 5, 6});
  exporter->finish();
  EXPECT_EQ(files(), std::vector<std::string>{"out/energy/trace.csv"});
  const std::vector<std::string> lines = lines_of(dir() / "out" / "energy" / "trace.csv");
  ASSERT_EQ(lines.size(), 4u);  // header and steps 0, 3, 6
  EXPECT_EQ(split(lines[1], ',')[0], "0");
  EXPECT_EQ(split(lines[2], ',')[0], "3");
  EXPECT_EQ(split(lines[3], ',')[0], "6");

  auto absolute = make({{"csv.file", (dir() / "elsewhere.csv").string(), "test"}});
  absolute->begin(ExportSetup{scene_, "full", dir() / "out" / "box.pvd", 0.01});
  write_frames(*absolute, {0});
  absolute->finish();
  EXPECT_EQ(lines_of(dir() / "elsewhere.csv").size(), 2u);
}

TEST_F(CsvExporterTest, AbortLeavesNothingAndTemporaryFilesNeverRemain) {
  auto exporter = make({});
  exporter->begin(ExportSetup{scene_, "full", dir() / "box.pvd", 0.01});
  write_frames(*exporter, {0, 1});
  // Only the temporary file beside the target (box.csv.<pid>.<n>.tmp) exists while writing.
  const std::vector<std::string> writing = files();
  ASSERT_EQ(writing.size(), 1u);
  EXPECT_TRUE(writing[0].starts_with("box.csv.") && writing[0].ends_with(".tmp")) << writing[0];
  exporter->abort();
  EXPECT_EQ(files(), std::vector<std::string>{});

  auto finished = make({});
  finished->begin(ExportSetup{scene_, "full", dir() / "box.pvd", 0.01});
  write_frames(*finished, {0});
  finished->finish();
  EXPECT_EQ(files(), std::vector<std::string>{"box.csv"});
  finished->abort();  // the run failed after the exporters finished
  EXPECT_EQ(files(), std::vector<std::string>{});
}

TEST_F(CsvExporterTest, RejectsTrackedVerticesOutsideTheMesh) {
  scene_.tracked_vertices = {12};  // the box has vertices 0…11
  auto exporter = make({});
  EXPECT_THROW(exporter->begin(ExportSetup{scene_, "full", dir() / "box.pvd", 0.01}), Error);
  EXPECT_THROW(make({{"csv.every", "0", "test"}}), Error);
}

}  // namespace
