// SPDX-License-Identifier: GPL-3.0-or-later
// The declarative options: a section declared once as an OptionSet bound to a settings struct
// gives its table (defaults from the struct), its parsing and validation in one message format,
// the Boost description used to find unknown keys, and the help and reference-page text.
#include "substruct/options/options.hpp"

#include <optional>
#include <stdexcept>

#include <gtest/gtest.h>
#include <boost/program_options/parsers.hpp>
#include <boost/program_options/variables_map.hpp>

#include "substruct/config/config.hpp"
#include "substruct/config/framework_sections.hpp"
#include "substruct/config/material_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/material_model.hpp"
#include "substruct/options/option_docs.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;
using testing::error_message;

enum class Shape { round, square };
std::string_view to_string(Shape shape) {
  return shape == Shape::round ? "round" : "square";
}
enum class Mode { slow, fast };

// Every kind of option, with defaults that differ from a value-initialised struct.
struct Settings {
  bool flag = true;
  int count = 3;
  unsigned long seed = 7;
  double length = 0.25;
  std::optional<double> stiffness;
  double until = std::numeric_limits<double>::infinity();
  std::string name = "beam";
  fs::path file = "data/beam.veg";
  std::vector<std::string> names = {"a", "b"};
  std::vector<Index> vertices = {4, 2};
  Vec3 direction = Vec3(0, -9.81, 0);
  Shape shape = Shape::square;
  Mode mode = Mode::fast;
  std::string model = "linear";
};

const OptionSet<Settings>& test_options() {
  using S = Settings;
  static const auto options =
      OptionSet<S>("test", "every kind of option")
          .flag("flag", &S::flag, "a flag")
          .integer("count", &S::count, "", "how many", at_least(1))
          .integer("seed", &S::seed, "", "a seed")
          .number("length", &S::length, "m", "how long", positive)
          .number("stiffness", &S::stiffness, "N/m", "k, when set", non_negative)
          .number("until", &S::until, "s", "when it stops (inf: never)", any_value.or_infinite())
          .text("name", &S::name, "a name")
          .path("file", &S::file, "a file")
          .list("names", &S::names, "some names")
          .indices("vertices", &S::vertices, "some vertices")
          .vec3("direction", &S::direction, "m/s²", "a vector")
          .choice("shape", &S::shape, {Shape::round, Shape::square}, "named by to_string")
          .choice("mode", &S::mode, {{"slow", Mode::slow}, {"fast", Mode::fast}},
                  "named in the declaration")
          .choice("model", &S::model, {"stvk", "linear"}, "a name among a few");
  return options;
}

