// SPDX-License-Identifier: GPL-3.0-or-later
#include "session.hpp"

#include <algorithm>
#include <cmath>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/core/stopwatch.hpp"

namespace substruct::viewer {

Session::Session(const PluginHost& host, const ViewerOptions& options,
                 const std::string& scene_method)
    : host_(host), options_(options), paused_(options.paused) {
  drag_stiffness_ = options.drag_stiffness;
  // The viewed lanes, then the reference and the ghost where they are not among them.
  const std::vector<std::string> viewed =
      options.compare.size() > 1 ? options.compare : std::vector<std::string>{scene_method};
  for (const std::string& method : viewed) add_lane(method);
  viewed_ = lanes_.size();
  auto find_or_add = [&](const std::string& method) {
    for (std::size_t k = 0; k < lanes_.size(); ++k)
      if (lanes_[k]->method() == method) return k;
    return add_lane(method);
  };
  reference_method_ = options.reference_method();
  if (reference_method_.empty() && options.colouring == Colouring::error)
    reference_method_ = "full";
  if (!reference_method_.empty()) reference_ = find_or_add(reference_method_);
  if (!options.ghost.empty()) ghost_ = find_or_add(options.ghost);
  const int threads = options.threads > 0
                          ? options.threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  pool_ = std::make_unique<WorkerPool>(
      static_cast<int>(std::min<std::size_t>(std::size_t(threads), lanes_.size())));

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

std::size_t Session::add_lane(const std::string& method) {
  lanes_.push_back(std::make_unique<Lane>(method));
  return lanes_.size() - 1;
}

void Session::load(bool background) {
  load_queue_.clear();
  next_load_ = 0;
  for (std::size_t k = 0; k < lanes_.size(); ++k) load_queue_.emplace_back(k, lanes_[k]->method());
  if (background) {
    start_next_load();
    return;
  }
  for (; next_load_ < load_queue_.size(); ++next_load_) {
    const auto& [k, method] = load_queue_[next_load_];
    try {
      install(k, method, build_simulation(host_, options_, method));
    } catch (const std::exception& e) {
      if (viewed_ == 1 && k == 0) throw;
      lanes_[k]->fail(fmt::format("{} cannot run on this scene: {}", method, e.what()));
    }
  }
  started_ = true;
  start_runs();
}

void Session::start_next_load() {
  if (next_load_ >= load_queue_.size()) return;
  const auto& [k, method] = load_queue_[next_load_++];
  pending_lane_ = k;
  pending_method_ = method;
  set_message(fmt::format("loading {} …", method));
  pending_ = std::async(std::launch::async,
                        [this, m = method] { return build_simulation(host_, options_, m); });
}

void Session::switch_method(const std::string& method) {
  if (viewed_ != 1) {
    set_message("m switches the method of a single view; --compare fixes the methods");
    return;
  }
  if (loading()) {
    set_message(fmt::format("still loading {}", pending_method_));
    return;
  }
  load_queue_.assign(1, {std::size_t{0}, method});
  next_load_ = 0;
  start_next_load();
}

std::string Session::next_method() const {
  std::vector<std::string> names;
  for (const PluginDescriptor* d : host_.of_kind(PluginKind::coupling)) names.emplace_back(d->name);
  const std::string& current = lanes_.front()->method();
  if (names.empty()) return current;
  const auto it = std::upper_bound(names.begin(), names.end(), current);
  return it == names.end() ? names.front() : *it;
}

bool Session::poll() {
  if (!pending_.valid() || pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
    return false;
  const std::size_t k = pending_lane_;
  bool changed = false;
  try {
    install(k, pending_method_, pending_.get());
    changed = true;
  } catch (const std::exception& e) {
    const std::string why =
        fmt::format("{} cannot run on this scene: {}", pending_method_, e.what());
    if (lanes_[k]->ready())  // a method switch: the old one keeps running
      set_message(why);
    else
      lanes_[k]->fail(why);
    if (viewed_ == 1 && k == 0 && !lanes_[k]->ready()) set_message(why);
  }
  if (next_load_ < load_queue_.size()) {
    start_next_load();
  } else {
    started_ = true;
    // Lockstep: after a switch, or once every lane is there, all start from the initial state.
    for (auto& lane : lanes_) lane->reset();
    start_runs();
  }
  return changed;
}

void Session::install(std::size_t k, const std::string& method, LoadedSimulation loaded) {
  const bool first =
      std::none_of(lanes_.begin(), lanes_.end(), [](const auto& lane) { return lane->ready(); });
  Simulation& sim = *loaded.sim;
  if (first) {
    gravity_on_ = sim.has_load("gravity");
    wind_on_ = sim.has_load("wind");
    excitation_ = loaded.excitation;
    if (drag_stiffness_ <= 0) {
      // A spring that would swing the whole object at about 3 Hz.
      drag_stiffness_ =
          object_mass(sim.scene()) * (2 * 3.14159265358979 * 3) * (2 * 3.14159265358979 * 3);
    }
  }
  const double seconds = loaded.seconds;
  lanes_[k]->install(method, std::move(loaded), host_, options_.pull.has_value(), gravity_on_,
                     wind_on_);
  if (k == reference_) reference_method_ = method;
  set_message(fmt::format("{}: {} DOFs, ready in {:.1f} s", method,
                          lanes_[k]->sim().method().dofs(), seconds));
}

void Session::restart_errors() {
  Lane* ref = reference();
  for (auto& lane : lanes_) {
    lane->error().clear();
    if (ref != nullptr && ref->running() && lane->running())
      lane->error().add(lane->tracked_now(), ref->tracked_now());
  }
}

void Session::start_runs() {
  restart_errors();
  if (excitation_)
    set_message(
        fmt::format("vertex {} pulled by {:.3g} N until t = {:.2g} s, then let go (--still: not)",
                    excitation_->vertex, excitation_->force.norm(), excitation_->release_time));
}

void Session::advance(int steps) {
  last_step_seconds_ = 0;
  if (!started_ || paused_) return;
  // The lanes are independent simulations: stepped side by side on the pool's threads (each
  // lane's own result does not depend on it), lane k by part k mod parts. Each part then samples
  // its lanes' plots and render states (the viewer's work, overlapping the other parts' steps);
  // last_step_seconds() is the longest part's time in steps alone.
  std::vector<char> ran(lanes_.size(), 0), stopped(lanes_.size(), 0);
  for (std::size_t k = 0; k < lanes_.size(); ++k) ran[k] = lanes_[k]->running();
  const Vec3 g = gravity_vector();
  std::vector<double> part_step_seconds(std::size_t(pool_->size()), 0.0);
  const auto step_part = [&](int part) {
    for (std::size_t k = std::size_t(part); k < lanes_.size(); k += std::size_t(pool_->size())) {
      if (!ran[k]) continue;
      const auto start = Clock::now();
      stopped[k] = !lanes_[k]->advance(steps);
      part_step_seconds[std::size_t(part)] += seconds_since(start);
      if (stopped[k]) continue;
      lanes_[k]->sample_plot(g);
      if (lanes_[k]->render_on_cpu()) lanes_[k]->update_render();
    }
  };
  if (pool_->size() > 1)
    pool_->run(step_part);
  else
    step_part(0);
  last_step_seconds_ = *std::max_element(part_step_seconds.begin(), part_step_seconds.end());
  for (std::size_t k = 0; k < lanes_.size(); ++k) {
    if (!stopped[k]) continue;
    set_message(fmt::format("{} {} (r resets)", lanes_[k]->method(), lanes_[k]->failure()));
    if (viewed_ == 1 && k == 0) paused_ = true;
  }
  // The errors, step by step, against the reference's steps.
  Lane* ref = reference();
  if (ref == nullptr || !ref->running()) return;
  for (auto& lane : lanes_) {
    if (!lane->running() || lane->error().frames() == 0) continue;
    for (Index s = 0; s < lane->tracked_steps().rows(); ++s)
      lane->error().add(lane->tracked_steps().row(s), ref->tracked_steps().row(s));
  }
}

void Session::reset() {
  dragging_ = false;
  for (auto& lane : lanes_) lane->reset();
  restart_errors();
  set_message(excitation_ ? "reset to the initial state: pulled and let go again"
                          : "reset to the initial state");
}

void Session::sample_plots() {
  const Vec3 g = gravity_vector();
  for (auto& lane : lanes_)
    if (lane->ready()) lane->sample_plot(g);
}

Vec3 Session::gravity_vector() const {
  for (const auto& lane : lanes_) {
    if (!lane->ready()) continue;
    const Simulation& sim = lane->sim();
    if (!gravity_on_ || !sim.config().has("gravity.acceleration")) return Vec3::Zero();
    try {
      return sim.config().vec3("gravity.acceleration");
    } catch (const Error&) {
      return Vec3::Zero();
    }
  }
  return Vec3::Zero();
}

void Session::toggle_gravity() {
  if (!started_) return;
  if (!lanes_.front()->ready() || !lanes_.front()->sim().has_load("gravity")) {
    set_message("no gravity plugin is installed");
    return;
  }
  gravity_on_ = !gravity_on_;
  for (auto& lane : lanes_) lane->set_load_enabled("gravity", gravity_on_);
  set_message(gravity_on_ ? "gravity on" : "gravity off");
}

void Session::toggle_wind() {
  if (!started_) return;
  if (!lanes_.front()->ready() || !lanes_.front()->sim().has_load("wind")) {
    set_message("no wind plugin is installed");
    return;
  }
  wind_on_ = !wind_on_;
  for (auto& lane : lanes_) lane->set_load_enabled("wind", wind_on_);
  set_message(wind_on_ ? "wind on ([wind] section sets it)" : "wind off");
}

void Session::grab(Index vertex, const Vec3& target) {
  dragging_ = true;
  for (auto& lane : lanes_)
    if (lane->ready() && lane->spring() != nullptr)
      lane->spring()->grab(vertex, target, drag_stiffness_);
}

void Session::move_spring(const Vec3& target) {
  for (auto& lane : lanes_)
    if (lane->ready() && lane->spring() != nullptr && lane->spring()->active())
      lane->spring()->move_to(target);
}

void Session::release_spring() {
  dragging_ = false;
  for (auto& lane : lanes_)
    if (lane->ready() && lane->spring() != nullptr) lane->spring()->release();
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
