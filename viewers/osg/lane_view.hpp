// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One viewport of the window: a camera nested under the window's camera, so that it shares its
// view and projection (the cameras of all viewports are linked: one trackball moves them all),
// drawing one lane's scene graph, the ghost when shown, the backdrop (looks) and the lane's HUD.
#include <optional>

#include <osg/Camera>
#include <osg/Switch>
#include <osg/ref_ptr>

#include "backdrop.hpp"
#include "contact_view.hpp"
#include "lane_hud.hpp"
#include "scene_graph.hpp"

namespace substruct::viewer {

struct ViewportRect {
  int x = 0, y = 0, width = 0, height = 0;
  bool contains(double px, double py) const {
    return px >= x && px < x + width && py >= y && py < y + height;
  }
};

/// `count` viewports tiling a width × height window: one row for up to 3, else a grid of up to 3
/// columns, the first at the top left.
std::vector<ViewportRect> viewport_grid(std::size_t count, int width, int height);

class LaneView {
 public:
  LaneView(const ViewerOptions& options, bool looks);
  osg::Camera* camera() const { return camera_.get(); }
  SceneGraph& graph() { return graph_; }
  ContactView& contacts() { return contacts_; }
  LaneHud& hud() { return hud_; }
  const ViewportRect& viewport() const { return viewport_; }
  void place(const ViewportRect& rect);

  /// The ghost's nodes drawn over this viewport's object (null: none).
  void set_ghost(osg::Node* ghost);
  void show_ghost(bool on);
  /// After the lane's simulation changed: its nodes, its obstacles, and the ground under it
  /// against `up` (on the [contact] ground when that is orthogonal to up).
  void rebuild(Lane& lane, const Vec3& up);

 private:
  osg::ref_ptr<osg::Camera> camera_;
  SceneGraph graph_;
  ContactView contacts_;
  std::optional<Backdrop> backdrop_;
  osg::ref_ptr<osg::Switch> ghost_;
  LaneHud hud_;
  ViewportRect viewport_;
};

}  // namespace substruct::viewer
