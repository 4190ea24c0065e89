// SPDX-License-Identifier: GPL-3.0-or-later
#include "hud_text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <utility>

#include <ft2build.h>
#include FT_FREETYPE_H
#include <osg/BlendFunc>

#include "substruct/core/log.hpp"

namespace substruct::viewer {

namespace {

constexpr int kMargin = 3;                // [pixels] of box around the text
constexpr unsigned char kBoxAlpha = 115;  // the box: black at 45 %

// One rasterised glyph: its coverage bitmap and metrics [pixels].
struct Glyph {
  int width = 0, rows = 0, left = 0, top = 0, advance = 0;
  std::vector<unsigned char> coverage;
};

// DejaVu Sans through FreeType, with the glyphs rasterised so far (per pixel size).
class Font {
 public:
  static Font& instance() {
    static Font font;
    return font;
  }
  bool ok() const { return face_ != nullptr; }

  // Ascender, descender (negative) and line height at `pixels` [pixels].
  void metrics(int pixels, int& ascender, int& descender, int& height) {
    select(pixels);
    ascender = static_cast<int>(face_->size->metrics.ascender >> 6);
    descender = static_cast<int>(face_->size->metrics.descender >> 6);
    height = static_cast<int>(face_->size->metrics.height >> 6);
  }

  const Glyph& glyph(int pixels, char32_t code) {
    const auto key = std::make_pair(pixels, code);
    if (const auto it = glyphs_.find(key); it != glyphs_.end()) return it->second;
    select(pixels);
    Glyph g;
    if (FT_Load_Char(face_, code, FT_LOAD_RENDER) == 0) {
      const FT_GlyphSlot slot = face_->glyph;
      g.width = static_cast<int>(slot->bitmap.width);
      g.rows = static_cast<int>(slot->bitmap.rows);
      g.left = slot->bitmap_left;
      g.top = slot->bitmap_top;
      g.advance = static_cast<int>(slot->advance.x >> 6);
      g.coverage.resize(static_cast<std::size_t>(g.width * g.rows));
      for (int r = 0; r < g.rows; ++r)
        std::copy_n(slot->bitmap.buffer + r * slot->bitmap.pitch, g.width,
                    g.coverage.begin() + r * g.width);
    }
    return glyphs_.emplace(key, std::move(g)).first->second;
  }

  // The printable ASCII glyphs at `pixels`, indexed by code (looked up once per size).
  const std::array<const Glyph*, 128>& ascii(int pixels) {
    auto [it, added] = ascii_.try_emplace(pixels);
    if (added)
      for (char32_t c = 0; c < 128; ++c) it->second[c] = &glyph(pixels, c);
    return it->second;
  }

