// SPDX-License-Identifier: GPL-3.0-or-later
// check_output_target and remove_output_file: a writer replaces or removes regular files only.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "substruct/io/output_target.hpp"
#include "substruct/io/staged_file.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

class OutputTarget : public testing::TempDirTest {};

TEST_F(OutputTarget, AcceptsNothingOrARegularFile) {
  EXPECT_NO_THROW(check_output_target(dir() / "new.csv", "[csv] file"));
  EXPECT_NO_THROW(check_output_target(dir() / "not" / "yet" / "new.csv", "[csv] file"));
  EXPECT_NO_THROW(check_output_target(write("old.csv", "a"), "[csv] file"));
}

TEST_F(OutputTarget, RefusesADeviceAFifoAndAFolder) {
  EXPECT_EQ(testing::error_message([] { check_output_target("/dev/null", "[csv] file"); }),
            "cannot write [csv] file '/dev/null': it is a character device (only a regular file "
            "is replaced)");
  const fs::path fifo = dir() / "nul";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  EXPECT_NE(testing::error_message([&] { check_output_target(fifo, "x"); }).find("it is a FIFO"),
            std::string::npos);
  fs::create_directory(dir() / "out.pvd");
  EXPECT_NE(testing::error_message([&] {
              check_output_target(dir() / "out.pvd", "x");
            }).find("it is a directory"),
            std::string::npos);
  const fs::path file = write("a-file", "");
  EXPECT_EQ(testing::error_message([&] { check_output_target(file / "x" / "y.pvd", "out"); }),
            "cannot write out '" + (file / "x" / "y.pvd").string() + "': Not a directory ('" +
                file.string() + "' is a file)");
}

TEST_F(OutputTarget, AStagedFileNeverReplacesAFifo) {
  const fs::path fifo = dir() / "nul";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  EXPECT_NE(testing::error_message([&] { write_file_atomically(fifo, "text"); }).find("a FIFO"),
            std::string::npos);
  EXPECT_TRUE(fs::is_fifo(fifo));
  long entries = 0;  // the FIFO, and no temporary file beside it
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir())) ++entries;
  EXPECT_EQ(entries, 1);
}

TEST_F(OutputTarget, RemovesOnlyRegularFiles) {
  const fs::path file = write("r.csv", "a");
  EXPECT_TRUE(remove_output_file(file));
  EXPECT_FALSE(fs::exists(file));
  const fs::path fifo = dir() / "nul";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(remove_output_file(fifo));
  EXPECT_TRUE(fs::is_fifo(fifo));
  fs::create_symlink("/dev/null", dir() / "null-link");
  EXPECT_FALSE(remove_output_file(dir() / "null-link"));
  EXPECT_TRUE(fs::is_symlink(dir() / "null-link"));
  fs::create_directory(dir() / "d");
  EXPECT_FALSE(remove_output_file(dir() / "d"));
  EXPECT_FALSE(remove_output_file(dir() / "nothing"));
}

}  // namespace
}  // namespace substruct
