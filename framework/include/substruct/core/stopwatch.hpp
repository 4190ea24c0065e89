// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Wall-clock timing of precomputation stages and steps: one clock and one conversion to seconds.
#include <chrono>

namespace substruct {

using Clock = std::chrono::steady_clock;

/// Seconds from `start` to now.
inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace substruct
