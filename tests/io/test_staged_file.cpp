// SPDX-License-Identifier: GPL-3.0-or-later
// StagedFile and write_file_atomically: a file appears complete or not at all, and nothing of a
// failed write remains.
#include <filesystem>
#include <latch>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/io/staged_file.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

class StagedFileTest : public testing::TempDirTest {};

TEST_F(StagedFileTest, CommitPublishesTheContentAndRemovesTheTemporaryFile) {
  const fs::path target = dir() / "out.txt";
  {
    StagedFile file(target);
    file.stream() << "first line\n" << 42 << '\n';
    EXPECT_EQ(file.target(), target);
    EXPECT_EQ(file.temporary().parent_path(), dir());
    const std::string name = file.temporary().filename().string();
    EXPECT_TRUE(name.starts_with("out.txt.") && name.ends_with(".tmp")) << name;
    EXPECT_FALSE(fs::exists(target));  // nothing is published before commit()
    file.commit();
  }
  EXPECT_EQ(read(target), "first line\n42\n");
  EXPECT_EQ(files(), std::vector<std::string>{"out.txt"});

  write_file_atomically(target, "replaced\n");
  EXPECT_EQ(read(target), "replaced\n");
  EXPECT_EQ(files(), std::vector<std::string>{"out.txt"});
}

TEST_F(StagedFileTest, ADeferredFileIsPublishedTheSameAndTheFileSystemSyncsOnRequest) {
  const fs::path target = dir() / "frame.vtu";
  write_file_atomically(
      target, [](std::ostream& out) { out << "frame\n"; }, Durability::deferred);
  EXPECT_EQ(read(target), "frame\n");
  EXPECT_EQ(files(), std::vector<std::string>{"frame.vtu"});
  EXPECT_NO_THROW(sync_file_system(dir()));
  EXPECT_NO_THROW(sync_file_system(target));
  const std::string m = testing::error_message([&] { sync_file_system(dir() / "no-such-folder"); });
  EXPECT_NE(m.find("no-such-folder"), std::string::npos) << m;
  EXPECT_NE(m.find("No such file"), std::string::npos) << m;
}

TEST_F(StagedFileTest, ThePreviousFileStaysUntilCommit) {
  const fs::path target = write("model.bin", "old");
  StagedFile file(target);
  file.stream() << "new";
  file.close();
  EXPECT_EQ(read(target), "old");
  file.commit();
  EXPECT_EQ(read(target), "new");
}

TEST_F(StagedFileTest, AnExceptionBeforeCommitLeavesNoTargetAndNoTemporaryFile) {
  const auto failing_writer = [](std::ostream& out) {
    out << "half of it";
    throw std::runtime_error("the data could not be computed");
  };
  EXPECT_THROW(write_file_atomically(dir() / "new.txt", failing_writer), std::runtime_error);
  EXPECT_EQ(files(), std::vector<std::string>{});

  // A file that was there is left as it was.
  write("kept.txt", "complete\n");
  EXPECT_THROW(write_file_atomically(dir() / "kept.txt", failing_writer), std::runtime_error);
  EXPECT_EQ(files(), std::vector<std::string>{"kept.txt"});
  EXPECT_EQ(read("kept.txt"), "complete\n");
}

TEST_F(StagedFileTest, AFailedWriteIsAnErrorAndPublishesNothing) {
  StagedFile file(dir() / "full.txt");
  file.stream() << "some of it";
  file.stream().setstate(std::ios::badbit);  // what a full disk does to the stream
  const std::string message = testing::error_message([&] { file.commit(); });
  EXPECT_NE(message.find("full.txt"), std::string::npos) << message;
  EXPECT_EQ(files(), std::vector<std::string>{});
}

