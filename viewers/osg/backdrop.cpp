// SPDX-License-Identifier: GPL-3.0-or-later
#include "backdrop.hpp"
#include "osg_vectors.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <Eigen/Geometry>
#include <osg/BlendFunc>
#include <osg/Depth>
#include <osg/Geode>
#include <osg/Geometry>
#include <osg/Program>
#include <osg/Shader>
#include <osg/TexEnvFilter>

namespace substruct::viewer {

namespace {

// The shadow's resolution over the ground's square (3 object sizes across): bilinear filtering
// of its texels softens the shadow's edge over about 2 % of the object's size.
constexpr int kShadowTexels = 128;
constexpr int kGroundSegments = 48;
constexpr float kShadowBlur = 3.f;  // mipmap levels: the edge spreads over about 2³ texels

// Top and bottom of the background gradient, and the ground's colour.
const osg::Vec4 kSkyTop{0.30f, 0.33f, 0.38f, 1.f};
const osg::Vec4 kSkyBottom{0.78f, 0.79f, 0.80f, 1.f};
const osg::Vec4 kGround{0.86f, 0.85f, 0.83f, 1.f};
// The ground's rings (fractions of its radius) and their opacity: it fades into the background.
constexpr double kRings[] = {0.0, 0.55, 0.8, 1.0};
constexpr float kRingAlpha[] = {1.f, 1.f, 0.55f, 0.f};

// A full-viewport quad behind everything, top colour to bottom colour.
osg::ref_ptr<osg::Camera> gradient() {
  osg::ref_ptr<osg::Camera> camera = new osg::Camera;
  camera->setReferenceFrame(osg::Transform::ABSOLUTE_RF);
  camera->setRenderOrder(osg::Camera::NESTED_RENDER);
  camera->setProjectionMatrix(osg::Matrix::ortho2D(0, 1, 0, 1));
  camera->setViewMatrix(osg::Matrix::identity());
  camera->setComputeNearFarMode(osg::CullSettings::DO_NOT_COMPUTE_NEAR_FAR);
  osg::ref_ptr<osg::Geometry> quad = new osg::Geometry;
  auto* v = new osg::Vec3Array;
  v->push_back({0, 0, 0});
  v->push_back({1, 0, 0});
  v->push_back({1, 1, 0});
  v->push_back({0, 1, 0});
  auto* c = new osg::Vec4Array;
  c->push_back(kSkyBottom);
  c->push_back(kSkyBottom);
  c->push_back(kSkyTop);
  c->push_back(kSkyTop);
  quad->setVertexArray(v);
  quad->setColorArray(c, osg::Array::BIND_PER_VERTEX);
  quad->addPrimitiveSet(new osg::DrawArrays(GL_QUADS, 0, 4));
  auto* geode = new osg::Geode;
  geode->addDrawable(quad);
  osg::StateSet* ss = camera->getOrCreateStateSet();
  ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
  ss->setMode(GL_DEPTH_TEST, osg::StateAttribute::OFF);
  auto* depth = new osg::Depth;
  depth->setWriteMask(false);
  ss->setAttributeAndModes(depth);
  ss->setRenderBinDetails(-10, "RenderBin");
  camera->addChild(geode);
  return camera;
}

// The shadow pass draws the object grey (the shadow's darkness) on white, whatever its own colours
// and lighting.
constexpr const char* kShadowVertex = R"(#version 120
void main() { gl_Position = ftransform(); }
)";
constexpr const char* kShadowFragment = R"(#version 120
void main() { gl_FragColor = vec4(0.42, 0.42, 0.42, 1.0); }
)";

}  // namespace

