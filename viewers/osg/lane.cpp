// SPDX-License-Identifier: GPL-3.0-or-later
#include "lane.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/geometry/render_embedding.hpp"

namespace substruct::viewer {

namespace {
constexpr std::size_t kTimedSteps = 60;  // ms/step is the mean over this many steps
}

LoadedSimulation build_simulation(const PluginHost& host, const ViewerOptions& options,
                                  const std::string& method) {
  const auto start = Clock::now();
  std::vector<std::string> overrides = options.scene.overrides;
  overrides.push_back("--coupling.plugin=" + method);
  if (options.pull) {
    overrides.push_back(fmt::format("--pull.vertices={}", options.pull->vertex));
    overrides.push_back(fmt::format("--pull.force={} {} {}", options.pull->force.x(),
                                    options.pull->force.y(), options.pull->force.z()));
  }
  const Config config = Config::load(options.scene.scene_file, overrides, host);
  auto sim = std::make_unique<Simulation>(config, host);
  LoadedSimulation loaded;
  loaded.excitation = default_excitation(*sim, options);
  if (loaded.excitation && host.try_find("pull") != nullptr) {
    // The pull plugin with the excitation's [pull] settings (read when it is made).
    std::vector<std::string> pulled = overrides;
    for (const std::string& o : pull_overrides(*loaded.excitation)) pulled.push_back(o);
    const Config pull_config = Config::load(options.scene.scene_file, pulled, host);
    sim->add_load("pull", host.create<Load>("pull", PluginKind::load, PluginContext{pull_config}));
  } else {
    loaded.excitation.reset();
  }
  sim->precompute();
  sim->reset();
  sim->render_surface();  // the embedding, off the main thread
  loaded.sim = std::move(sim);
  loaded.seconds = seconds_since(start);
  return loaded;
}

void Lane::install(const std::string& method, LoadedSimulation loaded, const PluginHost& host,
                   bool pull, bool gravity, bool wind) {
  Simulation& sim = *loaded.sim;
  // The loads the viewer toggles exist in every simulation, switched on or off.
  for (const char* name : {"gravity", "wind", "pull"}) {
    if (sim.has_load(name)) continue;
    if (std::string(name) == "pull" && !pull) continue;
    if (host.try_find(name) == nullptr) continue;  // reported when toggled
    sim.add_load(name, host.create<Load>(name, PluginKind::load, PluginContext{sim.config()}));
  }
  sim.set_load_enabled("gravity", gravity);
  sim.set_load_enabled("wind", wind);
  auto spring = std::make_unique<DragSpring>();
  spring_ = spring.get();
  sim.add_load("mouse", std::move(spring));
  sim_ = std::move(loaded.sim);
  method_ = method;
  failure_.clear();
  load_failed_ = false;
  ++generation_;
  const RenderSurface& surface = sim_->render_surface();
  embedded_positions(surface.embedding, sim_->scene().mesh.vertices, render_rest_);
  rendered_step_ = -1;
  reset();
}

void Lane::fail(std::string why) {
  failure_ = std::move(why);
  load_failed_ = !sim_;
}

bool Lane::advance(int steps) {
  if (!running()) return false;
  const std::vector<Index>& tracked = sim_->scene().tracked_vertices;
  tracked_steps_.resize(steps, 3 * static_cast<Index>(tracked.size()));
  try {
    StepStats stats;
    for (int s = 0; s < steps; ++s) {
      step_seconds_.push_back(sim_->step(stats));
      if (step_seconds_.size() > kTimedSteps) step_seconds_.pop_front();
      for (std::size_t v = 0; v < tracked.size(); ++v)
        tracked_steps_.block<1, 3>(s, 3 * static_cast<Index>(v)) =
            sim_->positions().row(tracked[v]);
    }
  } catch (const Error& e) {
    failure_ = fmt::format("stopped: {}", e.what());
    tracked_steps_.resize(0, tracked_steps_.cols());
    return false;
  }
  return true;
}

void Lane::reset() {
  if (!load_failed_) failure_.clear();
  if (!sim_) return;
  if (spring_ != nullptr) spring_->release();
  sim_->reset();
  step_seconds_.clear();
  tracked_steps_.resize(0, 3 * static_cast<Index>(sim_->scene().tracked_vertices.size()));
  tracked0_ = tracked_now();
  history_.clear();
  error_.clear();
  largest_displacement_ = 0;
  rendered_step_ = -1;
}

void Lane::set_load_enabled(const char* name, bool on) {
  if (sim_) sim_->set_load_enabled(name, on);
}

double Lane::ms_per_step() const {
  if (step_seconds_.empty()) return 0;
  double sum = 0;
  for (double s : step_seconds_) sum += s;
  return 1e3 * sum / double(step_seconds_.size());
}

Eigen::RowVectorXd Lane::tracked_now() const {
  const std::vector<Index>& tracked = sim_->scene().tracked_vertices;
  Eigen::RowVectorXd row(3 * static_cast<Index>(tracked.size()));
  for (std::size_t v = 0; v < tracked.size(); ++v)
    row.segment<3>(3 * static_cast<Index>(v)) = sim_->positions().row(tracked[v]);
  return row;
}

void Lane::update_render() {
  if (!sim_ || rendered_step_ == sim_->step_index()) return;
  sim_->render_state(render_x_, render_n_);
  rendered_step_ = sim_->step_index();
  if (render_x_.rows() == render_rest_.rows() && render_x_.rows() > 0)
    largest_displacement_ =
        std::max(largest_displacement_, (render_x_ - render_rest_).rowwise().norm().maxCoeff());
}

void Lane::sample_plot(const Vec3& g) {
  if (!sim_ || !history_.due(sim_->time())) return;
  const Energies energies = sim_->method().energies(g);
  PlotSample sample;
  sample.time = sim_->time();
  const Eigen::RowVectorXd now = tracked_now();
  if (now.size() >= 3 && tracked0_.size() == now.size())
    sample.displacement = (now.head<3>() - tracked0_.head<3>()).norm();
  sample.kinetic = energies.kinetic;
  sample.elastic = energies.elastic;
  history_.add(sample);
}

}  // namespace substruct::viewer