TEST_F(StagedFileTest, AFolderRemovedBeforeCommitIsAnErrorNamingTheFile) {
  fs::create_directories(dir() / "sub");
  const fs::path target = dir() / "sub" / "a.txt";
  StagedFile file(target);
  file.stream() << "content";
  fs::remove_all(dir() / "sub");
  const std::string message = testing::error_message([&] { file.commit(); });
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(target));
  EXPECT_EQ(files(), std::vector<std::string>{});
}

TEST_F(StagedFileTest, ADirectoryInTheWayIsAnErrorAndLeavesNoPartialFile) {
  write("a.txt/inside", "a folder where the file should go");
  const fs::path target = dir() / "a.txt";
  const std::string message =
      testing::error_message([&] { write_file_atomically(target, "content"); });
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_TRUE(fs::is_directory(target));
  EXPECT_EQ(files(), std::vector<std::string>{"a.txt/inside"});
}

TEST_F(StagedFileTest, AMissingFolderIsAnErrorNamingTheFile) {
  const fs::path target = dir() / "no" / "such" / "folder.txt";
  const std::string message = testing::error_message([&] { StagedFile file(target); });
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_EQ(files(), std::vector<std::string>{});
}

TEST_F(StagedFileTest, TemporaryFilesOfKilledWritersGoWhenTheirFolderIsFirstWritten) {
  // A process id above any the system hands out (pid_max ≤ 2^22), and our own (alive).
  const fs::path dead = dir() / "out.csv.99999999.3.tmp";
  const fs::path alive = dir() / fmt::format("out.csv.{}.77.tmp", ::getpid());
  const fs::path other = dir() / "other.csv.99999999.1.tmp";
  const fs::path unrelated = dir() / "notes.tmp";
  for (const fs::path& p : {dead, alive, other, unrelated}) std::ofstream(p) << "partial";
  write_file_atomically(dir() / "out.csv", "whole\n");
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(other)) << "a killed writer's file of another target goes too";
  EXPECT_TRUE(fs::exists(alive)) << "a running writer's file stays";
  EXPECT_TRUE(fs::exists(unrelated)) << "a file not named as a temporary stays";
  EXPECT_EQ(read(dir() / "out.csv"), "whole\n");
  // The folder is listed once per process: a later stale file stays until another process
  // writes there (a cache folder of 10⁵ models is not listed once per model).
  std::ofstream(dead) << "partial";
  write_file_atomically(dir() / "out.csv", "again\n");
  EXPECT_TRUE(fs::exists(dead));
}

TEST_F(StagedFileTest, WritersOfOneTargetUseTheirOwnTemporaryFiles) {
  const StagedFile a(dir() / "same.txt");
  const StagedFile b(dir() / "same.txt");
  EXPECT_NE(a.temporary(), b.temporary());
  EXPECT_EQ(a.temporary().parent_path(), b.temporary().parent_path());
}

TEST_F(StagedFileTest, TwoThreadsWritingOneTargetBothSucceedAndOneCompleteContentWins) {
  const fs::path target = dir() / "shared.txt";
  // Large enough that the two writes overlap; each is one letter repeated.
  const std::string a(1 << 20, 'a');
  const std::string b(1 << 20, 'b');
  for (int round = 0; round < 20; ++round) {
    std::latch start(2);
    std::string errors[2];
    const auto writer = [&](const std::string& text, std::string& error) {
      start.arrive_and_wait();
      error = testing::error_message([&] { write_file_atomically(target, text); });
    };
    std::thread first(writer, std::cref(a), std::ref(errors[0]));
    std::thread second(writer, std::cref(b), std::ref(errors[1]));
    first.join();
    second.join();
    EXPECT_EQ(errors[0], "(no error)");
    EXPECT_EQ(errors[1], "(no error)");
    const std::string content = read(target);
    EXPECT_TRUE(content == a || content == b)
        << "round " << round << ": " << content.size() << " bytes, not one complete write";
    EXPECT_EQ(files(), std::vector<std::string>{"shared.txt"});
  }
}

}  // namespace
}  // namespace substruct
