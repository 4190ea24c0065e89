// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/options/option_docs.hpp"

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
    if (!word.empty()) {
      if (!line.empty()) line += ' ';
      line += word;
    }
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

/// Per option a line "  KEY = default [unit]  (type)", KEY as `spell` writes it, and its help,
/// wrapped, below it.
template <class Spell>
std::string option_lines(const OptionTable& table, const Spell& spell) {
  if (table.options.empty()) return "  (no options)\n";
  std::string out;
  for (const OptionInfo& option : table.options) {
    std::string line = "  " + spell(option);
    if (option.has_default && !option.default_text.empty())
      line += fmt::format(" = {}", option.default_text);
    if (!option.unit.empty()) line += fmt::format(" [{}]", option.unit);
    line += fmt::format("  ({}{})", type_summary(option), option.has_default ? "" : ", unset");
    out += line + "\n" + wrapped(option.help, "      ", 90);
  }
  return out;
}

/// The table of `options_markdown`, each key as `spell` writes it.
template <class Spell>
std::string option_rows(const OptionTable& table, const Spell& spell) {
  if (table.options.empty()) return "No options.\n";
  std::string out = "| key | type | default | unit | description |\n|---|---|---|---|---|\n";
  for (const OptionInfo& option : table.options) {
    const std::string default_cell = !option.has_default ? "unset"
                                     : option.default_text.empty()
                                         ? ""
                                         : fmt::format("`{}`", cell(option.default_text));
    out += fmt::format("| `{}` | {} | {} | {} | {} |\n", spell(option), cell(type_summary(option)),
                       default_cell, cell(option.unit), cell(option.help));
  }
  return out;
}

std::string command_key(const OptionInfo& option) {
  return "--" + option.key;
}

}  // namespace

std::string type_summary(const OptionInfo& option) {
  if (option.type == OptionType::index_map) {
    const std::size_t colon = option.item.find(':');
    std::string summary = fmt::format("{} … ({} or A-B", option.item, option.item.substr(0, colon));
    if (const std::string range = option.range.text(); !range.empty())
      summary += fmt::format("; {} {}", option.item.substr(colon + 1), range);
    return summary + ")";
  }
  if (option.type == OptionType::indices) return "indices, A-B for A to B";
  if (option.type == OptionType::choice) {
    std::string names;
    for (const std::string& name : option.choices) names += (names.empty() ? "" : " | ") + name;
    return "one of " + names;
  }
  std::string summary(to_string(option.type));
  if (option.type == OptionType::integer || option.type == OptionType::number ||
      option.type == OptionType::numbers) {
    if (const std::string range = option.range.text(); !range.empty()) summary += " " + range;
    if (option.range.infinite) summary += " or inf";
  }
  return summary;
}

std::string options_text(const OptionTable& table) {
  return fmt::format("[{}] {}\n", table.section, table.caption) +
         option_lines(table, [&](const OptionInfo& option) {
           return fmt::format("{}.{}", table.section, option.key);
         });
}

std::string options_markdown(const OptionTable& table, const std::string& about) {
  std::string out = fmt::format("## [{}] {}\n\n", table.section, table.caption);
  if (!about.empty()) out += about + "\n\n";
  return out + option_rows(table, [](const OptionInfo& option) { return option.key; });
}

std::string command_options_text(const OptionTable& table) {
  return fmt::format("{}:\n", table.caption) + option_lines(table, command_key);
}

std::string command_options_markdown(const OptionTable& table, const std::string& about) {
  std::string out = fmt::format("## substruct {}\n\n{}", table.section, table.caption);
  out += about.empty() ? ".\n\n" : fmt::format(". {}\n\n", about);
  return out + option_rows(table, command_key);
}

}  // namespace substruct
