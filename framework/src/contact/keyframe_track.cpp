// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/contact/keyframe_track.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/parse_number.hpp"
#include "substruct/core/trim.hpp"

namespace substruct {

Vec3 KeyframeTrack::offset(double t) const {
  if (times.empty()) return Vec3::Zero();
  if (t <= times.front()) return offsets.front();
  if (t >= times.back()) return offsets.back();
  const auto k = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), t) -
                                          times.begin());  // times[k−1] ≤ t < times[k]
  const double s = (t - times[k - 1]) / (times[k] - times[k - 1]);
  return (1 - s) * offsets[k - 1] + s * offsets[k];
}

std::vector<std::pair<std::string, KeyframeTrack>> parse_keyframe_tracks(std::string_view text) {
  std::vector<std::pair<std::string, KeyframeTrack>> tracks;
  for (const std::string& part : split_trimmed(text, ';')) {
    if (part.empty()) continue;
    std::string words = part;
    std::replace(words.begin(), words.end(), ',', ' ');
    std::istringstream in(words);
    std::string name, word;
    in >> name;
    std::vector<double> numbers;
    while (in >> word) {
      const std::optional<double> x = parse_number(word);
      if (!x || !std::isfinite(*x))
        throw Error(fmt::format("track '{}': '{}' is not a finite number", name, word));
      numbers.push_back(*x);
    }
    if (numbers.empty())
      throw Error(fmt::format("track '{}' has no keyframes (expected T X Y Z …)", name));
    if (numbers.size() % 4 != 0)
      throw Error(fmt::format("track '{}' has {} numbers, expected four per keyframe (T X Y Z)",
                              name, numbers.size()));
    for (const auto& [other, track] : tracks)
      if (other == name) throw Error(fmt::format("track '{}' is given twice", name));
    KeyframeTrack track;
    for (std::size_t k = 0; k < numbers.size(); k += 4) {
      const double t = numbers[k];
      if (!track.times.empty() && !(t > track.times.back()))
        throw Error(
            fmt::format("track '{}': keyframe {} at t = {} s does not come after keyframe "
                        "{} at t = {} s (times must increase strictly)",
                        name, k / 4 + 1, t, k / 4, track.times.back()));
      track.times.push_back(t);
      track.offsets.emplace_back(numbers[k + 1], numbers[k + 2], numbers[k + 3]);
    }
    tracks.emplace_back(name, std::move(track));
  }
  return tracks;
}

}  // namespace substruct
