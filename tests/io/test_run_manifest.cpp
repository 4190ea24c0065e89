// SPDX-License-Identifier: GPL-3.0-or-later
// The run manifest: written last over the files it lists with their sizes, it is the mark of a
// complete set; check_run_manifest() names every listed file that is missing or of another size.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/io/run_manifest.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

class RunManifestTest : public testing::TempDirTest {
 protected:
  fs::path file(const std::string& name, const std::string& content) {
    const fs::path path = dir() / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << content;
    return path;
  }
};

TEST_F(RunManifestTest, ListsTheFilesWithTheirSizesAndChecksClean) {
  const fs::path output = dir() / "bar.pvd";
  const std::vector<fs::path> files{file("bar/bar_000000.vtu", "frame 0"), file("bar.pvd", "pvd"),
                                    file("bar.csv", "step,time\n")};
  const fs::path manifest = write_run_manifest(output, files, {{"scene", "bar"}});
  EXPECT_EQ(manifest, dir() / "bar.manifest");
  std::ifstream in(manifest);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text,
            "# substruct run manifest 1\n# scene bar\n7 bar/bar_000000.vtu\n3 bar.pvd\n10 "
            "bar.csv\n");
  EXPECT_TRUE(check_run_manifest(manifest).empty());
}

TEST_F(RunManifestTest, NamesMissingAndResizedFiles) {
  const fs::path output = dir() / "bar.pvd";
  const fs::path frame = file("bar/bar_000000.vtu", "frame 0"), csv = file("bar.csv", "a,b\n");
  const fs::path manifest = write_run_manifest(output, {frame, csv}, {});
  fs::remove(frame);
  std::ofstream(csv) << "a,b\n1,2\n";  // another run's file of the same name
  const std::vector<std::string> problems = check_run_manifest(manifest);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("bar/bar_000000.vtu: listed in"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("bar.csv: 8 bytes, the manifest says 4"), std::string::npos)
      << problems[1];
}

TEST_F(RunManifestTest, WithdrawingRemovesIt) {
  const fs::path output = dir() / "bar.pvd";
  const fs::path manifest = write_run_manifest(output, {file("bar.csv", "x")}, {});
  ASSERT_TRUE(fs::exists(manifest));
  withdraw_run_manifest(output);
  EXPECT_FALSE(fs::exists(manifest));
  EXPECT_NO_THROW(withdraw_run_manifest(output)) << "none there: nothing to do";
}

TEST_F(RunManifestTest, AMalformedOrForeignFileIsReported) {
  EXPECT_NE(check_run_manifest(file("a.manifest", "hello\n"))[0].find("not a substruct run"),
            std::string::npos);
  const auto problems = check_run_manifest(file("b.manifest", "# substruct run manifest 1\nx\n"));
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems[0].find("b.manifest:2: expected 'SIZE PATH'"), std::string::npos)
      << problems[0];
  EXPECT_NE(check_run_manifest(dir() / "none.manifest")[0].find("cannot be read"),
            std::string::npos);
}

}  // namespace
}  // namespace substruct
