// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// From the framework's reduced layout, poses and render surface to geometry-cuda's flat arrays
// (flat_geometry.hpp), in double or float.
#include <span>
#include <vector>

#include "flat_geometry.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/geometry/render_surface.hpp"

namespace substruct::geometry_cuda {

/// The layout (finalize()d first if it was not), with every vertex's slots in ascending domain
/// order.
template <class T>
FlatLayout<T> flatten_layout(const ReducedGeometry& geometry);

/// The embedding and triangles, with each render vertex's triangles in ascending order.
template <class T>
FlatSurface<T> flatten_surface(const RenderSurface& surface);

/// One step's input (DeviceGeometry::step_input's form): each domain's frame with an instance's
/// turn and offset folded in (x = (p + R δ) + (R Rᵢ) x_rep, ν' = Rᵢᵀ(ν + ω × δ), ω' = Rᵢᵀ ω),
/// then q, then q̇ when `velocities`. Throws Error naming a domain whose q or q̇ has the wrong
/// size, or when the number of poses is not the number of domains. [first, last) packs only those
/// domains (several threads may pack disjoint ranges into one `out`).
template <class T>
void pack_step(const FlatLayout<T>& layout, std::span<const DomainPose> poses, bool velocities,
               T* out, std::size_t first = 0, std::size_t last = ~std::size_t(0));

}  // namespace substruct::geometry_cuda
