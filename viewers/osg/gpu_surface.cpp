// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpu_surface.hpp"

#include <fmt/format.h>
#include <osg/GLExtensions>
#include <osg/Geode>
#include <osg/GraphicsContext>
#include <osg/Program>
#include <osg/Shader>
#include <osg/Uniform>

#include "gpu_geometry_shader.hpp"
#include "substruct/core/error.hpp"

namespace substruct::viewer {
namespace {

// A draw's bound, fixed: its vertex array is not where the shader puts the vertices.
class FixedBound final : public osg::Drawable::ComputeBoundingBoxCallback {
 public:
  explicit FixedBound(const osg::BoundingBox& box) : box_(box) {}
  osg::BoundingBox computeBound(const osg::Drawable& /*drawable*/) const override { return box_; }

 private:
  osg::BoundingBox box_;
};

// A texture buffer over `texels` (4 floats each; the vector must outlive it and keep its size).
osg::ref_ptr<osg::TextureBuffer> texel_buffer(std::vector<float>& texels,
                                              osg::ref_ptr<osg::Image>& image) {
  if (texels.empty()) texels.assign(4, 0.f);  // a buffer texture needs a texel
  image = new osg::Image;
  image->setImage(static_cast<int>(texels.size() / 4), 1, 1, GL_RGBA32F_ARB, GL_RGBA, GL_FLOAT,
                  reinterpret_cast<unsigned char*>(texels.data()), osg::Image::NO_DELETE);
  osg::ref_ptr<osg::TextureBuffer> buffer = new osg::TextureBuffer(image.get());
  buffer->setInternalFormat(GL_RGBA32F_ARB);
  return buffer;
}

}  // namespace

GpuCapability probe_gpu(osg::GraphicsContext& context) {
  GpuCapability cap;
  if (!context.isRealized() || !context.makeCurrent()) {
    cap.reason = "the OpenGL context could not be made current";
    return cap;
  }
  const osg::GLExtensions* gl = osg::GLExtensions::Get(context.getState()->getContextID(), true);
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  const std::string name = renderer ? renderer : "";
  cap.software = name.find("llvmpipe") != std::string::npos ||
                 name.find("softpipe") != std::string::npos ||
                 name.find("swrast") != std::string::npos;
  cap.renderer = fmt::format("{}, OpenGL {}", renderer ? renderer : "?", version ? version : "?");
  if (gl->glVersion < 3.1f)
    cap.reason =
        fmt::format("OpenGL {:.1f} < 3.1 (texture buffers, instanced draws)", gl->glVersion);
  else if (gl->glslLanguageVersion < 1.5f)
    cap.reason = fmt::format("GLSL {:.2f} < 1.50", gl->glslLanguageVersion);
  else if (gl->glTexBuffer == nullptr || gl->glDrawElementsInstanced == nullptr)
    cap.reason = "no glTexBuffer or glDrawElementsInstanced";
  else
    cap.available = true;
  context.releaseContext();
  return cap;
}

GpuSurface::GpuSurface(Simulation& sim, const Points& normals) : node_(new osg::Group) {
  const ReducedGeometry* geometry = sim.method().reduced_geometry();
  if (geometry == nullptr)
    throw Error("the method exposes no reduced layout (x = p + R (X̄ + U q)) to evaluate");
  layout_ = gpu_geometry_layout(*geometry, sim.render_surface(), normals);
  model_texels_ = std::move(layout_.model);
  layout_.model.clear();
  model_ = texel_buffer(model_texels_, model_image_);
  domain_colours_.assign(4 * geometry->domains.size(), 1.f);
  update(sim);
  frames_ = texel_buffer(frame_texels_, frame_image_);
  frames_->setDataVariance(osg::Object::DYNAMIC);

  auto* program = new osg::Program;
  program->addShader(new osg::Shader(osg::Shader::VERTEX, draw_vertex_shader()));
  program->addBindAttribLocation("substruct_entry", kEntryAttribute);
  osg::StateSet* ss = node_->getOrCreateStateSet();
  // Protected: the shadow pass's own program (an override) must not replace it; it sets
  // substruct_flat instead.
  ss->setAttributeAndModes(program, osg::StateAttribute::ON | osg::StateAttribute::PROTECTED);
  ss->setTextureAttribute(0, model_.get());
  ss->setTextureAttribute(1, frames_.get());
  ss->addUniform(new osg::Uniform("substruct_model", 0));
  ss->addUniform(new osg::Uniform("substruct_frames", 1));
  ss->addUniform(new osg::Uniform("substruct_unlit", false));
  ss->setMode(GL_VERTEX_PROGRAM_TWO_SIDE, osg::StateAttribute::ON);

  auto* geode = new osg::Geode;
  for (const GpuDrawGroup& group : layout_.groups) {
    osg::ref_ptr<osg::Geometry> g = new osg::Geometry;
    g->setUseDisplayList(false);
    g->setUseVertexBufferObjects(true);
    auto* constant = new osg::Vec3Array(static_cast<unsigned>(group.vertices()));
    auto* entries = new osg::Vec2Array(static_cast<unsigned>(group.vertices()));
    for (std::size_t v = 0; v < group.vertices(); ++v) {
      (*constant)[v].set(group.constant[3 * v], group.constant[3 * v + 1],
                         group.constant[3 * v + 2]);
      (*entries)[v].set(group.entries[2 * v], group.entries[2 * v + 1]);
    }
    g->setVertexArray(constant);
    g->setVertexAttribArray(kEntryAttribute, entries, osg::Array::BIND_PER_VERTEX);
    auto* colours = new osg::Vec4Array(group.instanced ? 1u : constant->size());
    g->setColorArray(colours,
                     group.instanced ? osg::Array::BIND_OVERALL : osg::Array::BIND_PER_VERTEX);
    auto* triangles =
        new osg::DrawElementsUInt(GL_TRIANGLES, group.triangles.begin(), group.triangles.end());
    if (group.instanced) triangles->setNumInstances(static_cast<int>(group.copies()));
    g->addPrimitiveSet(triangles);
    osg::StateSet* gs = g->getOrCreateStateSet();
    gs->addUniform(new osg::Uniform("substruct_instanced", group.instanced));
    gs->addUniform(new osg::Uniform("substruct_frame_base", group.frame_base));
    gs->addUniform(new osg::Uniform("substruct_frame_stride", group.frame_stride));
    if (group.vertices() > 0) geode->addDrawable(g);
    draws_.push_back(g);
  }
  node_->addChild(geode);
}

void GpuSurface::set_bound(const osg::BoundingBox& box) {
  for (auto& g : draws_) {
    g->setComputeBoundingBoxCallback(new FixedBound(box));
    g->dirtyBound();
  }
}

void GpuSurface::update(Simulation& sim) {
  const ReducedGeometry* geometry = sim.method().reduced_geometry();
  if (geometry == nullptr) return;
  sim.method().domain_poses(poses_);
  const std::size_t size = frame_texels_.size();
  pack_frames(layout_, *geometry, poses_, domain_colours_, frame_texels_);
  if (frame_image_ && frame_texels_.size() == size) frame_image_->dirty();
}

void GpuSurface::set_colours(const osg::Vec4Array& colours) {
  for (std::size_t g = 0; g < layout_.groups.size(); ++g) {
    const GpuDrawGroup& group = layout_.groups[g];
    if (group.instanced) {
      for (std::size_t i = 0; i < group.copies(); ++i) {
        const osg::Vec4& c =
            colours[static_cast<unsigned>(group.render_vertex[i * group.vertices()])];
        for (int k = 0; k < 4; ++k)
          domain_colours_[4 * std::size_t(group.domains[i]) + std::size_t(k)] = c[k];
      }
      continue;
    }
    auto* array = static_cast<osg::Vec4Array*>(draws_[g]->getColorArray());
    for (std::size_t v = 0; v < group.vertices(); ++v)
      (*array)[v] = colours[static_cast<unsigned>(group.render_vertex[v])];
    array->dirty();
  }
  for (std::size_t d = 0; d < layout_.frame_offset.size(); ++d)
    for (int k = 0; k < 4; ++k)
      frame_texels_[4 * (std::size_t(layout_.frame_offset[d]) + 3) + std::size_t(k)] =
          domain_colours_[4 * d + std::size_t(k)];
  if (frame_image_) frame_image_->dirty();
}

void GpuSurface::set_unlit(bool unlit) {
  node_->getOrCreateStateSet()->getUniform("substruct_unlit")->set(unlit);
}

}  // namespace substruct::viewer
