// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the window shows: one viewport per viewed lane (a row, or a grid), each with its scene,
// backdrop and HUD, the ghost drawn over all of them, and the window's own HUD panel; laid out
// for the window's size, every viewport seeing through the window camera (linked cameras).
#include <memory>
#include <string>
#include <vector>

#include <osg/Camera>
#include <osg/Group>
#include <osg/ref_ptr>
#include <osgGA/GUIEventAdapter>

#include "hud.hpp"
#include "lane_view.hpp"
#include "session.hpp"

namespace substruct::viewer {

class Viewports {
 public:
  static constexpr double kFovy = 30.0;

  /// `gpu`: what the context offers the GPU path of the surfaces (gpu_surface.hpp).
  Viewports(const ViewerOptions& options, Session& session, osg::Camera& camera,
            const GpuCapability& gpu);
  /// The window camera's scene: the viewports' cameras and the HUD.
  osg::Group* root() const { return root_.get(); }
  std::size_t size() const { return views_.size(); }
  LaneView& view(std::size_t k) { return *views_[k]; }
  Hud& hud() { return hud_; }
  /// The viewport under window point (x, y) [pixels from the lower left]; −1 for none.
  int view_at(double x, double y) const;
  /// An event's window point [pixels from the lower left], whatever the event queue's range and
  /// orientation.
  osg::Vec2d window_point(const osgGA::GUIEventAdapter& ea) const;

  /// Lays the viewports out in a width × height window (the camera's projection follows).
  void resize(int width, int height);
  /// Rebuilds the nodes of lanes whose simulation changed; true when the first viewport was built
  /// for the first time (the camera can then be placed).
  bool rebuild_changed();
  /// The camera's home: the first viewport's object seen whole.
  void home_pose(osg::Vec3d& eye, osg::Vec3d& centre, osg::Vec3d& up) const;
  /// Copies the lanes' states into the nodes and the HUDs (per frame).
  void update(int steps_per_frame, double ms_per_frame);

  Colouring colouring() const { return colouring_; }
  void set_colouring(Colouring colouring);
  void toggle_ghost();
  bool ghost_shown() const { return ghost_shown_; }
  void toggle_interfaces();
  void toggle_fixed();
  /// Shows or hides the [contact] obstacles and the touching vertices.
  void toggle_contacts();
  void toggle_help() { hud_.toggle_help(); }

  /// The ghost's scene graph (null without a ghost).
  const SceneGraph* ghost_graph() const { return ghost_.get(); }

  /// Every HUD's text: the window panel, then each viewport's (for --print-hud).
  std::string hud_text() const;

 private:
  void update_depth_range();

  ViewerOptions options_;
  Session& session_;
  osg::Camera& camera_;
  osg::ref_ptr<osg::Group> root_;
  std::vector<std::unique_ptr<LaneView>> views_;
  std::vector<int> built_generation_;
  std::unique_ptr<SceneGraph> ghost_;
  int ghost_generation_ = -1;
  bool ghost_shown_ = true;
  Hud hud_;
  Colouring colouring_;
  bool contacts_shown_ = true;
  int width_, height_;
  bool framed_ = false;
};

}  // namespace substruct::viewer
