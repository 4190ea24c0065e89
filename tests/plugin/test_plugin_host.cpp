// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/plugin/plugin_host.hpp"

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/loads/load.hpp"
#include "support/temp_dir_test.hpp"

using namespace substruct;

namespace {

using substruct::testing::error_message;

const PluginInfo* info_named(const PluginHost& host, const std::string& file_stem) {
  for (const PluginInfo& info : host.plugins())
    if (info.file.stem() == file_stem) return &info;
  return nullptr;
}

}  // namespace

TEST(PluginHost, FindsTheBuiltInPluginsWithTheirKinds) {
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  EXPECT_EQ(host.find("full").kind, PluginKind::coupling);
  EXPECT_EQ(host.find("cholmod").kind, PluginKind::linear_solver);
  EXPECT_EQ(host.find("gravity").kind, PluginKind::load);
  EXPECT_EQ(host.find("pull").kind, PluginKind::load);
  EXPECT_EQ(host.find("vtk").kind, PluginKind::exporter);
  EXPECT_EQ(host.find("csv").kind, PluginKind::exporter);
  for (const PluginInfo& info : host.plugins())
    EXPECT_NE(info.descriptor, nullptr) << info.file << ": " << info.problem;
  // A plugin's options live in its own section; every one has help text, and a default its own
  // option accepts.
  for (const PluginInfo& info : host.plugins()) {
    const OptionTable& table = info.descriptor->options();
    EXPECT_EQ(table.section, info.descriptor->name);
    EXPECT_FALSE(table.caption.empty()) << table.section;
    for (const OptionInfo& option : table.options) {
      EXPECT_FALSE(option.help.empty()) << table.section << "." << option.key;
      if (option.has_default) {
        EXPECT_TRUE(canonical_value(option, option.default_text))
            << table.section << "." << option.key << " = " << option.default_text;
      }
    }
  }
}

TEST(PluginHost, UnknownPluginListsWhatIsAvailable) {
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const std::string m = error_message([&] { host.find("inertial"); });
  EXPECT_NE(m.find("unknown plugin 'inertial'"), std::string::npos) << m;
  EXPECT_NE(m.find("full"), std::string::npos) << m;
  EXPECT_NE(m.find("gravity"), std::string::npos) << m;
}

TEST(PluginHost, WrongKindSaysWhatKindThePluginIs) {
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const std::string m = error_message([&] { host.find("gravity", PluginKind::coupling); });
  EXPECT_NE(m.find("unknown coupling plugin 'gravity'"), std::string::npos) << m;
  EXPECT_NE(m.find("is a load plugin"), std::string::npos) << m;
  const auto listed = m.find("available coupling plugins: ");
  ASSERT_NE(listed, std::string::npos) << m;
  EXPECT_NE(m.find("full", listed), std::string::npos) << m;
}

TEST(PluginHost, RejectsAbiMismatchAndMissingSymbolsWithoutCrashing) {
  PluginHost host({SUBSTRUCT_FIXTURE_PLUGIN_DIR}, false);
  const PluginInfo* abi = info_named(host, "libsubstruct-abi-mismatch");
  ASSERT_NE(abi, nullptr);
  EXPECT_EQ(abi->descriptor, nullptr);
  EXPECT_NE(abi->problem.find("ABI version"), std::string::npos) << abi->problem;
  EXPECT_NE(abi->problem.find("rebuild"), std::string::npos) << abi->problem;

  const PluginInfo* plain = info_named(host, "libsubstruct-not-a-plugin");
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->descriptor, nullptr);
  EXPECT_NE(plain->problem.find("substruct_plugin_abi"), std::string::npos) << plain->problem;

  const std::string m = error_message([&] { host.find("abi-mismatch"); });
  EXPECT_NE(m.find("ABI version"), std::string::npos) << m;
}

TEST(PluginHost, RejectsOptionsDeclaredForAnotherSection) {
  PluginHost host({SUBSTRUCT_FIXTURE_PLUGIN_DIR}, false);
  const PluginInfo* info = info_named(host, "libsubstruct-wrong-section");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->descriptor, nullptr);
  EXPECT_NE(info->problem.find("its options are declared for the section '[elsewhere]', not "
                               "'[wrong-section]'"),
            std::string::npos)
      << info->problem;
}

