// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Text typed by users (config lines, list items, suite files): without its surrounding blanks,
/// and cut into fields.
#include <string>
#include <string_view>
#include <vector>

namespace substruct {

/// `text` without leading and trailing spaces, tabs, carriage returns and newlines.
std::string trim(std::string_view text);

/// The fields of `text` between `separator`s, each trimmed; empty fields kept ("a, ,b" → a, "", b).
std::vector<std::string> split_trimmed(std::string_view text, char separator);

}  // namespace substruct
