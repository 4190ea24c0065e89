// SPDX-License-Identifier: GPL-3.0-or-later
// Where a scene's models are cached by default: beside a scene of the user's, in the user's cache
// folder for an installed program's scene (writable or not) and for a folder that cannot be
// written; the user's folder from $XDG_CACHE_HOME, else $HOME/.cache.
#include "substruct/sim/cache_folder.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

// Sets an environment variable for the life of the object (unset: nullopt), then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class CacheFolder : public testing::TempDirTest {};

TEST_F(CacheFolder, TheUsersCacheFolderComesFromXdgElseHome) {
  const ScopedEnv home("HOME", (dir() / "home").string());
  {
    const ScopedEnv xdg("XDG_CACHE_HOME", (dir() / "xdg").string());
    EXPECT_EQ(user_cache_dir(), dir() / "xdg" / "substruct" / "models");
  }
  {
    const ScopedEnv xdg("XDG_CACHE_HOME", std::string());  // empty: as unset
    EXPECT_EQ(user_cache_dir(), dir() / "home" / ".cache" / "substruct" / "models");
  }
  const ScopedEnv xdg("XDG_CACHE_HOME", std::nullopt);
  EXPECT_EQ(user_cache_dir(), dir() / "home" / ".cache" / "substruct" / "models");
}

TEST_F(CacheFolder, BesideAUsersSceneInTheUsersFolderForAnInstalledOne) {
  const ScopedEnv xdg("XDG_CACHE_HOME", (dir() / "xdg").string());
  const fs::path mine = dir() / "work";
  const fs::path installed = dir() / "prefix" / "share" / "substruct";
  fs::create_directories(mine);
  fs::create_directories(installed / "scenes");
  // A build tree's program (no installed data folder) or a scene outside the installed data.
  EXPECT_EQ(default_cache_dir(mine, fs::path()), mine / ".substruct-cache");
  EXPECT_EQ(default_cache_dir(mine, installed), mine / ".substruct-cache");
  // An installed scene: the user's folder although the prefix is writable, also through a link
  // and a relative spelling of the same folder.
  const fs::path users = dir() / "xdg" / "substruct" / "models";
  EXPECT_EQ(default_cache_dir(installed / "scenes", installed), users);
  fs::create_directory_symlink(installed / "scenes", dir() / "link");
  EXPECT_EQ(default_cache_dir(dir() / "link", installed), users);
  EXPECT_EQ(default_cache_dir(installed / "scenes" / ".." / "scenes", installed), users);
  // A folder beside the installed data whose name merely starts the same is not in it.
  fs::create_directories(dir() / "prefix" / "share" / "substruct-mine");
  EXPECT_EQ(default_cache_dir(dir() / "prefix" / "share" / "substruct-mine", installed),
            dir() / "prefix" / "share" / "substruct-mine" / ".substruct-cache");
}

TEST_F(CacheFolder, AFolderThatCannotBeWrittenCachesInTheUsersFolder) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: every folder is writable";
  const ScopedEnv xdg("XDG_CACHE_HOME", (dir() / "xdg").string());
  const fs::path locked = dir() / "locked";
  fs::create_directories(locked);
  ::chmod(locked.c_str(), 0555);
  EXPECT_EQ(default_cache_dir(locked, fs::path()), dir() / "xdg" / "substruct" / "models");
  ::chmod(locked.c_str(), 0755);
}

}  // namespace
}  // namespace substruct
