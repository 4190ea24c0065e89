#include "hud_plot.hpp"

#include <algorithm>
#include <cmath>

#include <osg/BlendFunc>

namespace substruct::viewer {

namespace {
const osg::Vec4 kPanel{0.f, 0.f, 0.f, 0.45f};
}  // namespace

HudPlot::HudPlot() : geode_(new osg::Geode), geometry_(new osg::Geometry) {
  geometry_->setDataVariance(osg::Object::DYNAMIC);
  geometry_->setUseVertexBufferObjects(true);
  geometry_->setVertexArray(new osg::Vec3Array(4));
  auto* colours = new osg::Vec4Array;
  colours->assign(4, kPanel);
  geometry_->setColorArray(colours, osg::Array::BIND_PER_VERTEX);
  geometry_->addPrimitiveSet(new osg::DrawArrays(GL_QUADS, 0, 4));
  geometry_->addPrimitiveSet(new osg::DrawArrays(GL_LINES, 4, 0));
  geode_->addDrawable(geometry_);
  osg::StateSet* ss = geode_->getOrCreateStateSet();
  ss->setMode(GL_BLEND, osg::StateAttribute::ON);
  ss->setAttributeAndModes(new osg::BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
  place(x_, y_, width_, height_);
}

void HudPlot::place(float x, float y, float width, float height) {
  x_ = x, y_ = y, width_ = width, height_ = height;
  auto* v = static_cast<osg::Vec3Array*>(geometry_->getVertexArray());
  (*v)[0].set(x, y, 0);
  (*v)[1].set(x + width, y, 0);
  (*v)[2].set(x + width, y + height, 0);
  (*v)[3].set(x, y + height, 0);
  v->dirty();
  geometry_->dirtyBound();
}

double HudPlot::update(const std::vector<PlotCurve>& curves, double t_begin, double t_end) {
  double largest = 0;
  for (const PlotCurve& c : curves)
    for (double value : c.value)
      if (std::isfinite(value)) largest = std::max(largest, std::abs(value));
  const double scale = largest > 0 ? 1.0 / largest : 0.0;
  const double span = std::max(t_end - t_begin, 1e-9);
  // The curves' area: 3 pixels in from the panel's sides.
  const float left = x_ + 3, bottom = y_ + 3, w = width_ - 6, h = height_ - 6;
  auto* v = static_cast<osg::Vec3Array*>(geometry_->getVertexArray());
  auto* colours = static_cast<osg::Vec4Array*>(geometry_->getColorArray());
  v->resize(4);
  colours->resize(4);
  for (const PlotCurve& c : curves) {
    osg::Vec3 previous;
    for (std::size_t i = 0; i < c.time.size() && i < c.value.size(); ++i) {
      const double s = std::clamp((c.time[i] - t_begin) / span, 0.0, 1.0);
      const double value = std::isfinite(c.value[i]) ? c.value[i] * scale : 0.0;
      const osg::Vec3 p(left + float(s) * w, bottom + float(std::clamp(value, 0.0, 1.0)) * h, 0);
      if (i > 0) {  // a segment from the previous sample
        v->push_back(previous);
        v->push_back(p);
        colours->push_back(c.colour);
        colours->push_back(c.colour);
      }
      previous = p;
    }
  }
  v->dirty();
  colours->dirty();
  static_cast<osg::DrawArrays*>(geometry_->getPrimitiveSet(1))
      ->setCount(static_cast<GLsizei>(v->size() - 4));
  geometry_->dirtyBound();
  return largest;
}

}  // namespace substruct::viewer
