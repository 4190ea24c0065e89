// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The options of a section as `substruct help` prints them and as the reference page
/// (framework/docs/options.md, `substruct help --markdown`) lists them: key, type, default,
/// unit, choices or bounds, help.
#include <string>

#include "substruct/options/option_table.hpp"

namespace substruct {

/// "number > 0", "integer ≥ 1", "one of a | b", "path", "DOMAIN:FACTOR … (DOMAIN or A-B;
/// FACTOR > 0)", … : what an option accepts, briefly.
std::string type_summary(const OptionInfo& option);

/// Plain text: a "[section] caption" line, then per option a line "  section.key = default
/// [unit]  (type)" and its help, wrapped, below it.
std::string options_text(const OptionTable& table);

/// Markdown: a "## [section] caption" heading, `about` (a paragraph, if any) and a table with
/// one row per option (key, type, default, unit, description).
std::string options_markdown(const OptionTable& table, const std::string& about = "");

/// The options of a command (its table's section names it, "generate flower") as its --help
/// prints them: a "caption:" line, then per option "  --key = default [unit]  (type)" and its
/// help.
std::string command_options_text(const OptionTable& table);

/// Markdown: a "## substruct SECTION" heading, the caption and `about` (sentences, if any), and
/// a table with one row per option, each key spelled --key.
std::string command_options_markdown(const OptionTable& table, const std::string& about = "");

}  // namespace substruct
