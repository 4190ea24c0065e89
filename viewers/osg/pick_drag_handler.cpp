#include "pick_drag_handler.hpp"

#include <osgUtil/LineSegmentIntersector>

#include "drag_spring.hpp"
#include "scene_graph.hpp"
#include "session.hpp"

namespace substruct::viewer {

bool PickDragHandler::on_drag_plane(osgViewer::View& view, float x, float y, const Vec3& origin,
                                    Vec3& point) {
  const osg::Camera* camera = view.getCamera();
  if (camera->getViewport() == nullptr) return false;
  const osg::Matrixd vpw = camera->getViewMatrix() * camera->getProjectionMatrix() *
                           camera->getViewport()->computeWindowMatrix();
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
  DragSpring* spring = session_.spring();
  if (spring == nullptr) return false;
  switch (ea.getEventType()) {
    case osgGA::GUIEventAdapter::PUSH: {
      if (ea.getButton() != osgGA::GUIEventAdapter::LEFT_MOUSE_BUTTON) return false;
      osgUtil::LineSegmentIntersector::Intersections hits;
      if (!view->computeIntersections(ea, hits)) return false;
      for (const auto& hit : hits) {
        if (hit.drawable == nullptr || graph_.surface_node() == nullptr) continue;
        bool on_surface = false;
        for (const osg::Node* node : hit.nodePath) on_surface |= node == graph_.surface_node();
        if (!on_surface || hit.indexList.empty()) continue;
        // The corner of the hit triangle nearest to the hit point.
        std::size_t best = 0;
        for (std::size_t k = 1; k < hit.ratioList.size() && k < hit.indexList.size(); ++k)
          if (hit.ratioList[k] > hit.ratioList[best]) best = k;
        const Index vertex = graph_.volumetric_vertex(hit.indexList[best]);
        if (vertex < 0) continue;
        grab_vertex_ = session_.sim().positions().row(vertex).transpose();
        if (!on_drag_plane(*view, ea.getX(), ea.getY(), grab_vertex_, grab_point_)) return false;
        spring->grab(vertex, grab_vertex_, session_.drag_stiffness());
        dragging_ = true;
        return true;
      }
      return false;
    }
    case osgGA::GUIEventAdapter::DRAG: {
      if (!dragging_) return false;
      Vec3 point;
      if (on_drag_plane(*view, ea.getX(), ea.getY(), grab_vertex_, point))
        spring->move_to(grab_vertex_ + (point - grab_point_));
      return true;
    }
    case osgGA::GUIEventAdapter::RELEASE: {
      if (!dragging_) return false;
      dragging_ = false;
      spring->release();
      return true;
    }
    default:
      return false;
  }
}

}  // namespace substruct::viewer
