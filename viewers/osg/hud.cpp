// SPDX-License-Identifier: GPL-3.0-or-later
#include "hud.hpp"

#include <fmt/format.h>
#include <osg/Geode>

#include "hud_text.hpp"

namespace substruct::viewer {

namespace {

constexpr const char* kKeys =
    "left-drag on the object: pull it with a spring (every viewport)   other buttons: camera\n"
    "p pause/resume    n one step    r reset\n"
    "g gravity         w wind        c colouring (plain, domains, displacement, error)\n"
    "m next coupling method (precompute, or load from cache; single view)\n"
    "o ghost on/off    i interfaces      f fixed vertices     [ ] spring stiffness /2, x2\n"
    "k contacts        h this help       Esc quit";

}  // namespace

Hud::Hud(int width, int height) : camera_(new osg::Camera), width_(width), height_(height) {
  camera_->setReferenceFrame(osg::Transform::ABSOLUTE_RF);
  camera_->setViewMatrix(osg::Matrix::identity());
  camera_->setClearMask(0);  // drawn last, without depth test
  camera_->getOrCreateStateSet()->setMode(GL_DEPTH_TEST, osg::StateAttribute::OFF);
  camera_->setRenderOrder(osg::Camera::POST_RENDER, 10);
  camera_->setAllowEventFocus(false);
  camera_->getOrCreateStateSet()->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
  panel_ = hud_text(13.f, {1.f, 1.f, 1.f, 1.f});
  panel_->set_anchor(HudText::Anchor::left_top);
  centre_ = hud_text(20.f, {1.f, 0.9f, 0.4f, 1.f});
  centre_->set_anchor(HudText::Anchor::center);
  help_text_ = hud_text(13.f, {0.8f, 0.95f, 1.f, 1.f});
  help_text_->set_anchor(HudText::Anchor::left_center);
  set_text(*help_text_, kKeys);
  auto* geode = new osg::Geode;
  geode->addDrawable(panel_);
  geode->addDrawable(centre_);
  geode->addDrawable(help_text_);
  camera_->addChild(geode);
  resize(width, height);
}

void Hud::resize(int width, int height) {
  width_ = width;
  height_ = height;
  camera_->setViewport(0, 0, width, height);
  camera_->setProjectionMatrix(osg::Matrix::ortho2D(0, width, 0, height));
  panel_->set_position(8.f, float(height) - 8.f - top_margin_);
  centre_->set_position(float(width) / 2, float(height) / 2);
  help_text_->set_position(10.f, float(height) / 2);
}

void Hud::set_top_margin(float pixels) {
  top_margin_ = pixels;
  resize(width_, height_);
}

void Hud::update(const HudState& s) {
  text_ = fmt::format(
      "{}   {} vertices, {} tets, {} domain{}\n"
      "t = {:.2f} s{}   {} step{}/frame   {:.1f} ms/frame\n"
      "gravity {}   wind {}   colour {}   spring {:.3g} N/m{}{}",
      s.scene, s.vertices, s.elements, s.domains, s.domains == 1 ? "" : "s", s.time,
      s.paused ? " (paused)" : "", s.steps_per_frame, s.steps_per_frame == 1 ? "" : "s",
      s.ms_per_frame, s.gravity ? "on" : "off", s.wind ? "on" : "off", s.colouring,
      s.drag_stiffness,
      s.drag_force >= 0 ? fmt::format("   pulling {:.3g} N", s.drag_force) : std::string(),
      s.ghost_method.empty()
          ? std::string()
          : fmt::format("   ghost {}{}", s.ghost_method, s.ghost ? "" : " (hidden)"));
  if (!s.message.empty()) text_ += "\n" + s.message;
  set_text(*panel_, help_ ? text_ : text_ + "\nh: keys");
  set_text(*centre_, s.loading ? "precomputing …\n" + s.progress : std::string());
  help_text_->setNodeMask(help_ ? ~0u : 0u);
}

}  // namespace substruct::viewer