Backdrop::Backdrop() : root_(new osg::Group) {
  root_->addChild(gradient());

  shadow_ = new osg::Texture2D;
  shadow_->setTextureSize(kShadowTexels, kShadowTexels);
  shadow_->setInternalFormat(GL_RGBA);
  shadow_->setFilter(osg::Texture::MIN_FILTER, osg::Texture::LINEAR_MIPMAP_LINEAR);
  shadow_->setFilter(osg::Texture::MAG_FILTER, osg::Texture::LINEAR);
  shadow_->setWrap(osg::Texture::WRAP_S, osg::Texture::CLAMP_TO_EDGE);
  shadow_->setWrap(osg::Texture::WRAP_T, osg::Texture::CLAMP_TO_EDGE);

  shadow_camera_ = new osg::Camera;
  shadow_camera_->setReferenceFrame(osg::Transform::ABSOLUTE_RF);
  shadow_camera_->setRenderOrder(osg::Camera::PRE_RENDER);
  shadow_camera_->setRenderTargetImplementation(osg::Camera::FRAME_BUFFER_OBJECT);
  shadow_camera_->setViewport(0, 0, kShadowTexels, kShadowTexels);
  shadow_camera_->setClearColor({1.f, 1.f, 1.f, 1.f});
  shadow_camera_->setClearMask(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  shadow_camera_->setComputeNearFarMode(osg::CullSettings::DO_NOT_COMPUTE_NEAR_FAR);
  // Mipmaps after each render, sampled two levels blurrier (the ground's LOD bias): a soft edge.
  shadow_camera_->attach(osg::Camera::COLOR_BUFFER, shadow_.get(), 0, 0, true);
  auto* program = new osg::Program;
  program->addShader(new osg::Shader(osg::Shader::VERTEX, kShadowVertex));
  program->addShader(new osg::Shader(osg::Shader::FRAGMENT, kShadowFragment));
  osg::StateSet* ss = shadow_camera_->getOrCreateStateSet();
  ss->setAttributeAndModes(program, osg::StateAttribute::ON | osg::StateAttribute::OVERRIDE);
  ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF | osg::StateAttribute::OVERRIDE);
  root_->addChild(shadow_camera_);

  // The ground: its colour times the shadow texture (fixed function: one texture fetch).
  ground_ = new osg::Geode;
  osg::StateSet* gs = ground_->getOrCreateStateSet();
  gs->setTextureAttributeAndModes(0, shadow_.get());
  gs->setTextureAttribute(0, new osg::TexEnvFilter(kShadowBlur));
  gs->setMode(GL_BLEND, osg::StateAttribute::ON);
  gs->setAttributeAndModes(new osg::BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
  gs->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
  // Before the object (it lies behind it), after the gradient.
  gs->setRenderBinDetails(-5, "RenderBin");
  root_->addChild(ground_);
}

void Backdrop::place(const Vec3& center, const Vec3& extent, const Vec3& up, osg::Node* object,
                     std::optional<double> ground) {
  // Basis of the ground: u × v = up.
  const auto [u, v] = plane_basis(up);
  // The rest box's lowest point along up, less a small gap; a square 3 × the box across.
  const Vec3 half = 0.5 * extent;
  const double below = half.cwiseProduct(up.cwiseAbs()).sum();
  const double size = extent.norm();
  const Vec3 c = ground ? Vec3(center - (up.dot(center) - *ground) * up)
                        : Vec3(center - (below + 0.01 * size) * up);
  const double radius = 1.5 * size;

  // A disc of rings, opaque inside, transparent at the rim; texture coordinates map the square
  // [c − radius, c + radius]² (u, v) onto the shadow texture.
  osg::ref_ptr<osg::Geometry> disc = new osg::Geometry;
  auto* vertices = new osg::Vec3Array;
  auto* uvs = new osg::Vec2Array;
  auto* colours = new osg::Vec4Array;
  for (std::size_t ring = 0; ring < std::size(kRings); ++ring)
    for (int k = 0; k < kGroundSegments; ++k) {
      const double a = 2 * 3.14159265358979 * k / kGroundSegments;
      const double x = kRings[ring] * std::cos(a), y = kRings[ring] * std::sin(a);
      vertices->push_back(to_osg(c + radius * (x * u + y * v)));
      uvs->push_back({float(0.5 * (x + 1)), float(0.5 * (y + 1))});
      osg::Vec4 colour = kGround;
      colour.a() = kRingAlpha[ring];
      colours->push_back(colour);
    }
  auto* triangles = new osg::DrawElementsUShort(GL_TRIANGLES);
  for (std::size_t ring = 0; ring + 1 < std::size(kRings); ++ring)
    for (int k = 0; k < kGroundSegments; ++k) {
      const auto i = [&](std::size_t r, int s) {
        return static_cast<unsigned short>(r * kGroundSegments + (s % kGroundSegments));
      };
      for (unsigned short index : {i(ring, k), i(ring + 1, k), i(ring + 1, k + 1), i(ring, k),
                                   i(ring + 1, k + 1), i(ring, k + 1)})
        triangles->push_back(index);
    }
  disc->setVertexArray(vertices);
  disc->setTexCoordArray(0, uvs);
  disc->setColorArray(colours, osg::Array::BIND_PER_VERTEX);
  disc->addPrimitiveSet(triangles);
  ground_->removeDrawables(0, ground_->getNumDrawables());
  ground_->addDrawable(disc);

  // The shadow camera looks down −up at the same square: screen x along u, y along v.
  const Vec3 eye = c + 2.0 * size * up;
  shadow_camera_->setViewMatrixAsLookAt(to_osg(eye), to_osg(c), to_osg(v));
  shadow_camera_->setProjectionMatrixAsOrtho(-radius, radius, -radius, radius, 0.0,
                                             4.0 * size + 1e-6);
  shadow_camera_->removeChildren(0, shadow_camera_->getNumChildren());
  if (object != nullptr) shadow_camera_->addChild(object);
}

}  // namespace substruct::viewer
