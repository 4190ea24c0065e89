// SPDX-License-Identifier: GPL-3.0-or-later
// The adaptive basis size of Zhao 2014, §4.1 step 10: r = max(5, ⌊r_max log e / log e_max⌋).
#include <string>

#include <gtest/gtest.h>

#include "substruct/reduction/mode_count.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using testing::error_message;

TEST(ModeCount, LargestDomainGetsRMax) {
  EXPECT_EQ(mode_count(2591, 2591, 20), 20);
  EXPECT_EQ(mode_count(1, 1, 20), 20);  // every domain has one element
  EXPECT_EQ(mode_count(7, 7, 3), 3);
}

TEST(ModeCount, HandComputedCases) {
  // e_max = 10⁴, r_max = 20: log e / log e_max = ¼, ½, ¾ for e = 10, 100, 1000.
  EXPECT_EQ(mode_count(10, 10000, 20), 5);
  EXPECT_EQ(mode_count(100, 10000, 20), 10);
  EXPECT_EQ(mode_count(1000, 10000, 20), 15);
  // ⌊20 · ln 450 / ln 2591⌋ = ⌊20 · 6.10925 / 7.85980⌋ = ⌊15.5456⌋ = 15 (beam3 in the dragon).
  EXPECT_EQ(mode_count(450, 2591, 20), 15);
  // ⌊30 · ln 2000 / ln 3000⌋ = ⌊30 · 7.60090 / 8.00637⌋ = ⌊28.4807⌋ = 28.
  EXPECT_EQ(mode_count(2000, 3000, 30), 28);
  // ⌊20 · ln 2999 / ln 3000⌋ = ⌊19.99917⌋ = 19: the floor, not rounding.
  EXPECT_EQ(mode_count(2999, 3000, 20), 19);
}

TEST(ModeCount, SmallDomainsGetAtLeastFive) {
  EXPECT_EQ(mode_count(1, 10000, 20), 5);   // log 1 = 0
  EXPECT_EQ(mode_count(2, 10000, 20), 5);   // ⌊1.505⌋ = 1
  EXPECT_EQ(mode_count(99, 10000, 20), 9);  // ⌊9.978⌋ = 9 > 5
}

TEST(ModeCount, NeverMoreThanRMax) {
  EXPECT_EQ(mode_count(1, 100, 3), 3);
  EXPECT_EQ(mode_count(50, 100, 0), 0);
}

TEST(ModeCount, RejectsInconsistentCounts) {
  EXPECT_NE(error_message([] { mode_count(0, 10, 20); }).find("1 ≤ e ≤ e_max"), std::string::npos);
  EXPECT_NE(error_message([] { mode_count(11, 10, 20); }).find("e_max = 10"), std::string::npos);
  EXPECT_NE(error_message([] { mode_count(5, 10, -1); }).find("r_max = -1"), std::string::npos);
}

}  // namespace
}  // namespace substruct
