// SPDX-License-Identifier: GPL-3.0-or-later
#include "contact_view.hpp"

#include <cmath>

#include <osg/BlendFunc>
#include <osg/Depth>
#include <osg/Geode>
#include <osg/Material>
#include <osg/Point>
#include <osg/Shape>
#include <osg/ShapeDrawable>
#include <osgUtil/SmoothingVisitor>

#include <Eigen/Geometry>

#include "osg_vectors.hpp"
#include "substruct/contact/contact_service.hpp"
#include "substruct/contact/distance_grid.hpp"
#include "substruct/sim/simulation.hpp"

namespace substruct::viewer {
namespace {

const osg::Vec4 kObstacle(0.62f, 0.66f, 0.72f, 0.55f);  // translucent steel
const osg::Vec4 kContact(1.0f, 0.0f, 0.0f, 1.0f);       // pure red, unlit
constexpr float kContactPointSize = 6.0f;
constexpr int kDiscSegments = 48;

// A disc of `radius` around `c` in the plane with unit normal n, facing n.
osg::Geometry* plane_disc(const Vec3& n, const Vec3& c, double radius) {
  const auto [u, v] = plane_basis(n);
  auto* geometry = new osg::Geometry;
  auto* vertices = new osg::Vec3Array;
  auto* normals = new osg::Vec3Array;
  vertices->push_back(to_osg(c));
  for (int k = 0; k <= kDiscSegments; ++k) {
    const double a = 2 * 3.14159265358979 * k / kDiscSegments;
    vertices->push_back(to_osg(c + radius * (std::cos(a) * u + std::sin(a) * v)));
  }
  normals->push_back(to_osg(n));
  geometry->setVertexArray(vertices);
  geometry->setNormalArray(normals, osg::Array::BIND_OVERALL);
  geometry->addPrimitiveSet(new osg::DrawArrays(GL_TRIANGLE_FAN, 0, GLsizei(vertices->size())));
  return geometry;
}

// The obstacle's shape at its track's zero offset (null: a plane skipped).
osg::Drawable* shape_of(const Obstacle& o, const Vec3& center, double size,
                        const Vec3& skip_plane_along) {
  switch (o.shape) {
    case ObstacleShape::plane: {
      if (skip_plane_along.squaredNorm() > 0 && o.a.dot(skip_plane_along) > std::cos(M_PI / 180))
        return nullptr;
      // The object's centre projected onto n·x = D; 1.5 sizes around it.
      const Vec3 c = center - (o.a.dot(center) - o.size) * o.a;
      return plane_disc(o.a, c, 1.5 * size);
    }
    case ObstacleShape::sphere:
      return new osg::ShapeDrawable(new osg::Sphere(to_osg(o.a), float(o.size)));
    case ObstacleShape::capsule: {
      const Vec3 axis = o.b - o.a;
      auto* capsule =
          new osg::Capsule(to_osg(0.5 * (o.a + o.b)), float(o.size), float(axis.norm()));
      osg::Quat rotation;
      rotation.makeRotate(osg::Vec3(0, 0, 1), to_osg(axis.normalized()));
      capsule->setRotation(rotation);
      return new osg::ShapeDrawable(capsule);
    }
    case ObstacleShape::box:
      return new osg::ShapeDrawable(
          new osg::Box(to_osg(o.a), float(2 * o.b.x()), float(2 * o.b.y()), float(2 * o.b.z())));
    case ObstacleShape::mesh: {
      // The surface the field was made from, with smooth normals.
      auto* geometry = new osg::Geometry;
      auto* vertices = new osg::Vec3Array;
      for (Index i = 0; i < o.grid->surface.rows(); ++i)
        vertices->push_back(to_osg(o.grid->surface.row(i).transpose()));
      auto* triangles = new osg::DrawElementsUInt(GL_TRIANGLES);
      for (const auto& t : o.grid->triangles)
        for (const int v : t) triangles->push_back(unsigned(v));
      geometry->setVertexArray(vertices);
      geometry->addPrimitiveSet(triangles);
      osgUtil::SmoothingVisitor::smooth(*geometry);
      return geometry;
    }
  }
  return nullptr;
}

}  // namespace

std::optional<double> ground_plane_along(const ContactService* contact, const Vec3& up) {
  if (contact == nullptr) return std::nullopt;
  for (const Obstacle& o : contact->obstacles())
    if (o.shape == ObstacleShape::plane && o.track.empty() && o.a.dot(up) > std::cos(M_PI / 180))
      return o.size / o.a.dot(up);
  return std::nullopt;
}

ContactView::ContactView()
    : root_(new osg::Group), shapes_(new osg::Group), contacts_(new osg::Geometry) {
  // Translucent, lit, both faces, drawn after the opaque object without writing depth.
  osg::StateSet* ss = shapes_->getOrCreateStateSet();
  auto* material = new osg::Material;
  material->setDiffuse(osg::Material::FRONT_AND_BACK, kObstacle);
  material->setAmbient(osg::Material::FRONT_AND_BACK, kObstacle * 0.5f);
  material->setAlpha(osg::Material::FRONT_AND_BACK, kObstacle.a());
  ss->setAttributeAndModes(material);
  ss->setMode(GL_BLEND, osg::StateAttribute::ON);
  ss->setAttributeAndModes(new osg::BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
  ss->setAttributeAndModes(new osg::Depth(osg::Depth::LESS, 0.0, 1.0, false));
  ss->setRenderingHint(osg::StateSet::TRANSPARENT_BIN);
  root_->addChild(shapes_);

  // The touching vertices: unlit points over everything (last, no depth test).
  contacts_->setDataVariance(osg::Object::DYNAMIC);
  contacts_->setUseDisplayList(false);
  contacts_->setUseVertexBufferObjects(true);
  contacts_->setVertexArray(new osg::Vec3Array);
  auto* colours = new osg::Vec4Array;
  colours->push_back(kContact);
  contacts_->setColorArray(colours, osg::Array::BIND_OVERALL);
  contacts_->addPrimitiveSet(new osg::DrawArrays(GL_POINTS, 0, 0));
  auto* geode = new osg::Geode;
  geode->addDrawable(contacts_);
  osg::StateSet* ps = geode->getOrCreateStateSet();
  ps->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
  ps->setMode(GL_DEPTH_TEST, osg::StateAttribute::OFF);
  ps->setAttributeAndModes(new osg::Point(kContactPointSize));
  ps->setRenderBinDetails(100, "RenderBin");
  root_->addChild(geode);
}

void ContactView::rebuild(const ContactService* contact, const Vec3& center, double size,
                          const Vec3& skip_plane_along) {
  shapes_->removeChildren(0, shapes_->getNumChildren());
  moved_.clear();
  if (contact == nullptr) return;
  for (const Obstacle& o : contact->obstacles()) {
    osg::Drawable* drawable = shape_of(o, center, size, skip_plane_along);
    if (drawable == nullptr) {
      moved_.emplace_back();
      continue;
    }
    auto* geode = new osg::Geode;
    geode->addDrawable(drawable);
    auto* transform = new osg::MatrixTransform;
    transform->addChild(geode);
    shapes_->addChild(transform);
    moved_.emplace_back(transform);
  }
}

void ContactView::update(const Simulation& sim) {
  const ContactService* contact = sim.contact();
  auto* vertices = static_cast<osg::Vec3Array*>(contacts_->getVertexArray());
  vertices->clear();
  if (contact != nullptr) {
    for (std::size_t o = 0; o < moved_.size() && o < contact->obstacles().size(); ++o)
      if (moved_[o].valid())
        moved_[o]->setMatrix(
            osg::Matrix::translate(to_osg(contact->obstacles()[o].track.offset(sim.time()))));
    const Points& x = sim.positions();
    for (const Index v : contact->touching())
      if (v < x.rows()) vertices->push_back(to_osg(x.row(v).transpose()));
  }
  points_ = vertices->size();
  vertices->dirty();
  static_cast<osg::DrawArrays*>(contacts_->getPrimitiveSet(0))->setCount(GLsizei(points_));
  contacts_->dirtyBound();
}

void ContactView::set_shown(bool on) {
  root_->setNodeMask(on ? ~0u : 0u);
}

}  // namespace substruct::viewer
