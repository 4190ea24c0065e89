// SPDX-License-Identifier: GPL-3.0-or-later
#include "scene_graph.hpp"

#include <algorithm>
#include <cmath>

#include <osg/BlendFunc>
#include <osg/CullFace>
#include <osg/Depth>
#include <osg/Geode>
#include <osg/LightModel>
#include <osg/LineWidth>
#include <osg/Material>
#include <osg/Point>

#include <osg/PolygonMode>
#include <osg/Uniform>

#include <fmt/format.h>

#include "drag_spring.hpp"
#include "lane.hpp"
#include "substruct/config/view_settings.hpp"
#include "substruct/core/error.hpp"

namespace substruct::viewer {

namespace {

osg::Vec4 hsv(double h, double s, double v) {
  h = std::fmod(h, 1.0) * 6;
  const int i = static_cast<int>(h);
  const double f = h - i, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  double r = v, g = t, b = p;
  switch (i) {
    case 1:
      r = q, g = v, b = p;
      break;
    case 2:
      r = p, g = v, b = t;
      break;
    case 3:
      r = p, g = q, b = v;
      break;
    case 4:
      r = t, g = p, b = v;
      break;
    case 5:
      r = v, g = p, b = q;
      break;
    default:
      break;
  }
  return {float(r), float(g), float(b), 1.f};
}

osg::Vec4 heat(double s) {
  return heat_colour(s);
}

// Surface colours: plain, and the ghost's.
const osg::Vec4 kPlain{0.72f, 0.78f, 0.86f, 1.f};
const osg::Vec4 kGhostTranslucent{1.f, 0.62f, 0.2f, 0.38f};
const osg::Vec4 kGhostWire{1.f, 0.62f, 0.2f, 0.8f};

osg::ref_ptr<osg::Geometry> point_set(const osg::Vec4& colour, float size) {
  osg::ref_ptr<osg::Geometry> g = new osg::Geometry;
  g->setUseVertexBufferObjects(true);
  g->setDataVariance(osg::Object::DYNAMIC);
  g->setVertexArray(new osg::Vec3Array);
  auto* c = new osg::Vec4Array;
  c->push_back(colour);
  g->setColorArray(c, osg::Array::BIND_OVERALL);
  g->addPrimitiveSet(new osg::DrawArrays(GL_POINTS, 0, 0));
  osg::StateSet* ss = g->getOrCreateStateSet();
  ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
  ss->setAttributeAndModes(new osg::Point(size));
  return g;
}

void set_points(osg::Geometry* g, const Points& x, const std::vector<Index>& ids) {
  auto* v = static_cast<osg::Vec3Array*>(g->getVertexArray());
  v->resize(ids.size());
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const auto row = x.row(ids[k]);
    (*v)[k].set(float(row[0]), float(row[1]), float(row[2]));
  }
  v->dirty();
  static_cast<osg::DrawArrays*>(g->getPrimitiveSet(0))->setCount(static_cast<GLsizei>(ids.size()));
  g->dirtyBound();
}

}  // namespace

osg::Vec4 domain_colour(int domain) {
  if (domain < 0) return {0.6f, 0.6f, 0.6f, 1.f};
  return hsv(0.08 + 0.618033988749895 * domain, 0.55, 0.92);
}

osg::Vec4 heat_colour(double s) {
  s = std::clamp(s, 0.0, 1.0);
  return hsv((1 - s) * 0.66, 0.85, 0.95);
}

double error_scale(double reference_largest_displacement, double object_size) {
  return std::max(reference_largest_displacement, 1e-3 * object_size);
}

