// SPDX-License-Identifier: GPL-3.0-or-later
// The memory budget: sizes as users write them, and a reservation beyond the limit refused with
// the estimate and the limit in the message.
#include <string>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/core/memory_budget.hpp"

namespace substruct {
namespace {

TEST(MemoryBudget, ParsesSizesWithBinaryUnits) {
  EXPECT_EQ(parse_memory_size("auto"), 0.0);
  EXPECT_EQ(parse_memory_size("1024"), 1024.0);
  EXPECT_EQ(parse_memory_size("512M"), 512.0 * 1024 * 1024);
  EXPECT_EQ(parse_memory_size("16G"), 16.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(parse_memory_size("1.5GiB"), 1.5 * 1024 * 1024 * 1024);
  EXPECT_EQ(parse_memory_size(" 2KB "), 2048.0);
  EXPECT_EQ(parse_memory_size("1T"), 1024.0 * 1024 * 1024 * 1024);
  for (const char* bad : {"", "G", "abc", "-1G", "0", "0M", "nan", "inf", "12X", "1e400", "M16"})
    EXPECT_FALSE(parse_memory_size(bad).has_value()) << bad;
}

TEST(MemoryBudget, FormatsBytesForPeople) {
  EXPECT_EQ(format_bytes(800), "800 B");
  EXPECT_EQ(format_bytes(12.0 * 1024), "12.0 KiB");
  EXPECT_EQ(format_bytes(312.0 * 1024 * 1024), "312 MiB");
  EXPECT_EQ(format_bytes(1.5 * 1024 * 1024 * 1024), "1.50 GiB");
}

TEST(MemoryBudget, RefusesWhatDoesNotFitAndNamesItsEstimate) {
  EXPECT_GT(resident_memory(), 0.0);
  EXPECT_GT(available_memory(), 0.0);
  set_memory_limit(resident_memory() + 64.0 * 1024 * 1024);
  EXPECT_NO_THROW(reserve_memory("a small thing", 1024));
  try {
    reserve_memory("the factor of everything", 1e12);
    FAIL() << "a terabyte fit in a 64 MiB margin";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the factor of everything: about 931 GiB needed"), std::string::npos)
        << message;
    EXPECT_NE(message.find("exceeds [run] memory_limit"), std::string::npos) << message;
  }
  // auto: the memory available when first asked.
  set_memory_limit(0);
  EXPECT_GT(memory_limit(), 0.0);
  EXPECT_NO_THROW(reserve_memory("a small thing", 1024));
}

}  // namespace
}  // namespace substruct
