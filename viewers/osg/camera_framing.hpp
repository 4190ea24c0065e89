// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the camera starts: "up" against gravity, looking along the thinnest horizontal axis of the
// object's rest bounding box (a cantilever is seen from the side), turned a little and from
// above, far enough for the whole box to fit the field of view.
#include <osg/Vec3d>

#include "substruct/core/types.hpp"

namespace substruct::viewer {

struct CameraPose {
  osg::Vec3d eye, center, up;
};

/// `gravity` may be zero (then +y is up); `aspect` = width / height; `fovy` in degrees.
CameraPose frame_box(const Vec3& center, const Vec3& extent, const Vec3& gravity, double aspect,
                     double fovy);

}  // namespace substruct::viewer
