#pragma once
// The on-screen panel: method, DOFs, domains, time per step and per frame, the toggles, the last
// message and, while a method loads, its precomputation progress; the key bindings on demand.
#include <string>

#include <osg/Camera>
#include <osg/ref_ptr>
#include <osgText/Text>

namespace substruct::viewer {

struct HudState {
  std::string scene, method;
  long dofs = 0, vertices = 0, elements = 0, domains = 0;
  double ms_per_step = 0, ms_per_frame = 0;
  int steps_per_frame = 1;
  double time = 0;
  bool paused = false, gravity = false, wind = false, loading = false;
  std::string colouring, message, progress;
  double drag_stiffness = 0;
  double drag_force = -1;  // < 0: not dragging
};

class Hud {
 public:
  Hud(int width, int height);
  osg::Camera* camera() const { return camera_.get(); }
  void resize(int width, int height);
  void update(const HudState& state);
  void toggle_help() { help_ = !help_; }

 private:
  osg::ref_ptr<osg::Camera> camera_;
  osg::ref_ptr<osgText::Text> panel_, centre_, help_text_;
  int width_, height_;
  bool help_ = false;
};

}  // namespace substruct::viewer
