// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Numbers typed by users (command-line options, config list items): the whole text must be the
/// number, so "12x", "" and "1e400" are refused rather than read in part.
#include <optional>
#include <string>

namespace substruct {

/// The integer `text` spells (leading blanks and a sign allowed), or nothing when any other
/// character follows it or it does not fit a long.
std::optional<long> parse_integer(const std::string& text);

/// The number `text` spells (as std::stod reads it: decimal, exponent, inf, nan), or nothing when
/// any other character follows it or it is out of range.
std::optional<double> parse_number(const std::string& text);

}  // namespace substruct
