// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// An obstacle's translation over time: keyframes (t_k, o_k) with strictly increasing times,
/// linear in between, held before the first and after the last.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

struct KeyframeTrack {
  std::vector<double> times;  // strictly increasing [s]
  std::vector<Vec3> offsets;  // the translation at each time [m]

  bool empty() const { return times.empty(); }
  /// o(t): linear between keyframes, the first before them, the last after (zero when empty).
  Vec3 offset(double t) const;
};

/// Reads "NAME T X Y Z T X Y Z …; NAME …" (numbers separated by blanks and/or commas, tracks by
/// ';'), in the order given. Throws Error saying what is wrong and in which track: a count of
/// numbers that is not a multiple of four, a number that is not finite, times not strictly
/// increasing (naming the two keyframes), an empty track or a name given twice.
std::vector<std::pair<std::string, KeyframeTrack>> parse_keyframe_tracks(std::string_view text);

}  // namespace substruct
