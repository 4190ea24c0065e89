#include "key_handler.hpp"

#include <fmt/format.h>

#include "hud.hpp"
#include "scene_graph.hpp"
#include "session.hpp"

namespace substruct::viewer {

bool KeyHandler::handle(const osgGA::GUIEventAdapter& ea, osgGA::GUIActionAdapter& /*aa*/) {
  if (ea.getEventType() == osgGA::GUIEventAdapter::RESIZE) {
    hud_.resize(ea.getWindowWidth(), ea.getWindowHeight());
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
      const Colouring next = graph_.colouring() == Colouring::plain     ? Colouring::domains
                             : graph_.colouring() == Colouring::domains ? Colouring::displacement
                                                                        : Colouring::plain;
      graph_.set_colouring(next);
      session_.set_message(fmt::format("colouring: {}", to_string(next)));
      return true;
    }
    case 'm':
      session_.load(session_.next_method(), true);
      return true;
    case 'i':
      graph_.set_show_interfaces(!graph_.show_interfaces());
      return true;
    case 'f':
      graph_.set_show_fixed(!graph_.show_fixed());
      return true;
    case '[':
      session_.scale_drag_stiffness(0.5);
      return true;
    case ']':
      session_.scale_drag_stiffness(2.0);
      return true;
    case 'h':
      hud_.toggle_help();
      return true;
    default:
      return false;
  }
}

}  // namespace substruct::viewer
