// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Text for the HUDs: DejaVu Sans (Debian: fonts-dejavu-core) rasterised by FreeType, anti-aliased,
// UTF-8, on a translucent box that keeps it legible over any background. Each text block is one
// textured quad, its image redrawn only when the text changes: a software renderer (Xvfb's
// llvmpipe) pays for a quad what osgText's glyph shader cost it per glyph.
#include <string>
#include <vector>

#include <osg/Geometry>
#include <osg/Image>
#include <osg/Texture2D>
#include <osg/ref_ptr>

namespace substruct::viewer {

class HudText final : public osg::Geometry {
 public:
  /// Which point of the box set_position() places.
  enum class Anchor { left_bottom, left_top, left_center, center, center_top, right_bottom };

  HudText(float size, const osg::Vec4& colour);
  void set_anchor(Anchor anchor);
  void set_position(float x, float y);
  /// Lines longer than this [pixels] wrap at spaces; 0: no wrapping.
  void set_maximum_width(float width);
  /// UTF-8 text, lines split at '\n' (empty: nothing drawn).
  void set(const std::string& utf8);
  const std::string& text() const { return text_; }

 private:
  void rasterise();
  void place();

  float size_;
  osg::Vec4 colour_;
  Anchor anchor_ = Anchor::left_bottom;
  float x_ = 0, y_ = 0, maximum_width_ = 0;
  std::string text_;
  osg::ref_ptr<osg::Image> image_;
  osg::ref_ptr<osg::Texture2D> texture_;
};

/// A text block of `size` pixels (its line height is about 1.2 × that).
osg::ref_ptr<HudText> hud_text(float size, const osg::Vec4& colour);

/// Sets UTF-8 text; redraws the block only when the text changed.
void set_text(HudText& text, const std::string& utf8);

}  // namespace substruct::viewer
