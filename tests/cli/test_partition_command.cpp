// SPDX-License-Identifier: GPL-3.0-or-later
// `substruct partition SCENE --method cpca|metis --domains N`: the file it writes loads as the
// scene's domains, cpca puts more domains in the soft half of a two-material beam, metis writes
// what auto:N gives.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/wait.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/domains/element_partition.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/reduction/cpca_partition.hpp"
#include "support/bimaterial_box_beam.hpp"
#include "support/temp_dir_test.hpp"

using namespace substruct;
namespace fs = std::filesystem;

namespace {

class PartitionCommand : public substruct::testing::TempDirTest {
 protected:
  void SetUp() override {
    // Clamped at x = 0, its half x > 2 twenty times softer.
    mesh_ = substruct::testing::bimaterial_box_beam(20);
    write_veg(dir() / "bar.veg", mesh_);
    std::string bou;
    for (Index v : mesh_.vertex_sets.at("xmin")) bou += fmt::format("{}\n", v + 1);
    write("bar.bou", bou);
    write("bar.ini",
          "[scene]\nmesh = bar.veg\nfixed = bar.bou\n[material]\nmodel = linear\n"
          "rayleigh_stiffness = 0.01\n[run]\ndt = 0.01\n");
  }
  /// Runs `substruct partition ARGS`, its output in dir()/log; returns the exit status.
  int partition(const std::string& args) const {
    const std::string command =
        fmt::format("'{}' partition {} > '{}' 2>&1", SUBSTRUCT_CLI, args, (dir() / "log").string());
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string log() const { return read("log"); }
  TetMesh mesh_;
};

TEST_F(PartitionCommand, CpcaWritesFaceConnectedDomainsCrowdedInTheSoftHalf) {
  const fs::path scene = dir() / "bar.ini";
  ASSERT_EQ(partition(fmt::format("'{}' --method cpca --domains 6", scene.string())), 0) << log();
  const fs::path file = dir() / "bar.cpca-6.domains";
  ASSERT_TRUE(fs::exists(file)) << log();
  EXPECT_EQ(read("bar.cpca-6.domains").rfind("# substruct partition --method cpca", 0), 0u);
  for (const char* line : {"cpca       6 clusters of 6 components", "interface  ",
                           "use it     substruct run", "--scene.domains=bar.cpca-6.domains"})
    EXPECT_NE(log().find(line), std::string::npos) << line << "\n" << log();

  const ElementPartition p = make_element_partition(mesh_, "bar.cpca-6.domains", dir());
  EXPECT_GE(p.num_domains, 4);
  int soft = 0;
  std::vector<int> soft_tets(p.num_domains, 0), tets(p.num_domains, 0);
  for (Index e = 0; e < mesh_.num_elements(); ++e) {
    ++tets[p.domain_of_element[e]];
    soft_tets[p.domain_of_element[e]] += mesh_.element_material[e];
  }
  for (int d = 0; d < p.num_domains; ++d) soft += 2 * soft_tets[d] > tets[d];
  EXPECT_GT(soft, p.num_domains - soft) << log();
  // Every domain face-connected: splitting into face-connected pieces changes nothing.
  EXPECT_EQ(split_into_face_connected_domains(mesh_, p.domain_of_element, 1).domain_of_element,
            p.domain_of_element);

  // The same again, bit for bit, to a chosen file.
  ASSERT_EQ(partition(fmt::format("'{}' --method cpca --domains 6 --out '{}'", scene.string(),
                                  (dir() / "again.txt").string())),
            0)
      << log();
  EXPECT_EQ(read("again.txt"), read("bar.cpca-6.domains"));
}

TEST_F(PartitionCommand, MetisWritesWhatAutoGives) {
  ASSERT_EQ(partition(fmt::format("'{}' --method=metis --domains=5", (dir() / "bar.ini").string())),
            0)
      << log();
  const ElementPartition written = make_element_partition(mesh_, "bar.metis-5.domains", dir());
  const ElementPartition automatic = make_element_partition(mesh_, "auto:5", dir());
  EXPECT_EQ(written.domain_of_element, automatic.domain_of_element);
  EXPECT_EQ(written.num_domains, 5);
}

TEST_F(PartitionCommand, ExplainsBadArguments) {
  const std::string scene = (dir() / "bar.ini").string();
  EXPECT_EQ(partition(fmt::format("'{}' --domains 3", scene)), 1);
  EXPECT_NE(log().find("which method?"), std::string::npos) << log();
  EXPECT_EQ(partition(fmt::format("'{}' --method kmeans --domains 3", scene)), 1);
  EXPECT_NE(log().find("--method is cpca or metis"), std::string::npos) << log();
  EXPECT_EQ(partition(fmt::format("'{}' --method cpca --domains 0", scene)), 1);
  EXPECT_NE(log().find("--domains expects a whole number"), std::string::npos) << log();
  EXPECT_EQ(partition(fmt::format("'{}' --method cpca --domains 100000", scene)), 1);
  EXPECT_NE(log().find("cannot split"), std::string::npos) << log();
  EXPECT_EQ(partition("--help"), 0);
  EXPECT_NE(log().find("usage: substruct partition"), std::string::npos) << log();
}

}  // namespace