SceneGraph::SceneGraph(std::optional<GhostStyle> ghost) : root_(new osg::Group), ghost_(ghost) {
  if (!ghost_) return;
  // Drawn after the opaque surfaces, blended, without hiding what lies behind it.
  osg::StateSet* ss = root_->getOrCreateStateSet();
  ss->setMode(GL_BLEND, osg::StateAttribute::ON);
  ss->setAttributeAndModes(new osg::BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
  ss->setRenderingHint(osg::StateSet::TRANSPARENT_BIN);
  // LEQUAL: where it coincides with the object (the same method, or at rest) it is still drawn.
  ss->setAttributeAndModes(new osg::Depth(osg::Depth::LEQUAL, 0.0, 1.0, false));
  if (*ghost_ == GhostStyle::wireframe) {
    ss->setAttributeAndModes(
        new osg::PolygonMode(osg::PolygonMode::FRONT_AND_BACK, osg::PolygonMode::LINE));
    ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
  }
}

void SceneGraph::rebuild(Lane& lane) {
  Simulation& sim = lane.sim();
  root_->removeChildren(0, root_->getNumChildren());
  const Scene& scene = sim.scene();
  const RenderSurface& surface = sim.render_surface();

  surface_ = new osg::Geometry;
  surface_->setUseVertexBufferObjects(true);
  surface_->setDataVariance(osg::Object::DYNAMIC);
  const auto n = static_cast<unsigned>(surface.num_vertices());
  vertices_ = new osg::Vec3Array(n);
  normals_ = new osg::Vec3Array(n);
  colours_ = new osg::Vec4Array(n);
  surface_->setVertexArray(vertices_);
  surface_->setNormalArray(normals_, osg::Array::BIND_PER_VERTEX);
  surface_->setColorArray(colours_, osg::Array::BIND_PER_VERTEX);
  auto* triangles = new osg::DrawElementsUInt(GL_TRIANGLES);
  triangles->reserve(static_cast<std::size_t>(3 * surface.triangles.rows()));
  for (Eigen::Index t = 0; t < surface.triangles.rows(); ++t)
    for (int a = 0; a < 3; ++a)
      triangles->push_back(static_cast<unsigned>(surface.triangles(t, a)));
  surface_->addPrimitiveSet(triangles);
  dominant_.resize(n);
  for (unsigned k = 0; k < n; ++k)
    dominant_[k] = surface.embedding.dominant_vertex(static_cast<Index>(k));
  surface_geode_ = new osg::Geode;
  surface_geode_->addDrawable(surface_);

  // The look of the surface, whichever path draws it.
  surface_node_ = new osg::Group;
  osg::StateSet* ss = surface_node_->getOrCreateStateSet();
  auto* material = new osg::Material;
  material->setColorMode(osg::Material::AMBIENT_AND_DIFFUSE);
  material->setSpecular(osg::Material::FRONT_AND_BACK, osg::Vec4(0.25f, 0.25f, 0.25f, 1.f));
  material->setShininess(osg::Material::FRONT_AND_BACK, 24.f);
  ss->setAttributeAndModes(material);
  auto* light_model = new osg::LightModel;
  light_model->setTwoSided(true);  // thin leaves and petals are lit from both sides
  ss->setAttributeAndModes(light_model);
  ss->setMode(GL_NORMALIZE, osg::StateAttribute::ON);
  // A closed surface's back faces are hidden behind its front faces: not drawing them halves the
  // software rasteriser's work. An open render mesh (a sheet) shows both sides.
  if (surface.closed) ss->setAttributeAndModes(new osg::CullFace(osg::CullFace::BACK));
  root_->addChild(surface_node_);
  root_->getOrCreateStateSet()->addUniform(new osg::Uniform("substruct_flat", osg::Vec4()));

  // Rest bounds of the surface, for the camera and the GPU path's bound.
  const Points& rest = lane.render_rest();
  const Vec3 lo = rest.colwise().minCoeff().transpose();
  const Vec3 hi = rest.colwise().maxCoeff().transpose();
  rest_center_ = 0.5 * (lo + hi);
  rest_extent_ = (hi - lo).cwiseMax(1e-9);
  const std::string why_cpu = build_gpu(lane);
  std::printf(
      "geometry   %s%s: %s\n", lane.method().c_str(), ghost_ ? " (ghost)" : "",
      gpu_ ? fmt::format("gpu, {} draw{} ({} instanced model{}), {}", gpu_->layout().draws(),
                         gpu_->layout().draws() == 1 ? "" : "s", gpu_->layout().model_domains,
                         gpu_->layout().model_domains == 1 ? "" : "s", gpu_capability_.renderer)
                 .c_str()
           : fmt::format("cpu ({})", why_cpu).c_str());
  gpu_drawn_ = false;
  surface_node_->addChild(surface_geode_);
  coloured_as_.reset();

  if (ghost_) {
    const osg::Vec4 c = *ghost_ == GhostStyle::wireframe ? kGhostWire : kGhostTranslucent;
    for (auto& colour : *colours_) colour = c;
    if (gpu_) {
      gpu_->set_colours(*colours_);
      gpu_->set_unlit(*ghost_ == GhostStyle::wireframe);
    }
    update(lane, nullptr);
    return;
  }

  interface_vertices_.clear();
  for (const Interface& itf : scene.decomposition.interfaces)
    interface_vertices_.insert(interface_vertices_.end(), itf.vertices.begin(), itf.vertices.end());
  std::sort(interface_vertices_.begin(), interface_vertices_.end());
  interface_vertices_.erase(std::unique(interface_vertices_.begin(), interface_vertices_.end()),
                            interface_vertices_.end());
  fixed_vertices_ = scene.fixed_vertices;
  interfaces_ = point_set({1.f, 0.85f, 0.1f, 1.f}, 4.f);
  fixed_ = point_set({0.9f, 0.1f, 0.1f, 1.f}, 6.f);
  auto* overlay = new osg::Geode;
  overlay->addDrawable(interfaces_);
  overlay->addDrawable(fixed_);

  spring_line_ = new osg::Geometry;
  spring_line_->setUseVertexBufferObjects(true);
  spring_line_->setDataVariance(osg::Object::DYNAMIC);
  spring_line_->setVertexArray(new osg::Vec3Array(2));
  auto* line_colour = new osg::Vec4Array;
  line_colour->push_back({0.1f, 0.9f, 0.3f, 1.f});
  spring_line_->setColorArray(line_colour, osg::Array::BIND_OVERALL);
  spring_line_->addPrimitiveSet(new osg::DrawArrays(GL_LINES, 0, 0));
  spring_line_->getOrCreateStateSet()->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
  spring_line_->getOrCreateStateSet()->setAttributeAndModes(new osg::LineWidth(2.f));
  overlay->addDrawable(spring_line_);
  // Points and the spring line stay visible through the surface.
  overlay->getOrCreateStateSet()->setMode(GL_DEPTH_TEST, osg::StateAttribute::OFF);
  overlay->getOrCreateStateSet()->setRenderBinDetails(10, "RenderBin");
  root_->addChild(overlay);
  if (!built_) show_interfaces_ = interfaces_option_.value_or(scene.num_domains() <= 32);
  built_ = true;
  set_show_interfaces(show_interfaces_);
  set_show_fixed(show_fixed_);
  displacement_scale_ = 0;
  update(lane, nullptr);
}

std::string SceneGraph::build_gpu(Lane& lane) {
  gpu_.reset();
  Simulation& sim = lane.sim();
  const ViewGeometry choice = view_options().read(sim.config()).geometry;
  if (choice == ViewGeometry::cpu) return "[view] geometry = cpu";
  if (!gpu_capability_.available)
    return gpu_capability_.reason.empty() ? "no OpenGL context probed" : gpu_capability_.reason;
  if (choice == ViewGeometry::automatic && gpu_capability_.software)
    return "[view] geometry = auto on a software rasteriser: " + gpu_capability_.renderer;
  Points rest_normals;
  vertex_normals(lane.render_rest(), sim.render_surface().triangles, rest_normals);
  try {
    gpu_.emplace(sim, rest_normals);
  } catch (const Error& e) {
    return e.what();
  }
  // The shader moves the vertices: bound them by the rest box grown by the object's size.
  const Vec3 lo = rest_center_ - 0.5 * rest_extent_ - Vec3::Constant(rest_extent_.norm());
  const Vec3 hi = rest_center_ + 0.5 * rest_extent_ + Vec3::Constant(rest_extent_.norm());
  gpu_->set_bound(osg::BoundingBox(float(lo.x()), float(lo.y()), float(lo.z()), float(hi.x()),
                                   float(hi.y()), float(hi.z())));
  return {};
}

void SceneGraph::draw_on_gpu(bool on) {
  if (on == gpu_drawn_ || (on && !gpu_)) return;
  surface_node_->removeChildren(0, surface_node_->getNumChildren());
  surface_node_->addChild(on ? gpu_->node() : static_cast<osg::Node*>(surface_geode_.get()));
  gpu_drawn_ = on;
  coloured_as_.reset();
}

osg::Node* SceneGraph::pick_surface(Lane& lane) {
  if (gpu_drawn_) copy_render_state(lane);
  return surface_geode_.get();
}

void SceneGraph::copy_render_state(Lane& lane) {
  lane.update_render();
  const Points& x_render = lane.render_positions();
  const Points& n_render = lane.render_normals();
  if (x_render.rows() != static_cast<Index>(vertices_->size())) return;
  for (unsigned k = 0; k < vertices_->size(); ++k) {
    (*vertices_)[k].set(float(x_render(k, 0)), float(x_render(k, 1)), float(x_render(k, 2)));
    (*normals_)[k].set(float(n_render(k, 0)), float(n_render(k, 1)), float(n_render(k, 2)));
  }
  vertices_->dirty();
  normals_->dirty();
  surface_->dirtyBound();
}

void SceneGraph::set_show_interfaces(bool on) {
  show_interfaces_ = on;
  if (interfaces_) interfaces_->setNodeMask(on ? ~0u : 0u);
}

void SceneGraph::set_show_fixed(bool on) {
  show_fixed_ = on;
  if (fixed_) fixed_->setNodeMask(on ? ~0u : 0u);
}

Index SceneGraph::volumetric_vertex(unsigned render_vertex) const {
  return render_vertex < dominant_.size() ? dominant_[render_vertex] : -1;
}

void SceneGraph::update(Lane& lane, const Lane* reference) {
  if (!surface_) return;
  // The GPU path draws the constant colourings (its copies share a colour per domain).
  draw_on_gpu(gpu_ &&
              (ghost_ || colouring_ == Colouring::plain || colouring_ == Colouring::domains));
  if (gpu_drawn_)
    gpu_->update(lane.sim());
  else
    copy_render_state(lane);
  if (ghost_) return;
  Simulation& sim = lane.sim();
  const DragSpring* spring = lane.spring();
  colour(lane, reference);

  const Points& x = sim.positions();
  if (show_interfaces_) set_points(interfaces_.get(), x, interface_vertices_);
  if (show_fixed_) set_points(fixed_.get(), x, fixed_vertices_);
  auto* line = static_cast<osg::Vec3Array*>(spring_line_->getVertexArray());
  auto* draw = static_cast<osg::DrawArrays*>(spring_line_->getPrimitiveSet(0));
  if (spring != nullptr && spring->active()) {
    const auto p = x.row(spring->vertex());
    (*line)[0].set(float(p[0]), float(p[1]), float(p[2]));
    (*line)[1].set(float(spring->target()[0]), float(spring->target()[1]),
                   float(spring->target()[2]));
    draw->setCount(2);
  } else {
    draw->setCount(0);
  }
  line->dirty();
  spring_line_->dirtyBound();
}

void SceneGraph::colour(const Lane& lane, const Lane* reference) {
  // Plain and domain colours do not change from frame to frame: uploaded once.
  const bool constant = colouring_ == Colouring::plain || colouring_ == Colouring::domains;
  if (constant && coloured_as_ == colouring_) return;
  coloured_as_ = colouring_;
  const bool on_gpu = gpu_drawn_;
  const Scene& scene = lane.sim().scene();
  const auto n = vertices_->size();
  const Points& x = lane.render_positions();
  if (colouring_ == Colouring::displacement) {
    // |y − Y| of every render vertex over a scale that only grows (colours stay comparable).
    displacement_scale_ =
        std::max({displacement_scale_, lane.largest_render_displacement(), 1e-3 * scene.size()});
    const Points& rest = lane.render_rest();
    for (std::size_t k = 0; k < n; ++k) {
      const auto i = static_cast<Eigen::Index>(k);
      (*colours_)[k] = heat((x.row(i) - rest.row(i)).norm() / displacement_scale_);
    }
  } else if (colouring_ == Colouring::error) {
    // |y − y_ref| over the reference's own displacement scale; grey without a reference.
    const bool comparable = reference != nullptr && reference->ready() &&
                            reference->render_positions().rows() == x.rows();
    const double scale =
        comparable ? error_scale(reference->largest_render_displacement(), scene.size()) : 1;
    for (std::size_t k = 0; k < n; ++k) {
      const auto i = static_cast<Eigen::Index>(k);
      (*colours_)[k] = comparable
                           ? heat((x.row(i) - reference->render_positions().row(i)).norm() / scale)
                           : osg::Vec4(0.5f, 0.5f, 0.5f, 1.f);
    }
  } else {
    for (std::size_t k = 0; k < n; ++k) {
      if (colouring_ == Colouring::plain) {
        (*colours_)[k] = kPlain;
      } else {
        const Index v = dominant_[k];
        (*colours_)[k] = domain_colour(scene.vertex_domain[static_cast<std::size_t>(v)]);
      }
    }
  }
  colours_->dirty();
  if (on_gpu) gpu_->set_colours(*colours_);
}

}  // namespace substruct::viewer
