// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/options/option_table.hpp"

#include <cmath>

#include <fmt/format.h>
#include <boost/program_options/value_semantic.hpp>

#include "substruct/options/detail/option_value.hpp"

namespace substruct {

bool Range::contains(double x) const {
  if (std::isnan(x)) return false;
  if (std::isinf(x) && !infinite) return false;
  const bool above = open_low ? x > lowest : x >= lowest;
  const bool below = open_high ? x < highest : x <= highest;
  return above && below;
}

std::string Range::text() const {
  const bool low = std::isfinite(lowest), high = std::isfinite(highest);
  if (low && high)
    return fmt::format("in {}{}, {}{}", open_low ? '(' : '[', lowest, highest,
                       open_high ? ')' : ']');
  if (low) return fmt::format("{} {}", open_low ? ">" : "≥", lowest);
  if (high) return fmt::format("{} {}", open_high ? "<" : "≤", highest);
  return "";
}

std::string_view to_string(OptionType type) {
  switch (type) {
    case OptionType::flag:
      return "bool";
    case OptionType::integer:
      return "integer";
    case OptionType::number:
      return "number";
    case OptionType::text:
      return "text";
    case OptionType::path:
      return "path";
    case OptionType::list:
      return "list";
    case OptionType::indices:
      return "indices";
    case OptionType::numbers:
      return "numbers";
    case OptionType::index_map:
      return "map";
    case OptionType::vec3:
      return "x y z";
    case OptionType::choice:
      return "choice";
  }
  return "text";
}

const OptionInfo* OptionTable::find(std::string_view key) const {
  for (const OptionInfo& option : options)
    if (option.key == key) return &option;
  return nullptr;
}

boost::program_options::options_description OptionTable::description() const {
  namespace po = boost::program_options;
  po::options_description d(fmt::format("[{}] {}", section, caption));
  for (const OptionInfo& option : options) {
    po::typed_value<std::string>* value = po::value<std::string>();
    if (option.has_default) value->default_value(option.default_text);
    d.add_options()(fmt::format("{}.{}", section, option.key).c_str(), value, option.help.c_str());
  }
  return d;
}

std::string expectation(const OptionInfo& option) {
  const std::string range = option.range.text();
  const std::string bounded = range.empty() ? "" : " " + range;
  switch (option.type) {
    case OptionType::flag:
      return "true or false";
    case OptionType::integer:
      return "an integer" + bounded;
    case OptionType::number:
      return (option.range.infinite ? "a number" : "a finite number") + bounded +
             (option.range.infinite ? " (or inf)" : "");
    case OptionType::indices:
      return "non-negative indices separated by blanks or commas, A-B for A to B";
    case OptionType::numbers:
      return (option.range.infinite ? "numbers" : "finite numbers") + bounded +
             " separated by blanks or commas";
    case OptionType::index_map: {
      const std::string value = option.item.substr(option.item.find(':') + 1);
      return fmt::format(
          "{} items separated by blanks or commas, {} an index or a range A-B (each index once), "
          "{} a {}number{}",
          option.item, option.item.substr(0, option.item.find(':')), value,
          option.range.infinite ? "" : "finite ", bounded);
    }
    case OptionType::vec3:
      return "three finite numbers 'x y z'";
    case OptionType::choice: {
      std::string names;
      for (const std::string& name : option.choices) names += (names.empty() ? "" : ", ") + name;
      return "one of " + names;
    }
    case OptionType::text:
    case OptionType::path:
    case OptionType::list:
      break;
  }
  return "any text";
}

std::string refusal(const OptionInfo& option, const std::string& text) {
  std::string item;
  if (detail::parse_option_value(option, text, &item)) return "";
  return (item.empty() ? "" : fmt::format("item '{}': ", item)) + "expected " + expectation(option);
}

std::optional<std::string> canonical_value(const OptionInfo& option, const std::string& text) {
  const std::optional<detail::OptionValue> value = detail::parse_option_value(option, text);
  if (!value) return std::nullopt;
  return detail::option_text(option, *value);
}

std::string option_message(const std::string& origin, std::string_view section,
                           std::string_view key, std::string_view value, std::string_view what) {
  return fmt::format("{}: [{}] {} = '{}': {}", origin, section, key, value, what);
}

}  // namespace substruct
