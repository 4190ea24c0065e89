// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The interface of geometry plugins (geometry-cpu, geometry-cuda): world positions and
/// velocities of the volumetric vertices from a method's reduced layout and per-step poses
/// (geometry/reduced_geometry.hpp), and the render surface's positions and smooth normals from
/// the volumetric positions (geometry/render_surface.hpp). Selected by [solvers] geometry.
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/geometry/render_surface.hpp"
#include "substruct/plugin/component.hpp"

namespace substruct {

class GeometrySolver : public Component {
 public:
  /// The reduced layout, once after the method's precompute. Called again when the method
  /// changes. The layout must stay alive and unchanged until then (a method's layout() does):
  /// a solver may read it in place rather than keep a copy (geometry-cpu does; geometry-cuda
  /// flattens it onto the device).
  virtual void set_layout(const ReducedGeometry& layout) = 0;
  /// World positions x and velocities v (N×3 each; v may be null) for the given poses.
  virtual void world_state(const std::vector<DomainPose>& poses, Points& x, Points* v) = 0;

  /// The render surface, once (its embedding and triangles).
  virtual void set_surface(const RenderSurface& surface) = 0;
  /// Render positions y and smooth normals n (one row per render vertex) from volumetric x.
  virtual void render(const Points& x, Points& y, Points& normals) = 0;
};

}  // namespace substruct
