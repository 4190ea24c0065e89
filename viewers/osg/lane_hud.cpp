// SPDX-License-Identifier: GPL-3.0-or-later
#include "lane_hud.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <osg/Geode>

#include "hud_text.hpp"
#include "scene_graph.hpp"

namespace substruct::viewer {

namespace {

constexpr float kLegendBarHeight = 140.f, kLegendBarWidth = 12.f;
constexpr int kDisplacementPlot = 0, kEnergyPlot = 1;  // the panels of plots_
constexpr int kLegendSteps = 16;
const osg::Vec4 kOwnCurve{1.f, 1.f, 1.f, 1.f};
const osg::Vec4 kReferenceCurve{0.6f, 0.6f, 0.6f, 1.f};
const osg::Vec4 kKinetic{1.f, 0.6f, 0.2f, 1.f};
const osg::Vec4 kElastic{0.3f, 0.85f, 1.f, 1.f};

std::string percent(double fraction) {
  return std::isfinite(fraction) ? fmt::format("{:.2f} %", 100 * fraction) : std::string("–");
}

}  // namespace

std::string length_text(double metres) {
  const double a = std::abs(metres);
  if (a == 0) return "0 m";
  if (a < 1e-3) return fmt::format("{:.3g} µm", metres * 1e6);
  if (a < 1) return fmt::format("{:.3g} mm", metres * 1e3);
  return fmt::format("{:.3g} m", metres);
}

LaneHud::LaneHud() : camera_(new osg::Camera) {
  camera_->setReferenceFrame(osg::Transform::ABSOLUTE_RF);
  camera_->setViewMatrix(osg::Matrix::identity());
  camera_->setClearMask(0);  // drawn last (bins 100, and 101 for text), without depth test
  camera_->getOrCreateStateSet()->setMode(GL_DEPTH_TEST, osg::StateAttribute::OFF);
  camera_->getOrCreateStateSet()->setRenderBinDetails(100, "RenderBin");
  camera_->setRenderOrder(osg::Camera::NESTED_RENDER);  // in its viewport's pass
  camera_->setAllowEventFocus(false);
  camera_->getOrCreateStateSet()->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
  auto* geode = new osg::Geode;
  lines_ = hud_text(12.f, {1.f, 1.f, 1.f, 1.f});
  lines_->set_anchor(HudText::Anchor::left_bottom);
  centre_ = hud_text(16.f, {1.f, 0.75f, 0.4f, 1.f});
  centre_->set_anchor(HudText::Anchor::center);
  title_ = hud_text(20.f, {1.f, 1.f, 1.f, 1.f});
  title_->set_anchor(HudText::Anchor::center_top);
  geode->addDrawable(title_);
  geode->addDrawable(lines_);
  geode->addDrawable(centre_);
  camera_->addChild(geode);
  camera_->addChild(plots_.node());

  // The legend: a vertical bar of the heat colours with its scale.
  legend_ = new osg::Geode;
  legend_bar_ = new osg::Geometry;
  legend_bar_->setVertexArray(new osg::Vec3Array(2 * (kLegendSteps + 1)));
  auto* colours = new osg::Vec4Array;
  for (int i = 0; i <= kLegendSteps; ++i) {
    const osg::Vec4 c = heat_colour(double(i) / kLegendSteps);
    colours->push_back(c);
    colours->push_back(c);
  }
  legend_bar_->setColorArray(colours, osg::Array::BIND_PER_VERTEX);
  legend_bar_->addPrimitiveSet(new osg::DrawArrays(GL_QUAD_STRIP, 0, 2 * (kLegendSteps + 1)));
  legend_->addDrawable(legend_bar_);
  legend_text_ = hud_text(11.f, {1.f, 1.f, 1.f, 1.f});
  legend_text_->set_anchor(HudText::Anchor::right_bottom);
  legend_->addDrawable(legend_text_);
  camera_->addChild(legend_);
}

void LaneHud::place(int x, int y, int width, int height) {
  width_ = width;
  height_ = height;
  camera_->setViewport(x, y, width, height);
  camera_->getOrCreateStateSet()->setAttribute(camera_->getViewport());
  camera_->setProjectionMatrix(osg::Matrix::ortho2D(0, width, 0, height));
  title_->set_position(float(width) / 2, float(height) - 4.f);
  title_->set_maximum_width(float(width) - 8.f);
  lines_->set_position(8.f, 8.f);
  lines_->set_maximum_width(float(width) - 16.f);
  centre_->set_position(float(width) / 2, float(height) / 2);
  centre_->set_maximum_width(float(width) - 20.f);
  // Two plots above the text (4 lines), as wide as the viewport allows.
  const float w = std::min(230.f, float(width) - 16.f), h = 48.f, above = 74.f;
  plots_.place(kDisplacementPlot, 8.f, above + h + 4.f, w, h);
  plots_.place(kEnergyPlot, 8.f, above, w, h);
  // The legend at the right, its bar's top a little below the window's top.
  const float right = float(width) - 10.f, top = float(height) - 130.f - kTitleBand;
  auto* v = static_cast<osg::Vec3Array*>(legend_bar_->getVertexArray());
  for (int i = 0; i <= kLegendSteps; ++i) {
    const float yy = top - kLegendBarHeight + kLegendBarHeight * float(i) / kLegendSteps;
    (*v)[2 * i].set(right - kLegendBarWidth, yy, 0);
    (*v)[2 * i + 1].set(right, yy, 0);
  }
  v->dirty();
  legend_bar_->dirtyBound();
  legend_text_->set_position(right, top + 6.f);
}

void LaneHud::update(const LaneHudState& s) {
  // The plots first: their scales go into the captions.
  const bool plots = s.history != nullptr && !s.history->samples().empty();
  plots_.node()->setNodeMask(plots ? ~0u : 0u);
  std::string captions;
  // The plots change when a sample arrives (every few frames): redrawn only then.
  const double newest = plots ? s.history->samples().back().time : -1;
  const double reference_newest =
      s.reference_history != nullptr && !s.reference_history->samples().empty()
          ? s.reference_history->samples().back().time
          : -1;
  const bool fresh =
      plots && (newest != plotted_newest_ || reference_newest != plotted_reference_newest_ ||
                s.history->samples().size() != plotted_samples_);
  if (fresh) {
    plotted_newest_ = newest;
    plotted_reference_newest_ = reference_newest;
    plotted_samples_ = s.history->samples().size();
    auto curve = [](const PlotHistory& h, double PlotSample::*field, const osg::Vec4& colour) {
      PlotCurve c;
      c.colour = colour;
      for (const PlotSample& sample : h.samples()) {
        c.time.push_back(sample.time);
        c.value.push_back(sample.*field);
      }
      return c;
    };
    std::vector<PlotCurve> displacement;
    const bool other = s.reference_history != nullptr && s.reference_history != s.history;
    if (other)
      displacement.push_back(
          curve(*s.reference_history, &PlotSample::displacement, kReferenceCurve));
    displacement.push_back(curve(*s.history, &PlotSample::displacement, kOwnCurve));
    // The last seconds: from the oldest sample held until the window is full, then scrolling.
    const double begin = std::max(s.history->samples().front().time, newest - s.history->seconds());
    const double d = plots_.update(kDisplacementPlot, displacement, begin, newest);
    const double e = plots_.update(kEnergyPlot,
                                   {curve(*s.history, &PlotSample::kinetic, kKinetic),
                                    curve(*s.history, &PlotSample::elastic, kElastic)},
                                   begin, newest);
    captions_ =
        fmt::format("▲ tracked |x − x(0)| ≤ {}{}\n▼ energy ≤ {:.3g} mJ: kinetic, elastic\n",
                    length_text(d), other ? fmt::format(", grey: {}", s.reference) : "", 1e3 * e);
  }
  if (plots) captions = captions_;

  std::string line =
      s.dofs > 0 ? fmt::format("{}   {} DOFs   {:.3f} ms/step", s.method, s.dofs, s.ms_per_step)
                 : s.method;
  if (broken_interface(s.interface_gap, s.size)) {
    line += fmt::format("\nbroken output: the domains are {} apart ({} of the size)",
                        length_text(s.interface_gap), percent(s.interface_gap / s.size));
  } else if (!s.reference.empty() && s.dofs > 0) {
    if (s.is_reference)
      line += "\nreference of the errors";
    else if (s.error_frames > 0)
      line += fmt::format("\nerror {} of {}'s motion, offset × {:.3g}",
                          percent(s.error.relative_rms), s.reference, s.error.offset_ratio);
    else
      line += fmt::format("\nerror against {}: –", s.reference);
  }
  const std::string title = s.is_reference ? s.method + " (reference)" : s.method;
  set_text(*title_, title);
  text_ = line;
  if (!s.centre.empty()) text_ += "\n" + s.centre;
  text_ += "\ntitle: " + title;
  set_text(*lines_, captions + line);
  set_text(*centre_, s.centre);

  const bool legend = (s.colouring == Colouring::error || s.colouring == Colouring::displacement) &&
                      s.colour_scale > 0;
  legend_->setNodeMask(legend ? ~0u : 0u);
  if (legend)
    set_text(*legend_text_,
             fmt::format("{}\nblue 0 → red {}",
                         s.colouring == Colouring::error ? fmt::format("|y − y({})|", s.reference)
                                                         : std::string("|y − Y|"),
                         length_text(s.colour_scale)));
}

}  // namespace substruct::viewer
