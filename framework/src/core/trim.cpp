// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/trim.hpp"

namespace substruct {

std::string trim(std::string_view text) {
  constexpr std::string_view kBlanks = " \t\r\n";
  const auto first = text.find_first_not_of(kBlanks);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(kBlanks);
  return std::string(text.substr(first, last - first + 1));
}

std::vector<std::string> split_trimmed(std::string_view text, char separator) {
  std::vector<std::string> fields;
  for (std::size_t from = 0;;) {
    const std::size_t at = text.find(separator, from);
    fields.push_back(trim(text.substr(from, at == std::string_view::npos ? at : at - from)));
    if (at == std::string_view::npos) return fields;
    from = at + 1;
  }
}

}  // namespace substruct
