// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The reduced render surface as the GPU path's vertex shader reads it (no OpenGL here: plain
// arrays of RGBA texels and vertex attributes).
//
// A render vertex is y = Σ_a w_a x_a over its tet's vertices (render_embedding), and each x_a the
// average of its domains' p + R (X̄ + U q) (reduced_geometry), so y is a sum over the few
// domains d that reach it:
//   y = c + Σ_d ( α_d p_d + R_d (X̃_d + Ũ_d q_d) ),   α_d = Σ_{a∈d} w_a / c_a,
//   X̃_d = Σ_{a∈d} (w_a / c_a) X̄_a,   Ũ_d = Σ_{a∈d} (w_a / c_a) U_a   (3×r),
// c the rest positions of the vertices no domain covers (c_a: the number of domains covering a).
// Each (vertex, domain) term is an entry in the static model buffer, in the axes of the domain's
// rest shape and basis: an instance's terms are its representative's, its frame folded into
// R' = R Rᵢ, p' = p + R δ (as the CPU kernel does). Per frame only the frames [R' | p'] and the q
// of every domain are sent (pack_frames).
//
// Triangles whose three vertices belong to one instanced domain alone (its representative's
// triangles, matched vertex by vertex in local numbering and weights) are drawn once for all the
// copies of that model (instanced); the rest of the surface (interfaces between domains, domains
// with a basis of their own) is one draw whose entries name their domain.
//
// Normals are the rest normals turned with each domain's frame (Σ_d α_d R'_d R'_{d,0}ᵀ n̄): the
// local deformation U q does not tilt them.
#include <span>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/geometry/render_surface.hpp"

namespace substruct::viewer {

/// Texels (4 floats) of a domain's frame: the rows of [R' | p'], its colour, then ⌈r/4⌉ of q.
constexpr int kFrameHeader = 4;
/// Texels of an entry before its basis rows: (frame or −1, ⌈r/4⌉, 0, 0), (X̃, α), (ñ, 0).
constexpr int kEntryHeader = 3;

/// One draw: triangles over its own vertices, drawn `domains.size()` times when instanced.
struct GpuDrawGroup {
  bool instanced = false;
  std::vector<unsigned> triangles;       // 3 per triangle, indices into this group's vertices
  std::vector<float> constant;           // per vertex xyz: c
  std::vector<float> entries;            // per vertex (first texel, count) of its entries
  std::vector<int> domains;              // instanced: the copies, in frame order
  int frame_base = 0, frame_stride = 0;  // copy i's frame starts at base + i × stride
  /// The render vertex that vertex v of copy i is: render_vertex[i × vertices() + v]
  /// (one copy when not instanced).
  std::vector<Index> render_vertex;

  std::size_t vertices() const { return constant.size() / 3; }
  std::size_t copies() const { return instanced ? domains.size() : 1; }
};

struct GpuGeometryLayout {
  std::vector<float> model;  // static RGBA texels: the entries
  std::vector<GpuDrawGroup> groups;
  std::vector<int> frame_offset;  // per domain: its first frame texel
  std::vector<int> chunks;        // per domain: ⌈r/4⌉
  std::size_t frame_texels = 0;
  std::size_t model_domains = 0;  // distinct rest shapes and bases with triangles drawn instanced

  std::size_t draws() const { return groups.size(); }
};

/// The layout of `surface` (embedded in the tets of the mesh whose rest positions
/// geometry.rest_positions are) under `geometry` (finalized). `normals`: the rest render
/// surface's smooth normals (vertex_normals). Throws Error when a domain has a modal rotation
/// basis Ψ (modal warping is not drawn by the shader).
GpuGeometryLayout gpu_geometry_layout(const ReducedGeometry& geometry, const RenderSurface& surface,
                                      const Points& normals);

/// The frames of every domain for `poses` as RGBA texels (layout.frame_texels × 4 floats, sized
/// here), each domain's colour texel from `colours` (4 floats per domain).
void pack_frames(const GpuGeometryLayout& layout, const ReducedGeometry& geometry,
                 std::span<const DomainPose> poses, std::span<const float> colours,
                 std::vector<float>& texels);

}  // namespace substruct::viewer
