// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_history.hpp"

#include <algorithm>

namespace substruct::viewer {

bool PlotHistory::due(double time) const {
  return samples_.empty() || time < samples_.back().time ||
         time >= samples_.back().time + interval_ * (1 - 1e-9);
}

void PlotHistory::add(const PlotSample& sample) {
  if (!samples_.empty() && sample.time < samples_.back().time) samples_.clear();
  samples_.push_back(sample);
  while (samples_.size() > 1 && samples_.front().time < sample.time - seconds_)
    samples_.pop_front();
}

double PlotHistory::max_displacement() const {
  double m = 0;
  for (const PlotSample& s : samples_) m = std::max(m, s.displacement);
  return m;
}

double PlotHistory::max_energy() const {
  double m = 0;
  for (const PlotSample& s : samples_) m = std::max({m, s.kinetic, s.elastic});
  return m;
}

}  // namespace substruct::viewer
