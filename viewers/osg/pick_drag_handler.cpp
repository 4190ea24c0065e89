// SPDX-License-Identifier: GPL-3.0-or-later
#include "pick_drag_handler.hpp"

#include <osgUtil/LineSegmentIntersector>

#include <cstdio>

#include <fmt/format.h>
#include <osg/Viewport>

#include "session.hpp"
#include "viewports.hpp"

namespace substruct::viewer {

namespace {

// The world points at the near and far planes under window point (x, y) of `viewport`.
bool eye_ray(const osg::Camera& camera, const ViewportRect& viewport, double x, double y,
             osg::Vec3d& near, osg::Vec3d& far) {
  const osg::ref_ptr<osg::Viewport> window =
      new osg::Viewport(viewport.x, viewport.y, viewport.width, viewport.height);
  const osg::Matrixd vpw =
      camera.getViewMatrix() * camera.getProjectionMatrix() * window->computeWindowMatrix();
  osg::Matrixd inverse;
  if (!inverse.invert(vpw)) return false;
  near = osg::Vec3d(x, y, 0.0) * inverse;
  far = osg::Vec3d(x, y, 1.0) * inverse;
  return true;
}

}  // namespace

bool PickDragHandler::on_drag_plane(osgViewer::View& view, const ViewportRect& viewport, float x,
                                    float y, const Vec3& origin, Vec3& point) {
  const osg::Camera* camera = view.getCamera();
  osg::Vec3d near, far;
  if (!eye_ray(*camera, viewport, x, y, near, far)) return false;
  const Vec3 a(near.x(), near.y(), near.z()), b(far.x(), far.y(), far.z());
  // The view direction (the plane's normal) is the ray through the window centre.
  osg::Vec3d eye, centre, up;
  camera->getViewMatrixAsLookAt(eye, centre, up);
  const Vec3 normal =
      Vec3(centre.x() - eye.x(), centre.y() - eye.y(), centre.z() - eye.z()).normalized();
  const double denominator = normal.dot(b - a);
  if (std::abs(denominator) < 1e-12) return false;
  const double s = normal.dot(origin - a) / denominator;
  point = a + s * (b - a);
  return true;
}

bool PickDragHandler::handle(const osgGA::GUIEventAdapter& ea, osgGA::GUIActionAdapter& aa) {
  auto* view = dynamic_cast<osgViewer::View*>(&aa);
  if (view == nullptr || !session_.ready()) return false;
  switch (ea.getEventType()) {
    case osgGA::GUIEventAdapter::PUSH: {
      if (ea.getButton() != osgGA::GUIEventAdapter::LEFT_MOUSE_BUTTON) return false;
      const osg::Vec2d at = viewports_.window_point(ea);
      const int k = viewports_.view_at(at.x(), at.y());
      if (k < 0 || !session_.lane(std::size_t(k)).running()) return false;
      const osg::Node* surface =
          viewports_.view(std::size_t(k)).graph().pick_surface(session_.lane(std::size_t(k)));
      // The eye ray through the point, in world coordinates (the surface's own), against the
      // viewport's surface alone.
      osg::Vec3d near, far;
      if (surface == nullptr ||
          !eye_ray(*view->getCamera(), viewports_.view(std::size_t(k)).viewport(), at.x(), at.y(),
                   near, far))
        return false;
      osg::ref_ptr<osgUtil::LineSegmentIntersector> intersector =
          new osgUtil::LineSegmentIntersector(near, far);
      osgUtil::IntersectionVisitor visitor(intersector.get());
      const_cast<osg::Node*>(surface)->accept(visitor);
      for (const auto& hit : intersector->getIntersections()) {
        if (hit.drawable == nullptr || hit.indexList.empty()) continue;
        // The corner of the hit triangle nearest to the hit point.
        std::size_t best = 0;
        for (std::size_t c = 1; c < hit.ratioList.size() && c < hit.indexList.size(); ++c)
          if (hit.ratioList[c] > hit.ratioList[best]) best = c;
        const Index vertex =
            viewports_.view(std::size_t(k)).graph().volumetric_vertex(hit.indexList[best]);
        if (vertex < 0) continue;
        grab_vertex_ = session_.lane(std::size_t(k)).sim().positions().row(vertex).transpose();
        if (!on_drag_plane(*view, viewports_.view(std::size_t(k)).viewport(), float(at.x()),
                           float(at.y()), grab_vertex_, grab_point_))
          return false;
        session_.grab(vertex, grab_vertex_);
        view_ = k;
        if (report_)
          std::printf(
              "drag       vertex %ld picked in viewport %d: the spring pulls it in every "
              "viewport\n",
              static_cast<long>(vertex), k + 1);
        return true;
      }
      return false;
    }
    case osgGA::GUIEventAdapter::DRAG: {
      if (view_ < 0) return false;
      Vec3 point;
      const osg::Vec2d at = viewports_.window_point(ea);
      if (on_drag_plane(*view, viewports_.view(std::size_t(view_)).viewport(), float(at.x()),
                        float(at.y()), grab_vertex_, point))
        session_.move_spring(grab_vertex_ + (point - grab_point_));
      return true;
    }
    case osgGA::GUIEventAdapter::RELEASE: {
      if (view_ < 0) return false;
      view_ = -1;
      if (report_) {
        std::string forces;
        for (std::size_t k = 0; k < session_.viewed(); ++k) {
          const DragSpring* spring = session_.lane(k).ready() ? session_.lane(k).spring() : nullptr;
          if (spring != nullptr && spring->active())
            forces +=
                fmt::format("{}{}: vertex {}, |f| = {:.4g} N", forces.empty() ? "" : "; ",
                            session_.lane(k).method(), spring->vertex(), spring->force().norm());
        }
        std::printf("drag       released (%s)\n", forces.c_str());
      }
      session_.release_spring();
      return true;
    }
    default:
      return false;
  }
}

}  // namespace substruct::viewer
