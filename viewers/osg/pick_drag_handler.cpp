#include "pick_drag_handler.hpp"

#include <osgUtil/LineSegmentIntersector>

#include <osg/Viewport>

#include "session.hpp"
#include "viewports.hpp"

namespace substruct::viewer {

bool PickDragHandler::on_drag_plane(osgViewer::View& view, const ViewportRect& viewport, float x,
                                    float y, const Vec3& origin, Vec3& point) {
  const osg::Camera* camera = view.getCamera();
  const osg::ref_ptr<osg::Viewport> window =
      new osg::Viewport(viewport.x, viewport.y, viewport.width, viewport.height);
  const osg::Matrixd vpw =
      camera->getViewMatrix() * camera->getProjectionMatrix() * window->computeWindowMatrix();
  osg::Matrixd inverse;
  if (!inverse.invert(vpw)) return false;
  const osg::Vec3d near = osg::Vec3d(x, y, 0.0) * inverse;
  const osg::Vec3d far = osg::Vec3d(x, y, 1.0) * inverse;
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
      const int k = viewports_.view_at(ea.getX(), ea.getY());
      if (k < 0 || !session_.lane(std::size_t(k)).running()) return false;
      const osg::Node* surface = viewports_.view(std::size_t(k)).graph().surface_node();
      osgUtil::LineSegmentIntersector::Intersections hits;
      if (surface == nullptr || !view->computeIntersections(ea, hits)) return false;
      for (const auto& hit : hits) {
        if (hit.drawable == nullptr) continue;
        bool on_surface = false;
        for (const osg::Node* node : hit.nodePath) on_surface |= node == surface;
        if (!on_surface || hit.indexList.empty()) continue;
        // The corner of the hit triangle nearest to the hit point.
        std::size_t best = 0;
        for (std::size_t c = 1; c < hit.ratioList.size() && c < hit.indexList.size(); ++c)
          if (hit.ratioList[c] > hit.ratioList[best]) best = c;
        const Index vertex =
            viewports_.view(std::size_t(k)).graph().volumetric_vertex(hit.indexList[best]);
        if (vertex < 0) continue;
        grab_vertex_ = session_.lane(std::size_t(k)).sim().positions().row(vertex).transpose();
        if (!on_drag_plane(*view, viewports_.view(std::size_t(k)).viewport(), ea.getX(), ea.getY(),
                           grab_vertex_, grab_point_))
          return false;
        session_.grab(vertex, grab_vertex_);
        view_ = k;
        return true;
      }
      return false;
    }
    case osgGA::GUIEventAdapter::DRAG: {
      if (view_ < 0) return false;
      Vec3 point;
      if (on_drag_plane(*view, viewports_.view(std::size_t(view_)).viewport(), ea.getX(), ea.getY(),
                        grab_vertex_, point))
        session_.move_spring(grab_vertex_ + (point - grab_point_));
      return true;
    }
    case osgGA::GUIEventAdapter::RELEASE: {
      if (view_ < 0) return false;
      view_ = -1;
      session_.release_spring();
      return true;
    }
    default:
      return false;
  }
}

}  // namespace substruct::viewer
