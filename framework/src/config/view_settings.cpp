// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/view_settings.hpp"

namespace substruct {

const OptionSet<ViewSettings>& view_options() {
  using S = ViewSettings;
  static const auto options =
      OptionSet<S>("view", "the viewer (substruct view)")
          .choice("geometry", &S::geometry,
                  {{"auto", ViewGeometry::automatic},
                   {"gpu", ViewGeometry::gpu},
                   {"cpu", ViewGeometry::cpu}},
                  "where the drawn surface of a reduced method is computed: auto (gpu, except on a "
                  "software rasteriser such as Mesa's llvmpipe, which runs the vertex shader "
                  "slower than the CPU path computes the positions), gpu (a vertex "
                  "shader evaluates x = p + R (X̄ + U q) and the render embedding from buffers "
                  "uploaded once, copies of a model drawn instanced; only q and the frames are "
                  "sent each frame; normals turn with the frames) or cpu (the geometry plugin's "
                  "positions and smooth normals, uploaded every frame). gpu falls back to cpu, "
                  "saying why, without OpenGL 3.1 and GLSL 1.50, for methods without a reduced "
                  "layout or with modal warping, and for the displacement and error colourings");
  return options;
}

}  // namespace substruct
