// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small live charts in a HUD (pixel coordinates): translucent panels, each with a few curves over
// one time window, scaled to the panel's height by the largest value of its curves (which the
// caller prints in its text). All panels and curves are one drawable: one draw call, which is
// what a software renderer charges for.
#include <vector>

#include <osg/Geode>
#include <osg/Geometry>
#include <osg/ref_ptr>

namespace substruct::viewer {

struct PlotCurve {
  std::vector<double> time, value;
  osg::Vec4 colour;
};

class HudPlot {
 public:
  explicit HudPlot(int panels);
  osg::Geode* node() const { return geode_.get(); }
  /// Panel `panel`'s lower-left corner and size [pixels].
  void place(int panel, float x, float y, float width, float height);
  /// Draws `curves` in panel `panel` over [t_begin, t_end]; returns their largest value (the top
  /// of the panel).
  double update(int panel, const std::vector<PlotCurve>& curves, double t_begin, double t_end);

 private:
  struct Panel {
    float x = 0, y = 0, width = 200, height = 60;
    std::vector<osg::Vec3> points;  // segment ends, two per segment
    std::vector<osg::Vec4> colours;
  };
  void rebuild();

  osg::ref_ptr<osg::Geode> geode_;
  osg::ref_ptr<osg::Geometry> geometry_;  // the panels' quads, then the curves' segments
  std::vector<Panel> panels_;
};

}  // namespace substruct::viewer
