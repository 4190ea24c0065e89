// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpu_readback.hpp"

#include <algorithm>
#include <cmath>

#include <osg/Geode>
#include <osg/Program>
#include <osg/Shader>
#include <osg/Uniform>

#include "gpu_geometry_shader.hpp"

namespace substruct::viewer {
namespace {
constexpr int kWidth = 1024;  // pixels per row of the image
}

GpuReadback::GpuReadback(const GpuSurface& surface) : camera_(new osg::Camera) {
  const GpuGeometryLayout& layout = surface.layout();
  std::size_t total = 0;
  for (const GpuDrawGroup& g : layout.groups) total += g.copies() * g.vertices();
  width_ = kWidth;
  height_ = std::max(1, static_cast<int>((total + kWidth - 1) / kWidth));

  image_ = new osg::Image;
  image_->allocateImage(width_, height_, 1, GL_RGBA, GL_FLOAT);
  image_->setInternalTextureFormat(GL_RGBA32F_ARB);
  camera_->setRenderOrder(osg::Camera::PRE_RENDER);
  camera_->setRenderTargetImplementation(osg::Camera::FRAME_BUFFER_OBJECT);
  camera_->setReferenceFrame(osg::Transform::ABSOLUTE_RF);
  camera_->setViewport(0, 0, width_, height_);
  camera_->setProjectionMatrix(osg::Matrix::identity());
  camera_->setViewMatrix(osg::Matrix::identity());
  camera_->setComputeNearFarMode(osg::CullSettings::DO_NOT_COMPUTE_NEAR_FAR);
  camera_->setClearColor({0.f, 0.f, 0.f, 0.f});
  camera_->setClearMask(GL_COLOR_BUFFER_BIT);
  camera_->setCullingActive(false);
  camera_->attach(osg::Camera::COLOR_BUFFER, image_.get());

  auto* program = new osg::Program;
  program->addShader(new osg::Shader(osg::Shader::VERTEX, readback_vertex_shader()));
  program->addShader(new osg::Shader(osg::Shader::FRAGMENT, readback_fragment_shader()));
  program->addBindAttribLocation("substruct_entry", kEntryAttribute);
  osg::StateSet* ss = camera_->getOrCreateStateSet();
  ss->setAttributeAndModes(program);
  ss->setMode(GL_DEPTH_TEST, osg::StateAttribute::OFF);
  ss->setMode(GL_BLEND, osg::StateAttribute::OFF);
  ss->setTextureAttribute(0, surface.model_buffer());
  ss->setTextureAttribute(1, surface.frame_buffer());
  ss->addUniform(new osg::Uniform("substruct_model", 0));
  ss->addUniform(new osg::Uniform("substruct_frames", 1));
  ss->addUniform(new osg::Uniform("substruct_readback_width", width_));
  ss->addUniform(new osg::Uniform("substruct_readback_height", height_));

  // Each draw again as points (DrawArrays: gl_VertexID is the vertex), its uniforms shared.
  auto* geode = new osg::Geode;
  geode->setCullingActive(false);
  int base = 0;
  for (std::size_t g = 0; g < layout.groups.size(); ++g) {
    const GpuDrawGroup& group = layout.groups[g];
    if (group.vertices() == 0) continue;
    const osg::Geometry* draw = surface.draw(g);
    osg::ref_ptr<osg::Geometry> points = new osg::Geometry;
    points->setUseDisplayList(false);
    points->setUseVertexBufferObjects(true);
    points->setCullingActive(false);
    points->setVertexArray(const_cast<osg::Array*>(draw->getVertexArray()));
    points->setVertexAttribArray(
        kEntryAttribute, const_cast<osg::Array*>(draw->getVertexAttribArray(kEntryAttribute)),
        osg::Array::BIND_PER_VERTEX);
    points->setColorArray(const_cast<osg::Array*>(draw->getColorArray()),
                          draw->getColorArray()->getBinding());
    points->addPrimitiveSet(new osg::DrawArrays(
        GL_POINTS, 0, static_cast<GLsizei>(group.vertices()), static_cast<int>(group.copies())));
    osg::StateSet* ps = points->getOrCreateStateSet();
    ps->addUniform(new osg::Uniform("substruct_instanced", group.instanced));
    ps->addUniform(new osg::Uniform("substruct_frame_base", group.frame_base));
    ps->addUniform(new osg::Uniform("substruct_frame_stride", group.frame_stride));
    ps->addUniform(new osg::Uniform("substruct_readback_base", base));
    ps->addUniform(new osg::Uniform("substruct_readback_vertices", int(group.vertices())));
    geode->addDrawable(points);
    base += static_cast<int>(group.copies() * group.vertices());
  }
  camera_->addChild(geode);
}

GpuReadbackResult GpuReadback::compare(const GpuSurface& surface, const Points& cpu) const {
  GpuReadbackResult result;
  const auto* pixels = reinterpret_cast<const float*>(image_->data());
  std::size_t pixel = 0;
  for (const GpuDrawGroup& group : surface.layout().groups)
    for (std::size_t i = 0; i < group.copies(); ++i)
      for (std::size_t v = 0; v < group.vertices(); ++v, ++pixel) {
        const float* x = pixels + 4 * pixel;
        ++result.vertices;
        if (x[3] != 1.f) {
          ++result.missing;
          continue;
        }
        const Index k = group.render_vertex[i * group.vertices() + v];
        const Vec3 d = Vec3(double(x[0]), double(x[1]), double(x[2])) - cpu.row(k).transpose();
        result.largest_distance = std::max(result.largest_distance, d.norm());
      }
  return result;
}

}  // namespace substruct::viewer
