#pragma once
/// Text typed by users (config lines, list items, suite files) without its surrounding blanks.
#include <string>
#include <string_view>

namespace substruct {

/// `text` without leading and trailing spaces, tabs, carriage returns and newlines.
std::string trim(std::string_view text);

}  // namespace substruct
