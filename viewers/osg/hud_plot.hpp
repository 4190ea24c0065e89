#pragma once
// A small live chart in a HUD (pixel coordinates): a translucent panel and a few curves over the
// same time window, scaled to the panel's height by the largest value of all of them (which the
// caller prints in its text). Panel and curves are one drawable (one draw call).
#include <string>
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
  HudPlot();
  osg::Geode* node() const { return geode_.get(); }
  /// The panel's lower-left corner and size [pixels].
  void place(float x, float y, float width, float height);
  /// Draws `curves` over [t_begin, t_end]; returns the largest value (the top of the panel).
  double update(const std::vector<PlotCurve>& curves, double t_begin, double t_end);

 private:
  osg::ref_ptr<osg::Geode> geode_;
  osg::ref_ptr<osg::Geometry> geometry_;  // the panel's quad, then the curves' segments
  float x_ = 0, y_ = 0, width_ = 200, height_ = 60;
};

}  // namespace substruct::viewer
