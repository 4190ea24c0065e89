// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's panel: the scene, its time, steps and time per frame, the toggles and the last
// message; while methods load, their precomputation progress across the middle; the key bindings
// on demand. Each viewport's own HUD (lane_hud.hpp) shows its method and error.
#include <string>

#include <osg/Camera>
#include <osg/ref_ptr>

#include "hud_text.hpp"

namespace substruct::viewer {

struct HudState {
  std::string scene;
  long vertices = 0, elements = 0, domains = 0;
  double ms_per_frame = 0;
  int steps_per_frame = 1;
  double time = 0;
  bool paused = false, gravity = false, wind = false, loading = false, ghost = false;
  std::string colouring, message, progress, ghost_method;
  double drag_stiffness = 0;
  double drag_force = -1;  // < 0: not dragging
};

class Hud {
 public:
  Hud(int width, int height);
  osg::Camera* camera() const { return camera_.get(); }
  void resize(int width, int height);
  /// Keeps the panel below a band of `pixels` at the window's top (the viewports' titles).
  void set_top_margin(float pixels);
  void update(const HudState& state);
  void toggle_help() { help_ = !help_; }
  /// The panel's text (for --print-hud).
  const std::string& text() const { return text_; }

 private:
  osg::ref_ptr<osg::Camera> camera_;
  osg::ref_ptr<HudText> panel_, centre_, help_text_;
  int width_, height_;
  float top_margin_ = 0;
  bool help_ = false;
  std::string text_;
};

}  // namespace substruct::viewer
