// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A viewport's own HUD: the method as its title, its DOFs and time per step, its running error
// against the reference (the benchmark's relative RMS over the reference's motion), small live
// plots of the tracked vertex's displacement and of the energies over the last seconds, the colour
// legend, and, across the middle, why the method does not run.
#include <optional>
#include <string>

#include <osg/Camera>
#include <osg/Geometry>
#include <osg/ref_ptr>

#include "hud_text.hpp"

#include "hud_plot.hpp"
#include "plot_history.hpp"
#include "substruct/bench/accuracy.hpp"
#include "viewer_options.hpp"

namespace substruct::viewer {

/// The band at the top of each viewport that holds its title [pixels].
inline constexpr float kTitleBand = 30.f;

struct LaneHudState {
  std::string method;  // also the viewport's title, large at its top
  long dofs = 0;
  double ms_per_step = 0;
  std::string centre;  // shown across the middle: a failure, or that it loads
  // Errors: the reference's name (empty: no reference), whether this lane is the reference, and
  // its running error (NaN figures until the reference moves).
  std::string reference;
  bool is_reference = false;
  MotionError error{};
  long error_frames = 0;
  // The domains' largest interface gap now and the object's size [m]: above 1 % of the size the
  // panel says the output is broken instead of giving its error.
  double interface_gap = 0;
  double size = 0;
  // The colour legend: its mode and scale [m] (the largest displacement it maps to red).
  Colouring colouring = Colouring::domains;
  double colour_scale = 0;
  const PlotHistory* history = nullptr;
  const PlotHistory* reference_history = nullptr;  // its displacement drawn grey beside
  double time = 0;
};

class LaneHud {
 public:
  LaneHud();
  osg::Camera* camera() const { return camera_.get(); }
  /// The viewport [pixels].
  void place(int x, int y, int width, int height);
  void update(const LaneHudState& state);
  /// The text lines shown (for --print-hud).
  const std::string& text() const { return text_; }

 private:
  osg::ref_ptr<osg::Camera> camera_;
  // The title (the method), the lines with the plots' captions, the centre, the legend's label.
  osg::ref_ptr<HudText> title_, lines_, centre_, legend_text_;
  osg::ref_ptr<osg::Geometry> legend_bar_;
  osg::ref_ptr<osg::Geode> legend_;
  HudPlot plots_{2};  // the tracked vertex's displacement above, the energies below
  double plotted_newest_ = -1, plotted_reference_newest_ = -1;  // what the plots show
  std::size_t plotted_samples_ = 0;
  std::string captions_;
  int width_ = 0, height_ = 0;
  std::string text_;
};

/// A length with a unit that suits it: "12.3 mm", "1.05 m", "240 µm".
std::string length_text(double metres);

}  // namespace substruct::viewer
