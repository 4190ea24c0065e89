// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// One cell of the benchmark: a scene simulated by one coupling method, timed over repeated runs,
/// with the trajectories and energies the accuracy figures are computed from.
#include <string>
#include <utility>
#include <vector>

#include "substruct/config/config.hpp"
#include "substruct/contact/contact_service.hpp"
#include "substruct/coupling/coupling_method.hpp"

namespace substruct {

class PluginHost;

struct BenchCaseSettings {
  long steps = 200;  // per run
  int repeats = 3;   // timed runs from the same initial state (the first one is recorded)
};

struct BenchCase {
  std::string scene;
  std::string method;  // the coupling plugin
  std::string label;   // the row's name in a suite ("L2 matched"); empty: the plugin's
  std::string paper;   // what the paper reports for this row, shown beside ours; may be empty
  const std::string& name() const { return label.empty() ? method : label; }
  /// Empty when it ran to the end; else why not ("cannot run: …", "diverged at step …", …).
  std::string failure;
  bool ran() const { return failure.empty(); }

  Index dofs = 0;
  int domains = 0;
  double dt = 0;
  double size = 0;  // the scene's bounding-box diagonal [m]
  double precompute_seconds = 0;
  PrecomputeStats precompute;
  std::vector<double> step_seconds;                           // every step of every repeat
  std::vector<std::pair<std::string, double>> stage_seconds;  // mean per step
  double peak_rss_mb = 0;      // peak resident memory of the process during the case
  double baseline_rss_mb = 0;  // resident memory before it
  double interface_gap = 0;    // the largest over the recorded run's frames [m]
  /// The contact stage of the last run ([contact] obstacles only; contact/contact_service.hpp).
  bool contact = false;
  ContactStats contact_stats;
  double contact_tolerance = 0;  // [contact] tolerance [m]

  // The first run, frame 0 (initial state) to frame `steps`.
  std::vector<Index> tracked_vertices;
  Eigen::MatrixXd tracked;  // frames × 3·tracked
  std::vector<double> kinetic, elastic, gravity;
  /// The first frame from which the gravity acceleration no longer changes (0: constant; after
  /// a [gravity] ramp, the frame it ends): the energy change is counted from there, since the
  /// potential of a changing field is no conserved quantity.
  Index steady_from = 0;

  double median_step_seconds() const;
  /// The p-th percentile of the step times (p in [0, 100]), by linear interpolation.
  double percentile_step_seconds(double p) const;
};

/// Runs `config`'s scene with its [coupling] plugin: precompute (timed, with its stages), then
/// `repeats` runs of `steps` steps from the scene's initial state without output. The tracked
/// vertices are the scene's [scene] tracked_vertices, else default_tracked_vertex()
/// (scene/tracked_vertex.hpp). A method that cannot run the scene or
/// diverges gives a case with `failure` set; other errors are thrown.
BenchCase run_bench_case(const Config& config, const PluginHost& host,
                         const BenchCaseSettings& settings);

}  // namespace substruct
