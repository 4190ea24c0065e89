// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpu_geometry_shader.hpp"

namespace substruct::viewer {
namespace {

// x = c + Σ_entries (R' (X̃ + Ũ q) + α p'), n = Σ R' ñ (gpu_geometry_layout.hpp). An entry's
// frame −1 is the drawn copy's: substruct_frame_base + gl_InstanceID × substruct_frame_stride.
// Frame texels: the rows of [R' | p'], the colour, then q in fours; so row · (u, α) = R' u + α p'.
constexpr const char* kReducedVertex = R"(#version 150 compatibility
uniform samplerBuffer substruct_model;
uniform samplerBuffer substruct_frames;
uniform int substruct_frame_base;
uniform int substruct_frame_stride;
uniform bool substruct_instanced;
in vec2 substruct_entry;

void reduced_vertex(out vec3 x, out vec3 n, out vec4 colour) {
  x = gl_Vertex.xyz;
  n = vec3(0.0);
  colour = gl_Color;
  int copy = substruct_frame_base + gl_InstanceID * substruct_frame_stride;
  if (substruct_instanced) colour = texelFetch(substruct_frames, copy + 3);
  int e = int(substruct_entry.x);
  int count = int(substruct_entry.y);
  for (int k = 0; k < count; ++k) {
    vec4 head = texelFetch(substruct_model, e);
    int f = head.x < 0.0 ? copy : int(head.x);
    int chunks = int(head.y);
    vec4 rest = texelFetch(substruct_model, e + 1);
    vec3 normal = texelFetch(substruct_model, e + 2).xyz;
    vec3 u = rest.xyz;
    for (int c = 0; c < chunks; ++c) {
      vec4 q = texelFetch(substruct_frames, f + 4 + c);
      u.x += dot(texelFetch(substruct_model, e + 3 + c), q);
      u.y += dot(texelFetch(substruct_model, e + 3 + chunks + c), q);
      u.z += dot(texelFetch(substruct_model, e + 3 + 2 * chunks + c), q);
    }
    vec4 r0 = texelFetch(substruct_frames, f);
    vec4 r1 = texelFetch(substruct_frames, f + 1);
    vec4 r2 = texelFetch(substruct_frames, f + 2);
    vec4 ua = vec4(u, rest.w);
    x += vec3(dot(r0, ua), dot(r1, ua), dot(r2, ua));
    n += vec3(dot(r0.xyz, normal), dot(r1.xyz, normal), dot(r2.xyz, normal));
    e += 3 + 3 * chunks;
  }
}
)";

// Light 0 as the fixed-function pipeline lights a vertex (no local viewer, no emission), on both
// sides; substruct_flat (alpha > 0) replaces it by one unlit colour (the shadow pass), and
// substruct_unlit draws the colour itself (a wireframe ghost).
constexpr const char* kDrawMain = R"(
uniform vec4 substruct_flat;
uniform bool substruct_unlit;

vec4 lit(vec3 N, vec3 eye, vec4 c) {
  vec4 light = gl_LightSource[0].position;
  vec3 L = normalize(light.w == 0.0 ? light.xyz : light.xyz - eye);
  float d = max(dot(N, L), 0.0);
  vec3 H = normalize(L + vec3(0.0, 0.0, 1.0));
  float s = d > 0.0 ? pow(max(dot(N, H), 0.0), gl_FrontMaterial.shininess) : 0.0;
  vec3 rgb = (gl_LightModel.ambient.rgb + gl_LightSource[0].ambient.rgb) * c.rgb +
             gl_LightSource[0].diffuse.rgb * c.rgb * d +
             gl_LightSource[0].specular.rgb * gl_FrontMaterial.specular.rgb * s;
  return vec4(rgb, c.a);
}

void main() {
  vec3 x, n;
  vec4 colour;
  reduced_vertex(x, n, colour);
  vec4 eye = gl_ModelViewMatrix * vec4(x, 1.0);
  gl_Position = gl_ProjectionMatrix * eye;
  if (substruct_flat.a > 0.0) {
    gl_FrontColor = gl_BackColor = substruct_flat;
  } else if (substruct_unlit) {
    gl_FrontColor = gl_BackColor = colour;
  } else {
    vec3 N = normalize(gl_NormalMatrix * n);
    gl_FrontColor = lit(N, eye.xyz, colour);
    gl_BackColor = lit(-N, eye.xyz, colour);
  }
}
)";

constexpr const char* kReadbackMain = R"(
uniform int substruct_readback_base;
uniform int substruct_readback_vertices;
uniform int substruct_readback_width;
uniform int substruct_readback_height;
out vec3 substruct_position;

void main() {
  vec3 x, n;
  vec4 colour;
  reduced_vertex(x, n, colour);
  substruct_position = x;
  int pixel = substruct_readback_base + gl_InstanceID * substruct_readback_vertices + gl_VertexID;
  vec2 at = vec2(float(pixel % substruct_readback_width), float(pixel / substruct_readback_width));
  vec2 size = vec2(float(substruct_readback_width), float(substruct_readback_height));
  gl_Position = vec4(2.0 * (at + 0.5) / size - 1.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
)";

constexpr const char* kReadbackFragment = R"(#version 150 compatibility
in vec3 substruct_position;
void main() { gl_FragColor = vec4(substruct_position, 1.0); }
)";

}  // namespace

std::string draw_vertex_shader() {
  return std::string(kReducedVertex) + kDrawMain;
}

std::string readback_vertex_shader() {
  return std::string(kReducedVertex) + kReadbackMain;
}

std::string readback_fragment_shader() {
  return kReadbackFragment;
}

}  // namespace substruct::viewer
