#pragma once
// The simulation the viewer shows: a substruct::Simulation (the same code path as `run`) plus the
// loads the viewer toggles (gravity, wind, the mouse spring, --pull), its timings, and switching
// the coupling method at run time: the new method is loaded and precomputed (or read from the
// model cache) on a background thread while the old one keeps running, with progress reported.
#include <atomic>
#include <chrono>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "drag_spring.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"
#include "viewer_options.hpp"

namespace substruct::viewer {

class Session {
 public:
  Session(const PluginHost& host, const ViewerOptions& options);
  ~Session();

  /// Loads and precomputes `method` (a coupling plugin). In the background when `background`,
  /// else before returning (throws Error then).
  void load(const std::string& method, bool background);
  /// The next coupling plugin after the current one that can be loaded (in name order).
  std::string next_method() const;
  /// Takes over a finished background load; true when the simulation changed.
  bool poll();

  bool ready() const { return static_cast<bool>(sim_); }
  bool loading() const { return pending_.valid(); }
  Simulation& sim() { return *sim_; }
  const std::string& method() const { return method_; }
  /// Incremented whenever sim() is a new simulation.
  int generation() const { return generation_; }

  /// Advances `steps` steps (unless paused); a divergence pauses and is reported in message().
  void advance(int steps);
  void reset();
  bool paused() const { return paused_; }
  void set_paused(bool paused) { paused_ = paused; }

  bool gravity() const;
  void toggle_gravity();
  bool wind() const;
  void toggle_wind();
  DragSpring* spring() { return spring_; }
  double drag_stiffness() const { return drag_stiffness_; }
  void scale_drag_stiffness(double factor) { drag_stiffness_ *= factor; }

  /// Mean method time per step over the last steps [ms].
  double ms_per_step() const;
  /// What happened last (errors, method switches); with the progress line while loading.
  std::string message() const;
  std::string progress() const;
  void set_message(const std::string& text);

 private:
  struct Loaded {
    std::unique_ptr<Simulation> sim;
    std::string method;
    double seconds = 0;
  };
  Loaded build(const std::string& method) const;
  void install(Loaded loaded);

  const PluginHost& host_;
  ViewerOptions options_;
  std::unique_ptr<Simulation> sim_;
  std::string method_;
  int generation_ = 0;
  std::future<Loaded> pending_;
  std::string pending_method_;
  DragSpring* spring_ = nullptr;  // owned by sim_
  double drag_stiffness_ = 0;
  bool paused_ = false;
  bool gravity_on_ = true, wind_on_ = false;
  std::deque<double> step_seconds_;
  mutable std::mutex text_mutex_;
  std::string message_, progress_;
};

}  // namespace substruct::viewer
