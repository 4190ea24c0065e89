// SPDX-License-Identifier: GPL-3.0-or-later
// Keyframe tracks: linear between keyframes, held outside them; the text format and its errors.
#include "substruct/contact/keyframe_track.hpp"

#include <string>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"

namespace substruct {
namespace {

TEST(KeyframeTrack, InterpolatesLinearlyAndHoldsTheEnds) {
  const auto tracks = parse_keyframe_tracks("sphere1 0 0 0 0, 1 2 0 0, 3 2 4 0; ground 0.5 0 -1 0");
  ASSERT_EQ(tracks.size(), 2u);
  EXPECT_EQ(tracks[0].first, "sphere1");
  const KeyframeTrack& t = tracks[0].second;
  EXPECT_EQ(t.offset(-1), Vec3(0, 0, 0));
  EXPECT_TRUE(t.offset(0.25).isApprox(Vec3(0.5, 0, 0)));
  EXPECT_TRUE(t.offset(2).isApprox(Vec3(2, 2, 0)));
  EXPECT_EQ(t.offset(10), Vec3(2, 4, 0));
  EXPECT_EQ(tracks[1].second.offset(0), Vec3(0, -1, 0));
  EXPECT_EQ(KeyframeTrack{}.offset(1), Vec3::Zero());
  EXPECT_TRUE(parse_keyframe_tracks("").empty());
}

std::string error_of(const std::string& text) {
  try {
    parse_keyframe_tracks(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(KeyframeTrack, RefusesTracksThatAreNotMonotoneOrNotWhole) {
  EXPECT_EQ(error_of("box1 0 0 0 0 1 0 0 0 1 0 1 0"),
            "track 'box1': keyframe 3 at t = 1 s does not come after keyframe 2 at t = 1 s "
            "(times must increase strictly)");
  EXPECT_EQ(error_of("box1 0 0 0"),
            "track 'box1' has 3 numbers, expected four per keyframe (T X Y Z)");
  EXPECT_EQ(error_of("box1"), "track 'box1' has no keyframes (expected T X Y Z …)");
  EXPECT_EQ(error_of("box1 0 0 0 x"), "track 'box1': 'x' is not a finite number");
  EXPECT_EQ(error_of("box1 0 0 0 0; box1 1 0 0 0"), "track 'box1' is given twice");
}

}  // namespace
}  // namespace substruct