 private:
  Font() {
    if (FT_Init_FreeType(&library_) != 0) return;
    for (const char* file :
         {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf"})
      if (std::filesystem::exists(file) && FT_New_Face(library_, file, 0, &face_) == 0) break;
    if (face_ == nullptr)
      log::warn(
          "the HUD's font DejaVuSans.ttf could not be read (Debian package fonts-dejavu-core): "
          "the panels show no text");
  }
  void select(int pixels) {
    if (pixels != selected_) FT_Set_Pixel_Sizes(face_, 0, static_cast<FT_UInt>(pixels));
    selected_ = pixels;
  }

  FT_Library library_ = nullptr;
  FT_Face face_ = nullptr;
  int selected_ = 0;
  std::map<std::pair<int, char32_t>, Glyph> glyphs_;  // node-based: pointers to them stay valid
  std::map<int, std::array<const Glyph*, 128>> ascii_;
};

// UTF-8 → code points (an invalid byte becomes U+FFFD).
std::u32string decode(const std::string& s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + std::size_t(n) > s.size()) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    char32_t code = n == 1 ? c : c & (0x7F >> n);
    for (int k = 1; k < n; ++k) code = (code << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(code);
    i += std::size_t(n);
  }
  return out;
}

}  // namespace

HudText::HudText(float size, const osg::Vec4& colour)
    : size_(size), colour_(colour), image_(new osg::Image), texture_(new osg::Texture2D) {
  setDataVariance(osg::Object::DYNAMIC);
  setUseVertexBufferObjects(true);
  setVertexArray(new osg::Vec3Array(4));
  auto* uv = new osg::Vec2Array;
  for (const osg::Vec2 c : {osg::Vec2(0, 0), osg::Vec2(1, 0), osg::Vec2(1, 1), osg::Vec2(0, 1)})
    uv->push_back(c);
  setTexCoordArray(0, uv);
  auto* white = new osg::Vec4Array;
  white->push_back({1.f, 1.f, 1.f, 1.f});
  setColorArray(white, osg::Array::BIND_OVERALL);
  addPrimitiveSet(new osg::DrawArrays(GL_QUADS, 0, 4));
  texture_->setFilter(osg::Texture::MIN_FILTER, osg::Texture::NEAREST);
  texture_->setFilter(osg::Texture::MAG_FILTER, osg::Texture::NEAREST);
  texture_->setResizeNonPowerOfTwoHint(false);
  texture_->setDataVariance(osg::Object::DYNAMIC);
  osg::StateSet* ss = getOrCreateStateSet();
  ss->setTextureAttributeAndModes(0, texture_.get());
  ss->setMode(GL_BLEND, osg::StateAttribute::ON);
  ss->setAttributeAndModes(new osg::BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
  ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
  // Over the panels and plots drawn in the HUD's bin (100).
  ss->setRenderBinDetails(101, "RenderBin");
  setNodeMask(0u);
}

void HudText::set_anchor(Anchor anchor) {
  anchor_ = anchor;
  place();
}

void HudText::set_position(float x, float y) {
  x_ = x;
  y_ = y;
  place();
}

void HudText::set_maximum_width(float width) {
  if (width == maximum_width_) return;
  maximum_width_ = width;
  rasterise();
}

void HudText::set(const std::string& utf8) {
  if (utf8 == text_) return;
  text_ = utf8;
  rasterise();
}

// Lays the lines out (wrapping at spaces beyond the maximum width), draws them white-tinted by the
// colour over the box into the image, and sizes the quad to it.
void HudText::rasterise() {
  Font& font = Font::instance();
  setNodeMask(text_.empty() || !font.ok() ? 0u : ~0u);
  if (text_.empty() || !font.ok()) return;
  const int pixels = static_cast<int>(std::lround(size_));
  int ascender = 0, descender = 0, height = 0;
  font.metrics(pixels, ascender, descender, height);
  const std::array<const Glyph*, 128>& ascii = font.ascii(pixels);
  const auto glyph_of = [&](char32_t c) -> const Glyph& {
    return c < 128 ? *ascii[c] : font.glyph(pixels, c);
  };
  const auto width_of = [&](const std::u32string& line) {
    int w = 0;
    for (char32_t c : line) w += glyph_of(c).advance;
    return w;
  };
  std::vector<std::u32string> lines;
  const std::u32string all = decode(text_);
  std::size_t start = 0;
  while (start <= all.size()) {
    std::size_t end = all.find(U'\n', start);
    if (end == std::u32string::npos) end = all.size();
    std::u32string line = all.substr(start, end - start);
    // Wrap at the last space that keeps the line within the maximum width.
    while (maximum_width_ > 0 && width_of(line) > maximum_width_ - 2 * kMargin) {
      std::size_t cut = line.rfind(U' ');
      while (cut != std::u32string::npos && cut > 0 &&
             width_of(line.substr(0, cut)) > maximum_width_ - 2 * kMargin)
        cut = line.rfind(U' ', cut - 1);
      if (cut == std::u32string::npos || cut == 0) break;
      lines.push_back(line.substr(0, cut));
      line = line.substr(cut + 1);
    }
    lines.push_back(std::move(line));
    start = end + 1;
  }
  int w = 0;
  for (const std::u32string& line : lines) w = std::max(w, width_of(line));
  w += 2 * kMargin;
  const int h = static_cast<int>(lines.size()) * height + 2 * kMargin;

  // The same size as before: the image (and the texture) are reused, the texture updated in place.
  if (image_->s() != w || image_->t() != h || image_->data() == nullptr) {
    image_->allocateImage(w, h, 1, GL_RGBA, GL_UNSIGNED_BYTE);
    image_->setInternalTextureFormat(GL_RGBA);
  }
  unsigned char* data = image_->data();
  const std::array<unsigned char, 4> box{0, 0, 0, kBoxAlpha};
  for (int i = 0; i < w * h; ++i) std::memcpy(data + 4 * i, box.data(), 4);
  const auto channel = [](float v) { return static_cast<int>(std::lround(255 * v)); };
  const int r = channel(colour_.r()), g = channel(colour_.g()), b = channel(colour_.b());
  for (std::size_t l = 0; l < lines.size(); ++l) {
    // Image rows count from the bottom: the first line's baseline is near the top.
    const int baseline = h - kMargin - static_cast<int>(l) * height - ascender;
    int pen = kMargin;
    for (char32_t c : lines[l]) {
      const Glyph& glyph = glyph_of(c);
      for (int row = 0; row < glyph.rows; ++row) {
        const int y = baseline + glyph.top - 1 - row;
        if (y < 0 || y >= h) continue;
        for (int col = 0; col < glyph.width; ++col) {
          const int x = pen + glyph.left + col;
          if (x < 0 || x >= w) continue;
          const int a = glyph.coverage[static_cast<std::size_t>(row * glyph.width + col)];
          if (a == 0) continue;
          unsigned char* p = data + 4 * (y * w + x);
          // Source over the box: colour with coverage a.
          p[0] = static_cast<unsigned char>((r * a + p[0] * (255 - a)) / 255);
          p[1] = static_cast<unsigned char>((g * a + p[1] * (255 - a)) / 255);
          p[2] = static_cast<unsigned char>((b * a + p[2] * (255 - a)) / 255);
          p[3] = static_cast<unsigned char>(a + p[3] * (255 - a) / 255);
        }
      }
      pen += glyph.advance;
    }
  }
  image_->dirty();
  texture_->setImage(image_.get());
  texture_->setTextureSize(w, h);
  place();
}

void HudText::place() {
  const float w = float(image_->s()), h = float(image_->t());
  float x = x_, y = y_;
  switch (anchor_) {
    case Anchor::left_bottom:
      break;
    case Anchor::left_top:
      y -= h;
      break;
    case Anchor::left_center:
      y -= h / 2;
      break;
    case Anchor::center:
      x -= w / 2;
      y -= h / 2;
      break;
    case Anchor::center_top:
      x -= w / 2;
      y -= h;
      break;
    case Anchor::right_bottom:
      x -= w;
      break;
  }
  // Whole pixels: the image maps one to one onto the screen.
  x = std::round(x);
  y = std::round(y);
  auto* v = static_cast<osg::Vec3Array*>(getVertexArray());
  (*v)[0].set(x, y, 0);
  (*v)[1].set(x + w, y, 0);
  (*v)[2].set(x + w, y + h, 0);
  (*v)[3].set(x, y + h, 0);
  v->dirty();
  dirtyBound();
}

osg::ref_ptr<HudText> hud_text(float size, const osg::Vec4& colour) {
  return new HudText(size, colour);
}

void set_text(HudText& text, const std::string& utf8) {
  text.set(utf8);
}

}  // namespace substruct::viewer
