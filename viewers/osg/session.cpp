#include "session.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/fem/tet_geometry.hpp"

namespace substruct::viewer {

namespace {
constexpr std::size_t kTimedSteps = 60;  // ms/step is the mean over this many steps
}

Session::Session(const PluginHost& host, const ViewerOptions& options)
    : host_(host), options_(options), paused_(options.paused) {
  drag_stiffness_ = options.drag_stiffness;
  // Precomputation progress and its messages ("loaded from cache") go on screen too.
  Progress::set_observer([this](const ProgressReport& report) {
    std::string line;
    if (report.finished)
      line = fmt::format("{}: done in {:.1f} s", report.label, report.elapsed);
    else if (report.total > 0)
      line = fmt::format("{}: {:.0f} % ({:.1f} s)", report.label,
                         100.0 * double(report.done) / double(report.total), report.elapsed);
    else
      line = fmt::format("{}: {:.1f} s", report.label, report.elapsed);
    std::lock_guard lock(text_mutex_);
    progress_ = line;
  });
  log::set_observer([this](const std::string& text) {
    std::lock_guard lock(text_mutex_);
    progress_ = text;
  });
}

Session::~Session() {
  if (pending_.valid()) pending_.wait();
  Progress::set_observer({});
  log::set_observer({});
}

Session::Loaded Session::build(const std::string& method) const {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> overrides = options_.scene.overrides;
  overrides.push_back("--coupling.plugin=" + method);
  if (options_.pull) {
    overrides.push_back(fmt::format("--pull.vertices={}", options_.pull->vertex));
    overrides.push_back(fmt::format("--pull.force={} {} {}", options_.pull->force.x(),
                                    options_.pull->force.y(), options_.pull->force.z()));
  }
  const Config config = Config::load(options_.scene.scene_file, overrides, host_);
  auto sim = std::make_unique<Simulation>(config, host_);
  sim->precompute();
  sim->reset();
  sim->render_surface();  // the embedding, off the main thread
  Loaded loaded;
  loaded.sim = std::move(sim);
  loaded.method = method;
  loaded.seconds = seconds_since(start);
  return loaded;
}

void Session::load(const std::string& method, bool background) {
  if (pending_.valid()) {
    set_message(fmt::format("still loading {}", pending_method_));
    return;
  }
  pending_method_ = method;
  if (!background) {
    install(build(method));
    return;
  }
  set_message(fmt::format("loading {} …", method));
  pending_ = std::async(std::launch::async, [this, method] { return build(method); });
}

std::string Session::next_method() const {
  std::vector<std::string> names;
  for (const PluginDescriptor* d : host_.of_kind(PluginKind::coupling)) names.emplace_back(d->name);
  if (names.empty()) return method_;
  const std::string& current = pending_method_.empty() ? method_ : pending_method_;
  const auto it = std::upper_bound(names.begin(), names.end(), current);
  return it == names.end() ? names.front() : *it;
}

bool Session::poll() {
  if (!pending_.valid() || pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
    return false;
  try {
    install(pending_.get());
    return true;
  } catch (const std::exception& e) {
    set_message(fmt::format("{} could not be loaded: {}", pending_method_, e.what()));
    return false;
  }
}

void Session::install(Loaded loaded) {
  Simulation& sim = *loaded.sim;
  const bool first = !sim_;
  if (first) {
    gravity_on_ = sim.has_load("gravity");
    wind_on_ = sim.has_load("wind");
  }
  // The loads the viewer toggles exist in every simulation, switched on or off.
  for (const char* name : {"gravity", "wind", "pull"}) {
    if (sim.has_load(name)) continue;
    if (std::string(name) == "pull" && !options_.pull) continue;
    if (host_.try_find(name) == nullptr) continue;  // reported when toggled
    sim.add_load(name, host_.create<Load>(name, PluginKind::load, PluginContext{sim.config()}));
  }
  sim.set_load_enabled("gravity", gravity_on_);
  sim.set_load_enabled("wind", wind_on_);
  auto spring = std::make_unique<DragSpring>();
  spring_ = spring.get();
  sim.add_load("mouse", std::move(spring));
  if (drag_stiffness_ <= 0) {
    // A spring that would swing the whole object at about 3 Hz.
    const TetGeometry geometry = TetGeometry::build(sim.scene().mesh);
    double mass = 0;
    for (Index e = 0; e < sim.scene().mesh.num_elements(); ++e)
      mass +=
          geometry.volume[static_cast<std::size_t>(e)] * sim.scene().mesh.material_of(e).density;
    drag_stiffness_ = mass * (2 * 3.14159265358979 * 3) * (2 * 3.14159265358979 * 3);
  }
  sim_ = std::move(loaded.sim);
  method_ = loaded.method;
  pending_method_.clear();
  step_seconds_.clear();
  ++generation_;
  set_message(fmt::format("{}: {} DOFs, ready in {:.1f} s", method_, sim_->method().dofs(),
                          loaded.seconds));
}

void Session::advance(int steps) {
  if (!sim_ || paused_) return;
  try {
    StepStats stats;
    for (int s = 0; s < steps; ++s) {
      step_seconds_.push_back(sim_->step(stats));
      if (step_seconds_.size() > kTimedSteps) step_seconds_.pop_front();
    }
  } catch (const Error& e) {
    paused_ = true;
    set_message(fmt::format("paused: {} (r resets)", e.what()));
  }
}

void Session::reset() {
  if (!sim_) return;
  if (spring_) spring_->release();
  sim_->reset();
  step_seconds_.clear();
  set_message("reset to the initial state");
}

bool Session::gravity() const {
  return gravity_on_;
}

void Session::toggle_gravity() {
  if (!sim_) return;
  if (!sim_->has_load("gravity")) {
    set_message("no gravity plugin is installed");
    return;
  }
  gravity_on_ = !gravity_on_;
  sim_->set_load_enabled("gravity", gravity_on_);
  set_message(gravity_on_ ? "gravity on" : "gravity off");
}

bool Session::wind() const {
  return wind_on_;
}

void Session::toggle_wind() {
  if (!sim_) return;
  if (!sim_->has_load("wind")) {
    set_message("no wind plugin is installed");
    return;
  }
  wind_on_ = !wind_on_;
  sim_->set_load_enabled("wind", wind_on_);
  set_message(wind_on_ ? "wind on ([wind] section sets it)" : "wind off");
}

double Session::ms_per_step() const {
  if (step_seconds_.empty()) return 0;
  double sum = 0;
  for (double s : step_seconds_) sum += s;
  return 1e3 * sum / double(step_seconds_.size());
}

std::string Session::message() const {
  std::lock_guard lock(text_mutex_);
  return message_;
}

std::string Session::progress() const {
  std::lock_guard lock(text_mutex_);
  return progress_;
}

void Session::set_message(const std::string& text) {
  std::lock_guard lock(text_mutex_);
  message_ = text;
}

}  // namespace substruct::viewer
