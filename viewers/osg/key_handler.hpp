// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Key bindings: p pause, n one step, r reset, g gravity, w wind, c colouring, m next coupling
// method, o ghost, i interfaces, f fixed vertices, [ ] spring stiffness, h help; window resizes
// lay the viewports out again.
#include <osgGA/GUIEventHandler>

namespace substruct::viewer {

class Session;
class Viewports;

class KeyHandler final : public osgGA::GUIEventHandler {
 public:
  KeyHandler(Session& session, Viewports& viewports) : session_(session), viewports_(viewports) {}
  bool handle(const osgGA::GUIEventAdapter& ea, osgGA::GUIActionAdapter& aa) override;
  /// A single step was asked for while paused (n); cleared by the caller.
  bool take_step_request() {
    const bool requested = step_requested_;
    step_requested_ = false;
    return requested;
  }

 private:
  Session& session_;
  Viewports& viewports_;
  bool step_requested_ = false;
};

}  // namespace substruct::viewer
