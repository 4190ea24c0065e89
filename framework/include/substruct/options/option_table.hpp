// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The options of one config section as data: key, type, default, unit, help, choices and bounds
/// of each. Validation of a scene, `substruct help` and the reference page read these tables;
/// sections declare them with OptionSet (options.hpp), and a plugin's descriptor exports its own.
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options/options_description.hpp>

namespace substruct {

/// The values a number or integer option accepts: from `lowest` to `highest`, each end included
/// unless it is open. Numbers must be finite unless `infinite` allows ±inf as well.
struct Range {
  double lowest = -std::numeric_limits<double>::infinity();
  double highest = std::numeric_limits<double>::infinity();
  bool open_low = false;
  bool open_high = false;
  bool infinite = false;

  bool contains(double x) const;
  /// "> 0", "≥ 1", "in [0.5, 1]", "in (0, 1)"; "" when there is no bound.
  std::string text() const;
  /// The same bounds, with ±inf accepted too (e.g. "inf: never").
  constexpr Range or_infinite() const {
    Range r = *this;
    r.infinite = true;
    return r;
  }
};

inline constexpr Range any_value{};
inline constexpr Range positive{0, std::numeric_limits<double>::infinity(), true};
inline constexpr Range non_negative{0};
constexpr Range at_least(double lowest) {
  return {lowest};
}
/// [lowest, highest].
constexpr Range in_range(double lowest, double highest) {
  return {lowest, highest};
}
/// (lowest, highest).
constexpr Range in_open_range(double lowest, double highest) {
  return {lowest, highest, true, true};
}

/// What an option's text is read as (the field it is bound to).
enum class OptionType {
  flag,       // bool: true | false (also yes | no, on | off, 1 | 0)
  integer,    // an integer within the Range and the field's type
  number,     // a real number within the Range
  text,       // any text
  path,       // a file or folder, relative to the scene file's folder
  list,       // names separated by spaces and/or commas
  indices,    // 0-based vertex or domain indices separated by spaces and/or commas, A-B a range
  numbers,    // real numbers within the Range, separated by spaces and/or commas
  index_map,  // INDEX:NUMBER items ("3:0.5 7-9:2"), INDEX an index or a range A-B, NUMBER in Range
  vec3,       // three numbers "x y z" (or "x, y, z")
  choice,     // one of OptionInfo::choices
};
/// "bool", "integer", "number", "text", "path", "list", "indices", "numbers", "map", "x y z",
/// "choice".
std::string_view to_string(OptionType type);

/// One option of a section.
struct OptionInfo {
  std::string key;  // within the section: "frequency_scale"
  OptionType type = OptionType::text;
  bool has_default = true;           // false: the option is unset unless a scene sets it
  std::string default_text;          // the default as a scene would write it
  std::string unit;                  // "s", "Pa", "m/s²"; "" for none
  std::string help;                  // what it does; paper symbols and sections welcome
  std::vector<std::string> choices;  // OptionType::choice: the accepted values
  Range range;                       // number, integer, numbers, index_map (its values)
  std::string item;                  // index_map: one item's shape, "DOMAIN:FACTOR"
  long lowest_integer = std::numeric_limits<long>::min();  // integer: what its field holds
  long highest_integer = std::numeric_limits<long>::max();
};

/// The options of the config section `[section]`, keyed "section.key" in a Config.
struct OptionTable {
  std::string section;  // "inertia"; a plugin's section is its name
  std::string caption;  // one line: "multidomain reduced dynamics in moving frames"
  std::vector<OptionInfo> options;

  /// The option called `key` (without the section), or null.
  const OptionInfo* find(std::string_view key) const;
  /// Every option as "section.key" with its default text, for Boost.Program_options (the values
  /// are stored as text; OptionSet::read parses them).
  boost::program_options::options_description description() const;
};

/// What `option` accepts, for messages and help: "a number > 0", "an integer ≥ 1", "one of
/// interface, center-of-mass", "three numbers 'x y z'", "true or false", …
std::string expectation(const OptionInfo& option);

/// Why `text` is not a value of `option`: "expected …", after the item refused for a list
/// ("item '7:x': expected …"); empty when it is one.
std::string refusal(const OptionInfo& option, const std::string& text);

/// Whether `text` is a valid value of `option`, and its canonical spelling (numbers in their
/// shortest exact form, flags as true or false, vectors space-separated): the text to store, or
/// nothing when it is not valid.
std::optional<std::string> canonical_value(const OptionInfo& option, const std::string& text);

/// The one message for a bad value: "ORIGIN: [SECTION] KEY = 'VALUE': WHAT", ORIGIN being where
/// it was set ("scene.ini:12", "command line").
std::string option_message(const std::string& origin, std::string_view section,
                           std::string_view key, std::string_view value, std::string_view what);

}  // namespace substruct
