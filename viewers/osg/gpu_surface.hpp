// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The GPU path of a lane's render surface: the model buffer (every entry of
// gpu_geometry_layout.hpp) uploaded once as a texture buffer, the frames (poses and q of every
// domain) as another, rewritten each frame, and one draw per group, instanced for the copies of
// a shared model, whose vertex shader (gpu_geometry_shader.hpp) evaluates x = p + R (X̄ + U q).
#include <string>
#include <vector>

#include <osg/Geometry>
#include <osg/Group>
#include <osg/Image>
#include <osg/TextureBuffer>
#include <osg/ref_ptr>

#include "gpu_geometry_layout.hpp"
#include "substruct/sim/simulation.hpp"

namespace substruct::viewer {

/// What the context offers the GPU path: GLSL 1.50, texture buffers and instanced draws.
struct GpuCapability {
  bool available = false;
  bool software = false;  // a software rasteriser (Mesa's llvmpipe, softpipe)
  std::string reason;     // why not, when not
  std::string renderer;   // GL_RENDERER and GL_VERSION
};

/// Probes `context` (realized, made current here and released) for the GPU path.
GpuCapability probe_gpu(osg::GraphicsContext& context);

class GpuSurface {
 public:
  /// The layout of the simulation's render surface (its rest normals `normals`); throws Error
  /// with the reason when its method cannot be drawn so (no reduced layout, modal warping).
  GpuSurface(Simulation& sim, const Points& normals);

  /// The draws with their program and buffers; `box` (world) bounds what they draw.
  osg::Node* node() const { return node_.get(); }
  void set_bound(const osg::BoundingBox& box);
  /// The frames of the simulation's current state.
  void update(Simulation& sim);
  /// Colours per render vertex (the copies of a model take the colour of their first vertex).
  void set_colours(const osg::Vec4Array& colours);
  /// Unlit: the colours drawn as they are (a wireframe ghost).
  void set_unlit(bool unlit);

  const GpuGeometryLayout& layout() const { return layout_; }
  osg::Geometry* draw(std::size_t g) const { return draws_[g].get(); }
  osg::TextureBuffer* model_buffer() const { return model_.get(); }
  osg::TextureBuffer* frame_buffer() const { return frames_.get(); }

 private:
  GpuGeometryLayout layout_;
  osg::ref_ptr<osg::Group> node_;
  std::vector<osg::ref_ptr<osg::Geometry>> draws_;
  osg::ref_ptr<osg::Image> model_image_, frame_image_;
  osg::ref_ptr<osg::TextureBuffer> model_, frames_;
  std::vector<float> model_texels_, frame_texels_, domain_colours_;
  std::vector<DomainPose> poses_;
};

}  // namespace substruct::viewer
