#pragma once
// Key bindings: p pause, n one step, r reset, g gravity, w wind, c colouring, m next coupling
// method, i interfaces, f fixed vertices, [ ] spring stiffness, h help; window resizes for the HUD.
#include <osgGA/GUIEventHandler>

namespace substruct::viewer {

class Session;
class SceneGraph;
class Hud;

class KeyHandler final : public osgGA::GUIEventHandler {
 public:
  KeyHandler(Session& session, SceneGraph& graph, Hud& hud)
      : session_(session), graph_(graph), hud_(hud) {}
  bool handle(const osgGA::GUIEventAdapter& ea, osgGA::GUIActionAdapter& aa) override;
  /// A single step was asked for while paused (n); cleared by the caller.
  bool take_step_request() {
    const bool requested = step_requested_;
    step_requested_ = false;
    return requested;
  }

 private:
  Session& session_;
  SceneGraph& graph_;
  Hud& hud_;
  bool step_requested_ = false;
};

}  // namespace substruct::viewer
