// SPDX-License-Identifier: GPL-3.0-or-later
// Open MPI singletons (processes run without mpirun that call SLEPc) side by side: each gets a
// session folder of its own, so that one finishing does not fail another's start, and none is
// left behind.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mpi_singleton.hpp"
#include "slepc_session.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

// Runs `body` in `count` forked processes at once (fork keeps this process free of MPI, which
// must not fork once started); returns how many exited with another code than 0.
int failures_of(int count, const std::function<int()>& body) {
  std::vector<pid_t> children;
  for (int i = 0; i < count; ++i) {
    const pid_t pid = fork();
    if (pid == 0) std::exit(body());  // exit, not _exit: MPI and the folder are finalised
    if (pid > 0) children.push_back(pid);
  }
  int failed = count - static_cast<int>(children.size());
  for (const pid_t pid : children) {
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  return failed;
}

// A fresh $TMPDIR for one test, removed after it.
class MpiSingleton : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("substruct-mpi-test-" + std::to_string(getpid()));
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    setenv("TMPDIR", folder_.c_str(), 1);
    unsetenv("OMPI_MCA_orte_tmpdir_base");
  }
  void TearDown() override {
    unsetenv("TMPDIR");
    fs::remove_all(folder_);
  }
  int entries() const {
    return static_cast<int>(std::distance(fs::directory_iterator(folder_), {}));
  }
  fs::path folder_;
};

TEST_F(MpiSingleton, ProcessesSideBySideAllStartAndLeaveNothing) {
  for (int round = 0; round < 4; ++round) {
    EXPECT_EQ(failures_of(6,
                          [] {
                            try {
                              slepc_plugin::ensure_slepc_initialized();
                            } catch (...) {
                              return 3;
                            }
                            return 0;
                          }),
              0)
        << "round " << round;
  }
  EXPECT_EQ(entries(), 0) << "session folders were left in " << folder_;
}

TEST_F(MpiSingleton, EachProcessHasItsOwnFolderUnderTmpdir) {
  const std::string tmpdir = folder_.string();
  EXPECT_EQ(failures_of(1,
                        [&] {
                          slepc_plugin::prepare_mpi_singleton();
                          const std::string made = slepc_plugin::mpi_singleton_session_folder();
                          const char* chosen = std::getenv("OMPI_MCA_orte_tmpdir_base");
                          if (made.empty() || chosen == nullptr || made != chosen) return 1;
                          if (fs::path(made).parent_path() != tmpdir) return 2;
                          return fs::is_directory(made) ? 0 : 3;
                        }),
            0);
  EXPECT_EQ(entries(), 0);  // removed at the child's exit
}

TEST_F(MpiSingleton, AUsersFolderOrALauncherIsLeftAlone) {
  EXPECT_EQ(failures_of(1,
                        [] {
                          setenv("OMPI_MCA_orte_tmpdir_base", "/var/tmp", 1);
                          slepc_plugin::prepare_mpi_singleton();
                          const std::string chosen = std::getenv("OMPI_MCA_orte_tmpdir_base");
                          return slepc_plugin::mpi_singleton_session_folder().empty() &&
                                         chosen == "/var/tmp"
                                     ? 0
                                     : 1;
                        }),
            0);
  EXPECT_EQ(failures_of(1,
                        [] {
                          setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
                          return slepc_plugin::prepare_mpi_singleton() == 0 &&
                                         std::getenv("OMPI_MCA_orte_tmpdir_base") == nullptr
                                     ? 0
                                     : 1;
                        }),
            0);
  EXPECT_EQ(entries(), 0);
}

}  // namespace
}  // namespace substruct
