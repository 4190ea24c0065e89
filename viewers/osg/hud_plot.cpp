// SPDX-License-Identifier: GPL-3.0-or-later
#include "hud_plot.hpp"

#include <algorithm>
#include <cmath>

#include <osg/BlendFunc>

namespace substruct::viewer {

namespace {
const osg::Vec4 kPanel{0.f, 0.f, 0.f, 0.45f};
}  // namespace

HudPlot::HudPlot(int panels)
    : geode_(new osg::Geode), geometry_(new osg::Geometry), panels_(std::size_t(panels)) {
  geometry_->setDataVariance(osg::Object::DYNAMIC);
  geometry_->setUseVertexBufferObjects(true);
  geometry_->setVertexArray(new osg::Vec3Array);
  geometry_->setColorArray(new osg::Vec4Array, osg::Array::BIND_PER_VERTEX);
  geometry_->addPrimitiveSet(new osg::DrawArrays(GL_QUADS, 0, 4 * panels));
  geometry_->addPrimitiveSet(new osg::DrawArrays(GL_LINES, 4 * panels, 0));
  geode_->addDrawable(geometry_);
  osg::StateSet* ss = geode_->getOrCreateStateSet();
  ss->setMode(GL_BLEND, osg::StateAttribute::ON);
  ss->setAttributeAndModes(new osg::BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
  rebuild();
}

void HudPlot::place(int panel, float x, float y, float width, float height) {
  Panel& p = panels_[std::size_t(panel)];
  p.x = x, p.y = y, p.width = width, p.height = height;
  rebuild();
}

double HudPlot::update(int panel, const std::vector<PlotCurve>& curves, double t_begin,
                       double t_end) {
  Panel& p = panels_[std::size_t(panel)];
  double largest = 0;
  for (const PlotCurve& c : curves)
    for (double value : c.value)
      if (std::isfinite(value)) largest = std::max(largest, std::abs(value));
  const double scale = largest > 0 ? 1.0 / largest : 0.0;
  const double span = std::max(t_end - t_begin, 1e-9);
  // The curves' area: 3 pixels in from the panel's sides.
  const float left = p.x + 3, bottom = p.y + 3, w = p.width - 6, h = p.height - 6;
  p.points.clear();
  p.colours.clear();
  for (const PlotCurve& c : curves) {
    osg::Vec3 previous;
    for (std::size_t i = 0; i < c.time.size() && i < c.value.size(); ++i) {
      const double s = std::clamp((c.time[i] - t_begin) / span, 0.0, 1.0);
      const double value = std::isfinite(c.value[i]) ? c.value[i] * scale : 0.0;
      const osg::Vec3 q(left + float(s) * w, bottom + float(std::clamp(value, 0.0, 1.0)) * h, 0);
      if (i > 0) {  // a segment from the previous sample
        p.points.push_back(previous);
        p.points.push_back(q);
        p.colours.push_back(c.colour);
        p.colours.push_back(c.colour);
      }
      previous = q;
    }
  }
  rebuild();
  return largest;
}

void HudPlot::rebuild() {
  auto* v = static_cast<osg::Vec3Array*>(geometry_->getVertexArray());
  auto* colours = static_cast<osg::Vec4Array*>(geometry_->getColorArray());
  v->clear();
  colours->clear();
  for (const Panel& p : panels_) {
    for (const osg::Vec3& corner :
         {osg::Vec3(p.x, p.y, 0), osg::Vec3(p.x + p.width, p.y, 0),
          osg::Vec3(p.x + p.width, p.y + p.height, 0), osg::Vec3(p.x, p.y + p.height, 0)}) {
      v->push_back(corner);
      colours->push_back(kPanel);
    }
  }
  for (const Panel& p : panels_) {
    v->insert(v->end(), p.points.begin(), p.points.end());
    colours->insert(colours->end(), p.colours.begin(), p.colours.end());
  }
  v->dirty();
  colours->dirty();
  static_cast<osg::DrawArrays*>(geometry_->getPrimitiveSet(1))
      ->setCount(static_cast<GLsizei>(v->size() - 4 * panels_.size()));
  geometry_->dirtyBound();
}

}  // namespace substruct::viewer
