#include "hud_text.hpp"

#include <filesystem>

#include <osgText/Font>

#include "substruct/core/log.hpp"

namespace substruct::viewer {

namespace {

// DejaVu Sans through the freetype plugin: anti-aliased, and with every glyph the panels use.
// OpenSceneGraph's built-in fallback font has no '.', ':' or '×' at these sizes ("t = 1 20 s");
// it is used only when the file cannot be read.
osg::ref_ptr<osgText::Font> panel_font() {
  static const osg::ref_ptr<osgText::Font> font = [] {
    osg::ref_ptr<osgText::Font> f;
    for (const char* file :
         {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf"})
      if (std::filesystem::exists(file) && (f = osgText::readRefFontFile(file))) break;
    if (!f)
      log::warn(
          "the HUD's font DejaVuSans.ttf could not be read (Debian package fonts-dejavu-core, "
          "and OpenSceneGraph's freetype plugin): OpenSceneGraph's built-in font drops '.', ':' "
          "and other characters");
    return f;
  }();
  return font;
}

}  // namespace

osg::ref_ptr<osgText::Text> hud_text(float size, const osg::Vec4& colour) {
  osg::ref_ptr<osgText::Text> t = new osgText::Text;
  if (osg::ref_ptr<osgText::Font> font = panel_font()) {
    t->setFont(font);
    t->setFontResolution(2 * static_cast<unsigned>(size), 2 * static_cast<unsigned>(size));
  }
  t->setCharacterSize(size);
  // HUD text needs no depth: one pass instead of a colour pass and a depth pass.
  t->setEnableDepthWrites(false);
  t->setColor(colour);
  t->setDataVariance(osg::Object::DYNAMIC);
  // A translucent box behind the text keeps it legible over any background; an outline would
  // draw every glyph nine times (a large part of a software-rendered frame).
  t->setDrawMode(osgText::Text::TEXT | osgText::Text::FILLEDBOUNDINGBOX);
  t->setBoundingBoxColor({0.f, 0.f, 0.f, 0.45f});
  t->setBoundingBoxMargin(3.f);
  // Over the panels and plots drawn in the HUD's bin (100).
  t->getOrCreateStateSet()->setRenderBinDetails(101, "RenderBin");
  return t;
}

void set_text(osgText::Text& text, const std::string& utf8) {
  // Empty text is not drawn at all (each text drawable costs a software renderer about 0.5 ms).
  text.setNodeMask(utf8.empty() ? 0u : ~0u);
  // Laying the glyphs out costs too: only when the text changed.
  if (text.getText().createUTF8EncodedString() == utf8) return;
  text.setText(utf8, osgText::String::ENCODING_UTF8);
}

}  // namespace substruct::viewer
