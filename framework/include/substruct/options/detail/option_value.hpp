// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A value parsed for an option, in the member its OptionType uses: the untyped currency between
/// the option tables and the typed fields of OptionSet (options.hpp).
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/options/option_table.hpp"

namespace substruct::detail {

struct OptionValue {
  bool flag = false;               // flag
  long integer = 0;                // integer
  double number = 0;               // number
  std::string text;                // text, path, choice (the chosen name)
  std::vector<std::string> items;  // list
  std::vector<Index> indices;      // indices
  std::vector<double> numbers;     // numbers
  std::map<Index, double> map;     // index_map
  Vec3 vec3 = Vec3::Zero();        // vec3
  std::size_t choice = 0;          // choice: its position in OptionInfo::choices
};

/// `text` read as a value of `option`, or nothing when it is not one; then `bad_item`, when
/// given, is the item of a list that was refused (empty for a value refused as a whole).
std::optional<OptionValue> parse_option_value(const OptionInfo& option, const std::string& text,
                                              std::string* bad_item = nullptr);

/// `value` as a scene would write it (numbers in their shortest exact form).
std::string option_text(const OptionInfo& option, const OptionValue& value);

/// Items separated by commas and/or blanks.
std::vector<std::string> split_items(std::string_view text);

}  // namespace substruct::detail
