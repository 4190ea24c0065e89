// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a viewport's HUD plots: per frame, the time, the first tracked vertex's displacement from
// its initial position and the kinetic and elastic energies, over the last seconds.
#include <deque>

namespace substruct::viewer {

struct PlotSample {
  double time = 0;          // [s]
  double displacement = 0;  // |x − x(0)| of the first tracked vertex [m]
  double kinetic = 0;       // [J]
  double elastic = 0;       // [J]
};

class PlotHistory {
 public:
  /// Keeps `seconds` of samples, one per `interval` at most (a plot 200 pixels wide shows no more).
  explicit PlotHistory(double seconds = 5.0, double interval = 0.04)
      : seconds_(seconds), interval_(interval) {}
  /// Whether a sample at `time` would be kept (the energies it needs cost a little).
  bool due(double time) const;
  /// Appends a sample; drops those older than `seconds` before it. A sample earlier than the last
  /// one (a reset) starts over.
  void add(const PlotSample& sample);
  void clear() { samples_.clear(); }
  double seconds() const { return seconds_; }
  const std::deque<PlotSample>& samples() const { return samples_; }
  /// The largest displacement and energy (kinetic or elastic) held; 0 when empty.
  double max_displacement() const;
  double max_energy() const;

 private:
  double seconds_, interval_;
  std::deque<PlotSample> samples_;
};

}  // namespace substruct::viewer
