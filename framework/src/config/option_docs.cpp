// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/option_docs.hpp"

#include <string_view>

#include <fmt/format.h>

namespace substruct {

namespace {

/// `text` wrapped into lines of at most `width` characters (UTF-8 counted by code points), each
/// starting with `indent`.
std::string wrapped(std::string_view text, std::string_view indent, std::size_t width) {
  auto length = [](std::string_view s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
    return n;
  };
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    if (!line.empty() && length(line) + 1 + length(word) > width) {
      out += fmt::format("{}{}\n", indent, line);
      line.clear();
    }
    if (!word.empty()) line += (line.empty() ? "" : " ") + std::string(word);
    start = end + 1;
  }
  if (!line.empty()) out += fmt::format("{}{}\n", indent, line);
  return out;
}

/// `text` with the characters markdown table cells treat specially escaped.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string type_summary(const OptionInfo& option) {
  if (option.type == OptionType::choice) {
    std::string names;
    for (const std::string& name : option.choices) names += (names.empty() ? "" : " | ") + name;
    return "one of " + names;
  }
  std::string summary(to_string(option.type));
  if (option.type == OptionType::integer || option.type == OptionType::number) {
    if (const std::string range = option.range.text(); !range.empty()) summary += " " + range;
    if (option.range.infinite) summary += " or inf";
  }
  return summary;
}

std::string options_text(const OptionTable& table) {
  std::string out = fmt::format("[{}] {}\n", table.section, table.caption);
  if (table.options.empty()) return out + "  (no options)\n";
  for (const OptionInfo& option : table.options) {
    std::string line = fmt::format("  {}.{}", table.section, option.key);
    if (option.has_default && !option.default_text.empty())
      line += fmt::format(" = {}", option.default_text);
    if (!option.unit.empty()) line += fmt::format(" [{}]", option.unit);
    line += fmt::format("  ({}{})", type_summary(option), option.has_default ? "" : ", unset");
    out += line + "\n" + wrapped(option.help, "      ", 90);
  }
  return out;
}

std::string options_markdown(const OptionTable& table, const std::string& about) {
  std::string out = fmt::format("## [{}] {}\n\n", table.section, table.caption);
  if (!about.empty()) out += about + "\n\n";
  if (table.options.empty()) return out + "No options.\n";
  out += "| key | type | default | unit | description |\n|---|---|---|---|---|\n";
  for (const OptionInfo& option : table.options) {
    const std::string default_cell = !option.has_default ? "unset"
                                     : option.default_text.empty()
                                         ? ""
                                         : fmt::format("`{}`", cell(option.default_text));
    out += fmt::format("| `{}` | {} | {} | {} | {} |\n", option.key, cell(type_summary(option)),
                       default_cell, cell(option.unit), cell(option.help));
  }
  return out;
}

}  // namespace substruct
