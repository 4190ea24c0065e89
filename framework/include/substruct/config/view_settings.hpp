// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The [view] section: how `substruct view` draws a scene.
#include "substruct/options/options.hpp"

namespace substruct {

/// Where the viewer computes the drawn surface of a reduced method.
enum class ViewGeometry {
  automatic,  // gpu, except on a software rasteriser (llvmpipe), where cpu is faster
  gpu,  // a vertex shader evaluates x = p + R (X̄ + U q); a frame sends only q and the frames
  cpu,  // the geometry plugin's render positions and normals, uploaded every frame
};

struct ViewSettings {
  ViewGeometry geometry = ViewGeometry::automatic;
};

const OptionSet<ViewSettings>& view_options();

}  // namespace substruct
