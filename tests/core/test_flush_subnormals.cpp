// SPDX-License-Identifier: GPL-3.0-or-later
// ScopedFlushSubnormals: subnormal results become zero while it lives, and the thread's previous
// floating-point mode comes back after it.
#include <limits>

#include <gtest/gtest.h>

#include "substruct/core/flush_subnormals.hpp"

namespace substruct {
namespace {

double square(double x) {
  volatile double v = x;  // computed at run time, under the current mode
  return v * v;
}

TEST(FlushSubnormals, SubnormalResultsAreZeroOnlyInsideTheScope) {
  if (!ScopedFlushSubnormals::supported())
    GTEST_SKIP() << "no flush-to-zero mode on this processor";
  const double tiny = 1e-160;  // its square, 1e-320, is subnormal
  const double before = square(tiny), normal = square(1e-150);
  EXPECT_GT(before, 0.0);
  EXPECT_LT(before, std::numeric_limits<double>::min());
  {
    const ScopedFlushSubnormals flush;
    EXPECT_EQ(square(tiny), 0.0);
    EXPECT_EQ(square(1e-150), normal);  // normal results are untouched
    {
      const ScopedFlushSubnormals nested;
      EXPECT_EQ(square(tiny), 0.0);
    }
    EXPECT_EQ(square(tiny), 0.0);  // the outer scope's mode is back
  }
  EXPECT_EQ(square(tiny), before);
}

}  // namespace
}  // namespace substruct
