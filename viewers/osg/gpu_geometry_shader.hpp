// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The GPU path's shaders (GLSL 1.50, compatibility profile: the fixed-function matrices, light
// and material stay available). One function evaluates a vertex of the reduced render surface
// from the model and frame buffers (gpu_geometry_layout.hpp); the drawing shader lights it as the
// fixed-function pipeline does (light 0, two-sided, colour as ambient and diffuse), the readback
// shader writes it into a float image, one pixel per drawn vertex.
#include <string>

namespace substruct::viewer {

/// Vertex attribute locations of the GPU path.
constexpr unsigned kEntryAttribute = 6;  // (first texel, count) of the vertex's entries

/// The drawing program's vertex shader (the fixed-function fragment stage colours it).
std::string draw_vertex_shader();
/// The readback program: vertex v of copy i of a draw lands on pixel
/// substruct_readback_base + i × (draw's vertices) + v of a substruct_readback_width-wide image.
std::string readback_vertex_shader();
std::string readback_fragment_shader();

}  // namespace substruct::viewer
