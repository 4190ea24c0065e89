// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/mode_count.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

int mode_count(Index elements, Index max_elements, int max_modes) {
  if (elements < 1 || elements > max_elements)
    throw Error(fmt::format(
        "mode count: a domain of {} elements does not fit 1 ≤ e ≤ e_max = {} (e_max must be the "
        "largest domain's element count)",
        elements, max_elements));
  if (max_modes < 0) throw Error(fmt::format("mode count: r_max = {} is negative", max_modes));
  if (elements == max_elements) return max_modes;
  // r = max(5, ⌊r_max log(e) / log(e_max)⌋), here e < e_max so e_max ≥ 2.
  const double scaled = max_modes * std::log(double(elements)) / std::log(double(max_elements));
  const int r = static_cast<int>(std::floor(scaled + 1e-9));
  return std::min(max_modes, std::max(5, r));
}

}  // namespace substruct