TEST(PluginHost, RejectsAPluginBuiltWithAnotherToolchainNamingBoth) {
  PluginHost host({SUBSTRUCT_FIXTURE_PLUGIN_DIR}, false);
  const PluginInfo* other = info_named(host, "libsubstruct-other-toolchain");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->descriptor, nullptr);
  EXPECT_NE(other->problem.find("another toolchain (clang 99, libc++, Eigen 9.9.9 (align 64)"),
            std::string::npos)
      << other->problem;
  EXPECT_NE(other->problem.find(kBuildFingerprint), std::string::npos) << other->problem;
  EXPECT_NE(other->problem.find("rebuild"), std::string::npos) << other->problem;
}

TEST(PluginHost, ExportsTheHostsOwnFingerprintFromRealPlugins) {
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  EXPECT_EQ(std::string(host.find("gravity").name), "gravity");  // same toolchain: accepted
  EXPECT_NE(std::string(kBuildFingerprint).find("Eigen "), std::string::npos);
}

TEST(PluginHost, ObjectNotImplementingItsKindIsAnError) {
  PluginHost host({SUBSTRUCT_FIXTURE_PLUGIN_DIR, SUBSTRUCT_PLUGIN_DIR}, false);
  const Config config = Config::from_settings({{"scene.mesh", "none.veg", "test"}}, ".", host);
  const std::string m = error_message(
      [&] { host.create<Load>("wrong-interface", PluginKind::load, PluginContext{config}); });
  EXPECT_NE(m.find("does not implement the load interface"), std::string::npos) << m;
}

TEST(PluginHost, SearchesTheEnvironmentPathAndLoadsExplicitFiles) {
  ASSERT_EQ(setenv("SUBSTRUCT_PLUGIN_PATH", SUBSTRUCT_FIXTURE_PLUGIN_DIR, 1), 0);
  PluginHost from_environment({}, true);
  unsetenv("SUBSTRUCT_PLUGIN_PATH");
  EXPECT_NE(info_named(from_environment, "libsubstruct-wrong-interface"), nullptr);
  EXPECT_NE(from_environment.try_find("full"), nullptr);  // the build folder is searched too

  PluginHost explicit_only({}, false);
  EXPECT_TRUE(explicit_only.plugins().empty());
  const PluginInfo& info = explicit_only.load_file(std::filesystem::path(SUBSTRUCT_PLUGIN_DIR) /
                                                   "libsubstruct-gravity.so");
  ASSERT_NE(info.descriptor, nullptr) << info.problem;
  EXPECT_STREQ(info.descriptor->name, "gravity");
}

TEST(PluginHost, FirstPluginOfANameWinsAndLaterOnesAreReportedShadowed) {
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const std::size_t before = host.plugins().size();
  const std::size_t couplings = host.of_kind(PluginKind::coupling).size();
  host.load_file(std::filesystem::path(SUBSTRUCT_PLUGIN_DIR) / "libsubstruct-full.so");
  EXPECT_EQ(host.plugins().size(), before);  // the same file is not added twice
  EXPECT_EQ(host.of_kind(PluginKind::coupling).size(), couplings);

  // A copy elsewhere with the same name is shadowed by the one found first, and says so.
  const substruct::testing::TestDir dir;
  const auto copy = dir.path() / "libsubstruct-gravity.so";
  std::filesystem::copy_file(
      std::filesystem::path(SUBSTRUCT_PLUGIN_DIR) / "libsubstruct-gravity.so", copy,
      std::filesystem::copy_options::overwrite_existing);
  const PluginInfo& shadowed = host.load_file(copy);
  EXPECT_EQ(shadowed.descriptor, nullptr);
  EXPECT_NE(shadowed.problem.find("shadowed by"), std::string::npos) << shadowed.problem;
  EXPECT_EQ(host.of_kind(PluginKind::load).size(), 3u);  // gravity, pull and wind, once each
}
