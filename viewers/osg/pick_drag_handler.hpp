// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Left-drag on the surface pulls the picked vertex with the mouse spring (Zhao 2014, §4.3): the
// target moves in the screen plane through the vertex (the plane orthogonal to the view
// direction), by the mouse's travel since the press, and the spring force k (target − x) pulls
// the vertex after it. With several viewports the spring pulls the same vertex (the same
// rest-space point) towards the same target in every one. Left-drag elsewhere, and the other
// buttons, move the camera.
#include <osgGA/GUIEventHandler>
#include <osgGA/TrackballManipulator>
#include <osgViewer/View>

#include "substruct/core/types.hpp"

namespace substruct::viewer {

class Session;
class Viewports;
struct ViewportRect;

class PickDragHandler final : public osgGA::GUIEventHandler {
 public:
  /// `report`: print what was picked and the springs' forces at the release (scripted drags).
  PickDragHandler(Session& session, Viewports& viewports, bool report = false)
      : session_(session), viewports_(viewports), report_(report) {}
  bool handle(const osgGA::GUIEventAdapter& ea, osgGA::GUIActionAdapter& aa) override;

 private:
  // The point under window coordinates (x, y) in `viewport` on the plane through `origin`
  // facing the camera.
  static bool on_drag_plane(osgViewer::View& view, const ViewportRect& viewport, float x, float y,
                            const Vec3& origin, Vec3& point);

  Session& session_;
  Viewports& viewports_;
  int view_ = -1;  // the viewport the drag started in
  bool report_ = false;
  Vec3 grab_point_ = Vec3::Zero();   // the plane point under the mouse at the press
  Vec3 grab_vertex_ = Vec3::Zero();  // the vertex's position at the press
};

/// The trackball camera, leaving alone the mouse events the drag handler took (it runs first).
class CameraManipulator final : public osgGA::TrackballManipulator {
 public:
  bool handle(const osgGA::GUIEventAdapter& ea, osgGA::GUIActionAdapter& aa) override {
    if (ea.getHandled() &&
        (ea.getEventType() & (osgGA::GUIEventAdapter::PUSH | osgGA::GUIEventAdapter::DRAG |
                              osgGA::GUIEventAdapter::RELEASE | osgGA::GUIEventAdapter::KEYDOWN)))
      return false;
    return osgGA::TrackballManipulator::handle(ea, aa);
  }
};

}  // namespace substruct::viewer
