// SPDX-License-Identifier: GPL-3.0-or-later
// trim and split_trimmed: the blanks around user text go, empty fields stay.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/core/trim.hpp"

namespace substruct {
namespace {

TEST(Trim, RemovesSpacesTabsAndLineEnds) {
  EXPECT_EQ(trim("  a b\t\r\n"), "a b");
  EXPECT_EQ(trim(" \t "), "");
  EXPECT_EQ(trim(""), "");
}

TEST(SplitTrimmed, KeepsEmptyFieldsAndTrimsEach) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split_trimmed("a | b |c", '|'), (V{"a", "b", "c"}));
  EXPECT_EQ(split_trimmed("a, ,b,", ','), (V{"a", "", "b", ""}));
  EXPECT_EQ(split_trimmed("", ','), (V{""}));
  EXPECT_EQ(split_trimmed("  one  ", ';'), (V{"one"}));
}

}  // namespace
}  // namespace substruct
