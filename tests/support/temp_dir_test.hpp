// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A fresh folder for each test, and the small helpers the suites use around it: writing and
// reading files there, listing what a test left behind, and catching the message of an error.
//
//   class VegReader : public testing::TempDirTest {};
//   TEST_F(VegReader, Something) {
//     const std::filesystem::path file = write("parts/one.veg", "*VERTICES\n…");
//     EXPECT_NE(error_message([&] { read_veg(file); }).find("expected"), std::string::npos);
//   }
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "support/scoped_dir.hpp"

namespace substruct::testing {

/// A folder shared by the tests of one suite, for files made once (a mesh, a scene): made in
/// SetUpTestSuite(), removed with everything in it in TearDownTestSuite(). Named after `suite` and
/// the process, in ::testing::TempDir().
///
///   static void SetUpTestSuite() { dir_ = std::make_unique<SuiteDir>("Beam"); … }
///   static void TearDownTestSuite() { dir_.reset(); }
///   static inline std::unique_ptr<SuiteDir> dir_;
class SuiteDir : public ScopedDir {
 public:
  explicit SuiteDir(const std::string& suite)
      : ScopedDir(std::filesystem::path(::testing::TempDir()) /
                  ("substruct_" + suite + '_' + std::to_string(::getpid()))) {}
};

/// An empty folder of its own for the running test, removed with everything in it when this
/// object goes. It lies in ::testing::TempDir() and is named after the test suite, the test and
/// the process (substruct_Suite_Test_PID), so tests run in parallel never share one. Relative
/// names given to write() and read() are taken inside the folder; absolute paths are used as
/// they are. For a test that cannot be a TempDirTest (its suite name is taken by a type).
class TestDir {
 public:
  TestDir() : folder_(test_name()) {}

  /// The folder.
  const std::filesystem::path& path() const { return folder_.path(); }

  /// Writes `text`, byte for byte, to the file `name` (its folders are made); returns its path.
  std::filesystem::path write(const std::filesystem::path& name, const std::string& text) const {
    const std::filesystem::path file = path() / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << text;
    if (!out) ADD_FAILURE() << "cannot write " << file;
    return file;
  }

  /// The bytes of the file `name`; "" and a test failure when it cannot be opened.
  std::string read(const std::filesystem::path& name) const {
    const std::filesystem::path file = path() / name;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      ADD_FAILURE() << "cannot read " << file;
      return {};
    }
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  /// Every regular file below the folder, as sorted relative paths with '/' separators.
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path()))
      if (entry.is_regular_file())
        names.push_back(std::filesystem::relative(entry.path(), path()).generic_string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  // "Suite_Test" of the running test (parameterized names with '/' made '_').
  static std::string test_name() {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(test->test_suite_name()) + '_' + test->name();
    std::replace(name.begin(), name.end(), '/', '_');  // "Formats/Suite", "Test/0"
    return name;
  }

  SuiteDir folder_;
};

/// Fixture base: each test gets its own empty TestDir, made before SetUp() and removed after
/// TearDown(), so a derived fixture may override both without calling these.
class TempDirTest : public ::testing::Test {
 protected:
  /// The test's folder.
  const std::filesystem::path& dir() const { return dir_.path(); }
  /// Writes `text` to `name` (relative to dir(), folders made); returns the file's path.
  std::filesystem::path write(const std::filesystem::path& name, const std::string& text) const {
    return dir_.write(name, text);
  }
  /// The bytes of `name_or_path` (relative to dir(), or absolute); fails the test if unreadable.
  std::string read(const std::filesystem::path& name_or_path) const {
    return dir_.read(name_or_path);
  }
  /// Every regular file below dir(), relative and sorted ("out/box.pvd", …).
  std::vector<std::string> files() const { return dir_.files(); }

 private:
  TestDir dir_;
};

/// The message of the substruct::Error (ParseError included) that `f` throws, or "(no error)"
/// when it returns normally: `EXPECT_NE(error_message(f).find("…"), npos)` fails either way.
/// Other exceptions pass through.
inline std::string error_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace substruct::testing
