// SPDX-License-Identifier: GPL-3.0-or-later
// Options of list and map shape: numbers ("10 5 1"), index ranges ("9-40 46-53") and maps from
// indices or index ranges to numbers ("3:0.5 7-9:2"), each parsed into its typed field, refused
// with the item that is wrong, written back in canonical form and documented with its shape;
// fields of a nested struct (member()), and options set one at a time as a command line does.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/options/option_docs.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using testing::error_message;

struct Material {
  double density = 1000;
};

struct Shapes {
  std::vector<double> stiffness = {10, 5, 1};
  std::vector<Index> rigid = {9, 10, 11, 12, 40};
  std::map<Index, double> scale = {{3, 0.5}, {7, 2}};
  std::map<Index, double> empty_map;
  Material material;
};

const OptionSet<Shapes>& shape_options() {
  using S = Shapes;
  static const auto options =
      OptionSet<S>("shapes", "lists and maps")
          .numbers("stiffness", &S::stiffness, "", "multipliers per level", positive)
          .indices("rigid", &S::rigid, "rigid domains")
          .index_map("scale", &S::scale, "DOMAIN:FACTOR", "", "factor per domain", positive)
          .index_map("offset", &S::empty_map, "VERTEX:SHIFT", "m", "shift per vertex")
          .number("density", member(&S::material, &Material::density), "kg/m³", "ρ", positive);
  return options;
}