class OptionsTest : public ::testing::Test {
 protected:
  Config config(const std::vector<Setting>& settings) const {
    return Config::from_settings(settings, "/scenes", host_, {&test_options().table()});
  }
  Settings read(const std::vector<Setting>& settings) const {
    return test_options().read(config(settings));
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

TEST_F(OptionsTest, DefaultsComeFromTheStruct) {
  const OptionTable& table = test_options().table();
  EXPECT_EQ(table.section, "test");
  EXPECT_EQ(table.caption, "every kind of option");
  // Each option's default text, as a scene would write the field's initial value.
  std::vector<std::string> defaults;
  for (const OptionInfo& option : table.options)
    defaults.push_back(option.key + " = " + option.default_text);
  EXPECT_EQ(defaults, (std::vector<std::string>{
                          "flag = true", "count = 3", "seed = 7", "length = 0.25",
                          "stiffness = ", "until = inf", "name = beam", "file = data/beam.veg",
                          "names = a b", "vertices = 4 2", "direction = 0 -9.81 0",
                          "shape = square", "mode = fast", "model = linear"}));
  EXPECT_FALSE(table.find("stiffness")->has_default);
  EXPECT_EQ(table.find("length")->unit, "m");
  EXPECT_EQ(table.find("mode")->choices, (std::vector<std::string>{"slow", "fast"}));
  EXPECT_EQ(table.find("shape")->choices, (std::vector<std::string>{"round", "square"}));

  // Nothing set: the struct as it was initialised, paths taken from the scene's folder.
  const Settings s = read({});
  EXPECT_TRUE(s.flag);
  EXPECT_EQ(s.count, 3);
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.length, 0.25);
  EXPECT_FALSE(s.stiffness);
  EXPECT_EQ(s.file, fs::path("/scenes/data/beam.veg"));
  EXPECT_EQ(s.vertices, (std::vector<Index>{4, 2}));
  EXPECT_EQ(s.shape, Shape::square);
  EXPECT_EQ(s.mode, Mode::fast);
}

TEST_F(OptionsTest, ParsesEveryTypeIntoItsField) {
  const Settings s = read({{"test.flag", "off", "t"},
                           {"test.count", "12", "t"},
                           {"test.seed", "123456789012", "t"},
                           {"test.length", "1.5e-3", "t"},
                           {"test.stiffness", "2e5", "t"},
                           {"test.until", "inf", "t"},
                           {"test.name", "a long name", "t"},
                           {"test.file", "../meshes/box.veg", "t"},
                           {"test.names", "gravity, pull wind", "t"},
                           {"test.vertices", "0, 5 9", "t"},
                           {"test.direction", "1, 2.5, -3", "t"},
                           {"test.shape", "round", "t"},
                           {"test.mode", "slow", "t"},
                           {"test.model", "stvk", "t"}});
  EXPECT_FALSE(s.flag);
  EXPECT_EQ(s.count, 12);
  EXPECT_EQ(s.seed, 123456789012u);
  EXPECT_DOUBLE_EQ(s.length, 1.5e-3);
  ASSERT_TRUE(s.stiffness);
  EXPECT_EQ(*s.stiffness, 2e5);
  EXPECT_EQ(s.until, std::numeric_limits<double>::infinity());
  EXPECT_EQ(s.name, "a long name");
  EXPECT_EQ(s.file, fs::path("/meshes/box.veg"));
  EXPECT_EQ(s.names, (std::vector<std::string>{"gravity", "pull", "wind"}));
  EXPECT_EQ(s.vertices, (std::vector<Index>{0, 5, 9}));
  EXPECT_EQ(s.direction, Vec3(1, 2.5, -3));
  EXPECT_EQ(s.shape, Shape::round);
  EXPECT_EQ(s.mode, Mode::slow);
  EXPECT_EQ(s.model, "stvk");
  // Flags take Boost's spellings; absolute paths stay as they are.
  EXPECT_TRUE(read({{"test.flag", "Yes", "t"}}).flag);
  EXPECT_EQ(read({{"test.file", "/data/x.veg", "t"}}).file, fs::path("/data/x.veg"));
}

TEST_F(OptionsTest, ValuesAreStoredInTheirCanonicalSpelling) {
  const Config c = config({{"test.length", "0.500", "t"},
                           {"test.flag", "on", "t"},
                           {"test.direction", "1,2,3", "t"},
                           {"test.names", "x,y", "t"}});
  EXPECT_EQ(c.text("test.length"), "0.5");
  EXPECT_EQ(c.text("test.flag"), "true");
  EXPECT_EQ(c.text("test.direction"), "1 2 3");
  EXPECT_EQ(c.text("test.names"), "x y");
  EXPECT_EQ(c.text("test.count"), "3");  // a default
  EXPECT_EQ(c.origin("test.length"), "t");
  EXPECT_EQ(c.origin("test.count"), "default");
}

TEST_F(OptionsTest, BadValuesGetOneMessageNamingOriginSectionKeyAndValue) {
  auto message = [&](const std::string& key, const std::string& value) {
    return error_message([&] { config({{"test." + key, value, "scene.ini:7"}}); });
  };
  EXPECT_EQ(message("count", "0"), "scene.ini:7: [test] count = '0': expected an integer ≥ 1");
  const struct {
    const char* key;
    const char* value;
    const char* expected;
    const char* item = nullptr;  // the item of a list refused
  } cases[] = {
      {"count", "2.5", "an integer ≥ 1"},
      {"count", "99999999999", "an integer ≥ 1"},  // more than an int holds
      {"seed", "-1", "an integer ≥ 0"},            // unsigned
      {"length", "0", "a finite number > 0"},
      {"length", "inf", "a finite number > 0"},
      {"length", "1m", "a finite number > 0"},
      {"stiffness", "-1", "a finite number ≥ 0"},
      {"until", "nan", "a number (or inf)"},
      {"flag", "maybe", "true or false"},
      // A list names the item it refused.
      {"vertices", "1 -2", "non-negative indices separated by blanks or commas, A-B for A to B",
       "-2"},
      {"vertices", "5-3", "non-negative indices separated by blanks or commas, A-B for A to B",
       "5-3"},
      {"vertices", "7 2-x", "non-negative indices separated by blanks or commas, A-B for A to B",
       "2-x"},
      {"direction", "0 1", "three finite numbers 'x y z'"},
      {"shape", "oval", "one of round, square"},
      {"mode", "Fast", "one of slow, fast"},
      {"model", "neo-hookean", "one of stvk, linear"},
  };
  for (const auto& c : cases)
    EXPECT_EQ(message(c.key, c.value),
              std::string("scene.ini:7: [test] ") + c.key + " = '" + c.value +
                  "': " + (c.item ? std::string("item '") + c.item + "': " : "") + "expected " +
                  c.expected);
  // The same format for checks a component makes itself (across keys, against the scene).
  const Config c = config({{"test.count", "5", "command line"}});
  EXPECT_STREQ(c.value_error("test.count", "needs fewer than 4 items").what(),
               "command line: [test] count = '5': needs fewer than 4 items");
}

TEST_F(OptionsTest, IndexRangesExpand) {
  const Settings s = read({{"test.vertices", "7, 2-5 9-9", "t"}});
  EXPECT_EQ(s.vertices, (std::vector<Index>{7, 2, 3, 4, 5, 9}));
  const Config c = config({{"test.vertices", "0-99999 4", "t"}});
  EXPECT_EQ(test_options().read(c).vertices.size(), 100001u);
}

TEST_F(OptionsTest, UnknownKeysStillSuggestTheNearest) {
  const std::string m = error_message([&] { config({{"test.lenght", "1", "scene.ini:3"}}); });
  EXPECT_NE(m.find("scene.ini:3: unknown key 'test.lenght'; did you mean 'test.length'?"),
            std::string::npos)
      << m;
}

TEST_F(OptionsTest, TheBoostDescriptionHasEveryKeyWithItsDefault) {
  namespace po = boost::program_options;
  const OptionTable& table = test_options().table();
  const po::options_description description = table.description();
  ASSERT_EQ(description.options().size(), table.options.size());
  po::variables_map values;
  po::store(po::parsed_options(&description), values);
  po::notify(values);
  for (const OptionInfo& option : table.options) {
    const std::string key = "test." + option.key;
    ASSERT_NE(description.find_nothrow(key, false), nullptr) << key;
    if (!option.has_default) {
      EXPECT_EQ(values.count(key), 0u) << key;
      continue;
    }
    ASSERT_EQ(values.count(key), 1u) << key;
    EXPECT_TRUE(values[key].defaulted()) << key;
    EXPECT_EQ(values[key].as<std::string>(), option.default_text) << key;
  }
}

TEST(OptionDeclaration, ABadDefaultOrATwiceDeclaredKeyIsAProgrammingError) {
  struct Bad {
    double x = -1;
    Mode mode = static_cast<Mode>(7);
  };
  EXPECT_THROW(OptionSet<Bad>("bad", "").number("x", &Bad::x, "", "", positive), std::logic_error);
  EXPECT_THROW(OptionSet<Bad>("bad", "").choice("mode", &Bad::mode, {{"slow", Mode::slow}}, ""),
               std::logic_error);
  EXPECT_THROW(OptionSet<Bad>("bad", "").number("x", &Bad::x, "", "").number("x", &Bad::x, "", ""),
               std::logic_error);
}

TEST(OptionDocs, HelpAndReferencePageShowKeyTypeDefaultUnitChoicesAndHelp) {
  const std::string text = options_text(test_options().table());
  EXPECT_NE(text.find("[test] every kind of option\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  test.length = 0.25 [m]  (number > 0)\n      how long\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  test.mode = fast  (one of slow | fast)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  test.stiffness [N/m]  (number ≥ 0, unset)\n"), std::string::npos) << text;

  const std::string page = options_markdown(test_options().table(), "About it.");
  EXPECT_NE(page.find("## [test] every kind of option\n\nAbout it.\n\n"), std::string::npos)
      << page;
  EXPECT_NE(page.find("| `length` | number > 0 | `0.25` | m | how long |\n"), std::string::npos)
      << page;
  EXPECT_NE(page.find("| `shape` | one of round \\| square | `square` |  | named by to_string |"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("| `until` | number or inf | `inf` | s |"), std::string::npos) << page;
}

TEST(FrameworkSections, AreTheEightInOrderAndMaterialModelsAreTheChoices) {
  std::vector<std::string> sections;
  for (const OptionTable* table : framework_sections()) sections.push_back(table->section);
  EXPECT_EQ(sections, (std::vector<std::string>{"scene", "material", "coupling", "solvers",
                                                "reduction", "run", "view", "contact"}));
  // [material] model is checked by name in the config layer and parsed by the FEM layer: the
  // two must name the same models.
  const std::vector<std::string>& names = material_options().table().find("model")->choices;
  EXPECT_EQ(names.size(), 4u);
  for (const std::string& name : names) EXPECT_EQ(to_string(parse_material_model(name)), name);
}

}  // namespace
}  // namespace substruct
