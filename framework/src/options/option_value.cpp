// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/options/detail/option_value.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <limits>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "substruct/core/parse_number.hpp"

namespace substruct::detail {

namespace {

constexpr long kMaxIndexRange = 100000000;  // indices one A-B item may stand for

std::optional<bool> parse_flag(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (text == "true" || text == "yes" || text == "on" || text == "1") return true;
  if (text == "false" || text == "no" || text == "off" || text == "0") return false;
  return std::nullopt;
}

std::string number_text(double x) {
  return fmt::format("{}", x);
}

template <class Items>
std::string joined(const Items& items) {
  return fmt::format("{}", fmt::join(items, " "));
}

// Indices as written back: runs of three or more consecutive ones as A-B.
std::string joined_indices(const std::vector<Index>& indices) {
  std::string text;
  for (std::size_t b = 0, e = 0; b < indices.size(); b = e) {
    e = b + 1;
    while (e < indices.size() && indices[e] == indices[e - 1] + 1) ++e;
    if (!text.empty()) text += ' ';
    if (e - b >= 3) {
      text += fmt::format("{}-{}", indices[b], indices[e - 1]);
    } else {
      text += std::to_string(indices[b]);
      if (e - b == 2) text += ' ' + std::to_string(indices[b + 1]);
    }
  }
  return text;
}

// "A-B": the indices A to B (0 ≤ A ≤ B); "A": A alone. Nothing for anything else.
std::optional<std::pair<long, long>> parse_index_range(const std::string& item) {
  const std::size_t dash = item.find('-', 1);
  const std::optional<long> first = parse_integer(item.substr(0, dash));
  const std::optional<long> last =
      dash == std::string::npos ? first : parse_integer(item.substr(dash + 1));
  if (!first || !last || *first < 0 || *last < *first ||
      *last > std::numeric_limits<Index>::max() || *last - *first >= kMaxIndexRange)
    return std::nullopt;
  return std::pair{*first, *last};
}

// A map as written back: "INDEX:VALUE" items, runs of three or more consecutive indices with the
// same value as "A-B:VALUE".
std::string joined_map(const std::map<Index, double>& map) {
  std::string text;
  for (auto b = map.begin(); b != map.end();) {
    auto e = std::next(b), last = b;
    while (e != map.end() && e->first == last->first + 1 && e->second == b->second) last = e++;
    const std::string value = number_text(b->second);
    const long run = static_cast<long>(last->first) - b->first + 1;
    for (auto i = b; run < 3 && i != e; ++i)
      text += fmt::format("{}{}:{}", text.empty() ? "" : " ", i->first, value);
    if (run >= 3)
      text += fmt::format("{}{}-{}:{}", text.empty() ? "" : " ", b->first, last->first, value);
    b = e;
  }
  return text;
}

}  // namespace

std::vector<std::string> split_items(std::string_view text) {
  std::vector<std::string> items;
  std::string item;
  for (char c : text) {
    if (c == ',' || c == ' ' || c == '\t') {
      if (!item.empty()) items.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  if (!item.empty()) items.push_back(item);
  return items;
}

std::optional<OptionValue> parse_option_value(const OptionInfo& option, const std::string& text,
                                              std::string* bad_item) {
  const auto refuse = [&](const std::string& item) -> std::optional<OptionValue> {
    if (bad_item != nullptr) *bad_item = item;
    return std::nullopt;
  };
  if (bad_item != nullptr) bad_item->clear();
  OptionValue value;
  switch (option.type) {
    case OptionType::flag: {
      const std::optional<bool> flag = parse_flag(text);
      if (!flag) return std::nullopt;
      value.flag = *flag;
      break;
    }
    case OptionType::integer: {
      const std::optional<long> integer = parse_integer(text);
      if (!integer || *integer < option.lowest_integer || *integer > option.highest_integer ||
          !option.range.contains(static_cast<double>(*integer)))
        return std::nullopt;
      value.integer = *integer;
      break;
    }
    case OptionType::number: {
      const std::optional<double> number = parse_number(text);
      if (!number || !option.range.contains(*number)) return std::nullopt;
      value.number = *number;
      break;
    }
    case OptionType::text:
    case OptionType::path:
      value.text = text;
      break;
    case OptionType::list:
      value.items = split_items(text);
      break;
    case OptionType::indices:
      for (const std::string& item : split_items(text)) {
        const std::optional<std::pair<long, long>> range = parse_index_range(item);
        if (!range) return refuse(item);
        for (long i = range->first; i <= range->second; ++i)
          value.indices.push_back(static_cast<Index>(i));
      }
      break;
    case OptionType::numbers:
      for (const std::string& item : split_items(text)) {
        const std::optional<double> number = parse_number(item);
        if (!number || !option.range.contains(*number)) return refuse(item);
        value.numbers.push_back(*number);
      }
      break;
    case OptionType::index_map:
      for (const std::string& item : split_items(text)) {
        // "A:X" or "A-B:X": X for A, A + 1, …, B; each index once.
        const std::size_t colon = item.find(':');
        if (colon == std::string::npos) return refuse(item);
        const std::optional<std::pair<long, long>> range = parse_index_range(item.substr(0, colon));
        const std::optional<double> number = parse_number(item.substr(colon + 1));
        if (!range || !number || !option.range.contains(*number)) return refuse(item);
        for (long i = range->first; i <= range->second; ++i)
          if (!value.map.emplace(static_cast<Index>(i), *number).second) return refuse(item);
      }
      break;
    case OptionType::vec3: {
      const std::vector<std::string> items = split_items(text);
      if (items.size() != 3) return std::nullopt;
      for (int i = 0; i < 3; ++i) {
        const std::optional<double> x = parse_number(items[static_cast<std::size_t>(i)]);
        if (!x || !std::isfinite(*x)) return std::nullopt;
        value.vec3[i] = *x;
      }
      break;
    }
    case OptionType::choice: {
      const auto it = std::find(option.choices.begin(), option.choices.end(), text);
      if (it == option.choices.end()) return std::nullopt;
      value.choice = static_cast<std::size_t>(it - option.choices.begin());
      value.text = text;
      break;
    }
  }
  return value;
}

std::string option_text(const OptionInfo& option, const OptionValue& value) {
  switch (option.type) {
    case OptionType::flag:
      return value.flag ? "true" : "false";
    case OptionType::integer:
      return std::to_string(value.integer);
    case OptionType::number:
      return number_text(value.number);
    case OptionType::list:
      return joined(value.items);
    case OptionType::indices:
      return joined_indices(value.indices);
    case OptionType::numbers: {
      std::vector<std::string> items;
      for (double x : value.numbers) items.push_back(number_text(x));
      return joined(items);
    }
    case OptionType::index_map:
      return joined_map(value.map);
    case OptionType::vec3:
      return fmt::format("{} {} {}", number_text(value.vec3[0]), number_text(value.vec3[1]),
                         number_text(value.vec3[2]));
    case OptionType::choice:
      return value.choice < option.choices.size() ? option.choices[value.choice] : value.text;
    case OptionType::text:
    case OptionType::path:
      break;
  }
  return value.text;
}

}  // namespace substruct::detail