class OptionListsTest : public ::testing::Test {
 protected:
  Shapes read(const std::string& key, const std::string& value) const {
    return shape_options().read(config(key, value));
  }
  Config config(const std::string& key, const std::string& value) const {
    return Config::from_settings({{"shapes." + key, value, "scene.ini:4"}}, "/scenes", host_,
                                 {&shape_options().table()});
  }
  std::string message(const std::string& key, const std::string& value) const {
    return error_message([&] { config(key, value); });
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

TEST_F(OptionListsTest, DefaultsAreWrittenInCanonicalForm) {
  std::vector<std::string> defaults;
  for (const OptionInfo& option : shape_options().table().options)
    defaults.push_back(option.key + " = " + option.default_text);
  EXPECT_EQ(defaults,
            (std::vector<std::string>{"stiffness = 10 5 1", "rigid = 9-12 40", "scale = 3:0.5 7:2",
                                      "offset = ", "density = 1000"}));
}

TEST_F(OptionListsTest, NumbersAndMapsParseIntoTheirFields) {
  EXPECT_EQ(read("stiffness", "2, 0.5 1e3").stiffness, (std::vector<double>{2, 0.5, 1000}));
  EXPECT_TRUE(read("stiffness", "").stiffness.empty());
  EXPECT_EQ(read("rigid", "9-11 46-47").rigid, (std::vector<Index>{9, 10, 11, 46, 47}));
  // A range key stands for each of its indices.
  EXPECT_EQ(read("scale", "4:0.25, 10-12:3 0:1").scale,
            (std::map<Index, double>{{0, 1}, {4, 0.25}, {10, 3}, {11, 3}, {12, 3}}));
  EXPECT_EQ(read("offset", "2:-0.5").empty_map, (std::map<Index, double>{{2, -0.5}}));
  EXPECT_EQ(read("density", "2500").material.density, 2500);
  // Untouched fields keep their initial values.
  const Shapes s = read("density", "2500");
  EXPECT_EQ(s.scale, (std::map<Index, double>{{3, 0.5}, {7, 2}}));
  EXPECT_EQ(s.stiffness, (std::vector<double>{10, 5, 1}));
}

TEST_F(OptionListsTest, ValuesAreStoredCanonically) {
  // Runs of three or more indices with one value are written as a range.
  EXPECT_EQ(config("scale", "5:2,6:2 7:2 9:1 1:0.50").text("shapes.scale"), "1:0.5 5-7:2 9:1");
  EXPECT_EQ(config("scale", "5-6:2").text("shapes.scale"), "5:2 6:2");
  EXPECT_EQ(config("stiffness", "1.50,2").text("shapes.stiffness"), "1.5 2");
}

TEST_F(OptionListsTest, ABadItemIsNamedWithTheShapeExpected) {
  const std::string map_expected =
      "expected DOMAIN:FACTOR items separated by blanks or commas, DOMAIN an index or a range "
      "A-B (each index once), FACTOR a finite number > 0";
  const struct {
    const char* key;
    const char* value;
    const char* item;
  } cases[] = {
      {"scale", "3:0.5 7", "7"},        // no factor
      {"scale", "3:0.5 7:x", "7:x"},    // not a number
      {"scale", "3:0", "3:0"},          // out of bounds
      {"scale", "3:-1", "3:-1"},        // out of bounds
      {"scale", "-3:1", "-3:1"},        // a negative index
      {"scale", "9-4:1", "9-4:1"},      // a range backwards
      {"scale", "2:1 1-3:2", "1-3:2"},  // index 2 twice
      {"scale", "3:inf", "3:inf"},      // not finite
      {"scale", "a:1", "a:1"},
  };
  for (const auto& c : cases)
    EXPECT_EQ(message(c.key, c.value), std::string("scene.ini:4: [shapes] ") + c.key + " = '" +
                                           c.value + "': item '" + c.item + "': " + map_expected);
  EXPECT_EQ(message("stiffness", "10 0 1"),
            "scene.ini:4: [shapes] stiffness = '10 0 1': item '0': expected finite numbers > 0 "
            "separated by blanks or commas");
  EXPECT_EQ(message("rigid", "9-40 53-46"),
            "scene.ini:4: [shapes] rigid = '9-40 53-46': item '53-46': expected non-negative "
            "indices separated by blanks or commas, A-B for A to B");
  // A value refused as a whole names no item.
  EXPECT_EQ(message("density", "heavy"),
            "scene.ini:4: [shapes] density = 'heavy': expected a finite number > 0");
}

TEST_F(OptionListsTest, HelpAndReferencePageShowTheShape) {
  const std::string text = options_text(shape_options().table());
  EXPECT_NE(text.find("  shapes.scale = 3:0.5 7:2  (DOMAIN:FACTOR … (DOMAIN or A-B; FACTOR > 0))\n"
                      "      factor per domain\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  shapes.offset [m]  (VERTEX:SHIFT … (VERTEX or A-B))\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  shapes.stiffness = 10 5 1  (numbers > 0)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  shapes.rigid = 9-12 40  (indices, A-B for A to B)\n"), std::string::npos)
      << text;
  const std::string page = options_markdown(shape_options().table());
  EXPECT_NE(page.find("| `scale` | DOMAIN:FACTOR … (DOMAIN or A-B; FACTOR > 0) | `3:0.5 7:2` |  | "
                      "factor per domain |\n"),
            std::string::npos)
      << page;
}

TEST(OptionAssign, SetsOneOptionAsACommandLineGivesIt) {
  Shapes s;
  EXPECT_EQ(shape_options().assign(s, "scale", "1-2:4"), "");
  EXPECT_EQ(s.scale, (std::map<Index, double>{{1, 4}, {2, 4}}));
  EXPECT_EQ(shape_options().assign(s, "density", "7.5"), "");
  EXPECT_EQ(s.material.density, 7.5);
  // A refused value leaves the field as it was and says why.
  EXPECT_EQ(shape_options().assign(s, "stiffness", "1 -2"),
            "item '-2': expected finite numbers > 0 separated by blanks or commas");
  EXPECT_EQ(s.stiffness, (std::vector<double>{10, 5, 1}));
  EXPECT_THROW(shape_options().assign(s, "nonsense", "1"), std::logic_error);
}

TEST(OptionAssign, CommandOptionsAreDocumentedWithTheirDashes) {
  const std::string text = command_options_text(shape_options().table());
  EXPECT_NE(text.find("lists and maps:\n  --stiffness = 10 5 1  (numbers > 0)\n"),
            std::string::npos)
      << text;
  const std::string page = command_options_markdown(shape_options().table(), "More.");
  EXPECT_NE(page.find("## substruct shapes\n\nlists and maps. More.\n\n"), std::string::npos)
      << page;
  EXPECT_NE(page.find("| `--density` | number > 0 | `1000` | kg/m³ | ρ |\n"), std::string::npos)
      << page;
}

TEST(OptionDeclaration, AMapNeedsItsItemShape) {
  struct Bad {
    std::map<Index, double> m;
  };
  EXPECT_THROW(OptionSet<Bad>("bad", "").index_map("m", &Bad::m, "FACTOR", "", ""),
               std::logic_error);
}

}  // namespace
}  // namespace substruct
