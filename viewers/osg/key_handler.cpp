// SPDX-License-Identifier: GPL-3.0-or-later
#include "key_handler.hpp"

#include <fmt/format.h>

#include "session.hpp"
#include "viewports.hpp"

namespace substruct::viewer {

bool KeyHandler::handle(const osgGA::GUIEventAdapter& ea, osgGA::GUIActionAdapter& /*aa*/) {
  if (ea.getEventType() == osgGA::GUIEventAdapter::RESIZE) {
    viewports_.resize(ea.getWindowWidth(), ea.getWindowHeight());
    return false;
  }
  if (ea.getEventType() != osgGA::GUIEventAdapter::KEYDOWN) return false;
  switch (ea.getKey()) {
    case 'p':
      session_.set_paused(!session_.paused());
      session_.set_message(session_.paused() ? "paused (n steps once)" : "running");
      return true;
    case 'n':
      if (!session_.paused()) session_.set_paused(true);
      step_requested_ = true;
      return true;
    case 'r':
      session_.reset();
      return true;
    case 'g':
      session_.toggle_gravity();
      return true;
    case 'w':
      session_.toggle_wind();
      return true;
    case 'c': {
      // Plain, domains, displacement, and the error where there is a reference.
      const Colouring c = viewports_.colouring();
      Colouring next = c == Colouring::plain          ? Colouring::domains
                       : c == Colouring::domains      ? Colouring::displacement
                       : c == Colouring::displacement ? Colouring::error
                                                      : Colouring::plain;
      if (next == Colouring::error && session_.reference() == nullptr) next = Colouring::plain;
      viewports_.set_colouring(next);
      session_.set_message(fmt::format("colouring: {}", to_string(next)));
      return true;
    }
    case 'm':
      session_.switch_method(session_.next_method());
      return true;
    case 'o':
      viewports_.toggle_ghost();
      return true;
    case 'i':
      viewports_.toggle_interfaces();
      return true;
    case 'f':
      viewports_.toggle_fixed();
      return true;
    case 'k':
      viewports_.toggle_contacts();
      return true;
    case '[':
      session_.scale_drag_stiffness(0.5);
      return true;
    case ']':
      session_.scale_drag_stiffness(2.0);
      return true;
    case 'h':
      viewports_.toggle_help();
      return true;
    default:
      return false;
  }
}

}  // namespace substruct::viewer
