// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// geometry-cuda's CPU twin: the kernels' per-vertex functions (vertex_state.hpp) run in a loop
// on the host over the same flat arrays. It is what the tests check against geometry-cpu on
// machines without a GPU, and what `[geometry-cuda] fallback = cpu` runs when no device is usable.
#include "flat_geometry.hpp"
#include "vertex_state.hpp"

namespace substruct::geometry_cuda {

/// The layout's arrays as raw host pointers.
template <class T>
LayoutView<T> host_view(const FlatLayout<T>& layout);

/// The surface's arrays as raw host pointers.
template <class T>
SurfaceView<T> host_view(const FlatSurface<T>& surface);

/// x (and v unless null) of every vertex, 3N each, from one step's packed input (pack_step).
template <class T>
void host_world_state(const FlatLayout<T>& layout, const T* step_input, bool velocities, T* x,
                      T* v);

/// Render positions y and normals (3 per render vertex) from volumetric positions x; `faces` is
/// scratch of 3 per triangle.
template <class T>
void host_render(const FlatSurface<T>& surface, const T* x, T* y, T* faces, T* normals);

}  // namespace substruct::geometry_cuda
