// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The check of the GPU path against the CPU path, without a screenshot: a pre-render camera
// draws every vertex of every draw of a GpuSurface as one point on its own pixel of a float
// image (the readback shader writes the position the drawing shader computes), the image is read
// back, and each vertex is compared with the CPU path's render position of the render vertex it
// is.
#include <osg/Camera>
#include <osg/Image>
#include <osg/ref_ptr>

#include "gpu_surface.hpp"

namespace substruct::viewer {

struct GpuReadbackResult {
  double largest_distance = 0;  // max |x_gpu − x_cpu| over the drawn vertices [m]
  std::size_t vertices = 0;     // drawn vertices compared (every copy's)
  std::size_t missing = 0;      // pixels the draw did not write
};

class GpuReadback {
 public:
  explicit GpuReadback(const GpuSurface& surface);
  /// The camera to add to the scene for one frame (it renders before the rest).
  osg::Camera* camera() const { return camera_.get(); }
  /// After that frame: the comparison with `cpu` (render positions, one row per render vertex).
  GpuReadbackResult compare(const GpuSurface& surface, const Points& cpu) const;

 private:
  osg::ref_ptr<osg::Camera> camera_;
  osg::ref_ptr<osg::Image> image_;
  int width_ = 0, height_ = 0;
};

}  // namespace substruct::viewer
