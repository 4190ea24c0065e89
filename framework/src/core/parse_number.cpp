// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/parse_number.hpp"

#include <stdexcept>

namespace substruct {

std::optional<long> parse_integer(const std::string& text) {
  std::size_t used = 0;
  long value = 0;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != text.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_number(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != text.size()) return std::nullopt;
  return value;
}

}  // namespace substruct
