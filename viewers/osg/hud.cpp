#include "hud.hpp"

#include <filesystem>

#include <fmt/format.h>
#include <osg/Geode>
#include <osgText/Font>

namespace substruct::viewer {

namespace {

// DejaVu Sans (Debian: fonts-dejavu-core) through the freetype plugin: anti-aliased, and with
// every glyph the panel uses. OpenSceneGraph's built-in fallback font has no '.', ':' or '×' at
// these sizes ("t = 1 20 s"); it is used only when the file cannot be read.
osg::ref_ptr<osgText::Font> panel_font() {
  static const osg::ref_ptr<osgText::Font> font = [] {
    osg::ref_ptr<osgText::Font> f;
    for (const char* file :
         {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf"})
      if (std::filesystem::exists(file) && (f = osgText::readRefFontFile(file))) break;
    return f;
  }();
  return font;
}

osg::ref_ptr<osgText::Text> text(float size, const osg::Vec4& colour) {
  osg::ref_ptr<osgText::Text> t = new osgText::Text;
  if (osg::ref_ptr<osgText::Font> font = panel_font()) {
    t->setFont(font);
    t->setFontResolution(2 * static_cast<unsigned>(size), 2 * static_cast<unsigned>(size));
  }
  t->setCharacterSize(size);
  t->setColor(colour);
  t->setDataVariance(osg::Object::DYNAMIC);
  t->setBackdropType(osgText::Text::OUTLINE);
  t->setBackdropColor({0.f, 0.f, 0.f, 0.8f});
  return t;
}

constexpr const char* kKeys =
    "left-drag on the object: pull it with a spring   other buttons: camera\n"
    "p pause/resume    n one step    r reset\n"
    "g gravity         w wind        c colouring (plain, domains, displacement)\n"
    "m next coupling method (precompute, or load from cache)\n"
    "i interfaces      f fixed vertices     [ ] spring stiffness /2, x2\n"
    "h this help       Esc quit";

}  // namespace

Hud::Hud(int width, int height) : camera_(new osg::Camera), width_(width), height_(height) {
  camera_->setReferenceFrame(osg::Transform::ABSOLUTE_RF);
  camera_->setViewMatrix(osg::Matrix::identity());
  camera_->setClearMask(GL_DEPTH_BUFFER_BIT);
  camera_->setRenderOrder(osg::Camera::POST_RENDER);
  camera_->setAllowEventFocus(false);
  camera_->getOrCreateStateSet()->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
  panel_ = text(13.f, {1.f, 1.f, 1.f, 1.f});
  centre_ = text(20.f, {1.f, 0.9f, 0.4f, 1.f});
  centre_->setAlignment(osgText::Text::CENTER_CENTER);
  help_text_ = text(13.f, {0.8f, 0.95f, 1.f, 1.f});
  help_text_->setAlignment(osgText::Text::LEFT_BOTTOM);
  help_text_->setText(kKeys, osgText::String::ENCODING_UTF8);
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
  camera_->setProjectionMatrix(osg::Matrix::ortho2D(0, width, 0, height));
  panel_->setPosition({10.f, float(height) - 20.f, 0.f});
  centre_->setPosition({float(width) / 2, float(height) / 2, 0.f});
  help_text_->setPosition({10.f, 10.f, 0.f});
}

void Hud::update(const HudState& s) {
  std::string panel = fmt::format(
      "{}   method {}   {} DOFs   {} domain{}\n"
      "{} vertices, {} tets   t = {:.2f} s{}   {:.3f} ms/step × {}   {:.1f} ms/frame\n"
      "gravity {}   wind {}   colour {}   spring {:.3g} N/m{}",
      s.scene, s.method.empty() ? "-" : s.method, s.dofs, s.domains, s.domains == 1 ? "" : "s",
      s.vertices, s.elements, s.time, s.paused ? " (paused)" : "", s.ms_per_step, s.steps_per_frame,
      s.ms_per_frame, s.gravity ? "on" : "off", s.wind ? "on" : "off", s.colouring,
      s.drag_stiffness,
      s.drag_force >= 0 ? fmt::format("   pulling {:.3g} N", s.drag_force) : std::string());
  if (!s.message.empty()) panel += "\n" + s.message;
  if (!help_) panel += "\nh: keys";
  panel_->setText(panel, osgText::String::ENCODING_UTF8);
  centre_->setText(s.loading ? "precomputing …\n" + s.progress : std::string(),
                   osgText::String::ENCODING_UTF8);
  help_text_->setNodeMask(help_ ? ~0u : 0u);
}

}  // namespace substruct::viewer
