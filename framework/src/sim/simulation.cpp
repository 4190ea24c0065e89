// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/sim/simulation.hpp"

#include "substruct/sim/cache_folder.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/config/coupling_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/flush_subnormals.hpp"
#include "substruct/core/install_layout.hpp"
#include "substruct/core/interrupt.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/memory_budget.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/io/output_target.hpp"
#include "substruct/io/run_manifest.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct {

namespace fs = std::filesystem;

double RunSummary::median_step_seconds() const {
  if (step_seconds.empty()) return 0;
  std::vector<double> sorted = step_seconds;
  const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
  std::nth_element(sorted.begin(), middle, sorted.end());
  return *middle;
}

fs::path output_path(const Config& config, const Scene& scene) {
  const std::string output = run_options().read(config).output;
  if (output.empty()) return fs::path("out") / (scene.name + ".pvd");
  return output;
}

fs::path cache_dir(const Config& config, const Scene& scene) {
  const fs::path dir = run_options().read(config).cache_dir;
  if (!dir.empty()) return dir;
  const fs::path folder = scene.file.empty() ? fs::current_path() : scene.file.parent_path();
  // A program run from its build tree has no installed data folder.
  const bool installed_program = !source_dir() && !scene.file.empty();
  return default_cache_dir(folder, installed_program ? data_dir() : fs::path());
}

RunSettings read_run_settings(const Config& config) {
  RunSettings run = run_options().read(config);
  // Δt² scales the implicit step's matrices (M/(βΔt²) + D/(βΔt)·γ + K): below 1e-12 s they
  // overflow or the stiffness rounds away, and the run "diverges" for want of a larger step.
  constexpr double kSmallestDt = 1e-12;
  if (run.dt < kSmallestDt)
    throw config.value_error("run.dt",
                             fmt::format("expected a time step ≥ {:g} s (a smaller one is lost to "
                                         "rounding in the step's matrices)",
                                         kSmallestDt));
  const std::optional<double> limit = parse_memory_size(run.memory_limit);
  if (!limit)
    throw config.value_error("run.memory_limit",
                             "expected auto or a positive size such as 16G, 512M or 1.5GiB");
  set_memory_limit(*limit);
  run_threads(config);  // a bad value stops here, before anything is loaded
  return run;
}

Simulation::Simulation(const Config& config, const PluginHost& host)
    : config_(config),
      run_(read_run_settings(config_)),
      scene_(load_scene(config_)),
      solvers_(host, config_),
      tasks_(run_threads(config_)) {
  method_name_ = coupling_options().read(config_).plugin;
  method_ = host.create<CouplingMethod>(method_name_, PluginKind::coupling, PluginContext{config_});
  if (const CanRun verdict = method_->can_run(scene_); !verdict)
    throw Error(fmt::format("coupling '{}' cannot run scene '{}': {}", method_name_, scene_.name,
                            verdict.reason));
  for (const std::string& name : run_.loads)
    loads_.push_back({name, host.create<Load>(name, PluginKind::load, PluginContext{config_})});
  for (const std::string& name : run_.exporters)
    exporters_.push_back(host.create<Exporter>(name, PluginKind::exporter, PluginContext{config_}));
  dt_ = run_.dt;
  check_initial_state(config_, scene_);  // before any precomputation
  contact_ = std::make_unique<ContactService>(config_, scene_);
  if (contact_->has_obstacles())
    contact_->check_clear(scene_.mesh.vertices, 0);  // the rest shape, before any precompute
  else
    contact_.reset();
  check_output_targets();  // …and what the exporters will write
  divergence_limit_ = run_.max_displacement * scene_.size();
}

Simulation::~Simulation() = default;

void Simulation::check_output_targets() const {
  if (exporters_.empty()) return;
  const ExportSetup setup{scene_, method_name_, output_path(config_, scene_), dt_};
  check_output_target(setup.output, "[run] output");
  check_output_target(run_manifest_path(setup.output), "the run's manifest");
  for (std::size_t i = 0; i < exporters_.size(); ++i)
    for (const fs::path& file : exporters_[i]->targets(setup))
      check_output_target(file, fmt::format("the {} exporter's file", run_.exporters[i]));
}

double Simulation::precompute() {
  if (precomputed_) return 0;  // once per method (its stats are those of the first call)
  const auto start = Clock::now();
  precompute_stats_ = {};
  method_->precompute(
      PrecomputeContext{scene_, solvers_, cache_dir(config_, scene_), &precompute_stats_});
  precomputed_ = true;
  layout_sent_ = false;
  return seconds_since(start);
}

const InitialState& Simulation::initial_state() {
  if (!initial_state_) initial_state_ = substruct::initial_state(config_, scene_, solvers_);
  return *initial_state_;
}

void Simulation::reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) {
  if (!precomputed_) precompute();
  if (u0.size() == 0 && v0.size() == 0) {
    const InitialState& start = initial_state();
    method_->reset(start.displacement, start.velocity);
  } else {
    method_->reset(u0, v0);
  }
  time_ = 0;
  step_ = 0;
  refresh_state();
  if (contact_) {
    contact_->check_clear(positions_, 0);  // the initial state's shape
    contact_->reset();
  }
  evaluate_loads();  // the loads at t = 0: forces() (and frame 0's gravity energy) is defined
}

StaticReport Simulation::solve_static(double time) {
  if (!(time >= 0) || !std::isfinite(time))
    throw Error(fmt::format("static: the load time must be a finite number ≥ 0, got {}", time));
  if (!precomputed_) precompute();
  method_->reset({}, {});
  time_ = time;
  step_ = 0;
  refresh_state();
  evaluate_loads();
  const ScopedFlushSubnormals flush;
  const StaticReport report = method_->solve_static(forces_);
  refresh_state();
  for (Index v = 0; v < positions_.rows(); ++v)
    if (!positions_.row(v).allFinite())
      throw Error(
          fmt::format("static: the equilibrium has a non-finite position at vertex {} "
                      "(domain {})",
                      v, scene_.vertex_domain[static_cast<std::size_t>(v)]));
  return report;
}

void Simulation::refresh_state() {
  if (const ReducedGeometry* layout = method_->reduced_geometry()) {
    GeometrySolver& solver = geometry();
    if (!layout_sent_) {
      solver.set_layout(*layout);
      layout_sent_ = true;
    }
    method_->domain_poses(poses_);
    solver.world_state(poses_, positions_, &velocities_);
  } else {
    method_->positions(positions_);
    method_->velocities(velocities_);
  }
}

GeometrySolver& Simulation::geometry() {
  if (!geometry_) geometry_ = solvers_.geometry();
  return *geometry_;
}

const RenderSurface& Simulation::render_surface() {
  if (!surface_)
    surface_ =
        substruct::render_surface(scene_.mesh, scene_.render_mesh ? &*scene_.render_mesh : nullptr);
  return *surface_;
}

void Simulation::render_state(Points& positions, Points& normals) {
  GeometrySolver& solver = geometry();
  if (!surface_sent_) {
    solver.set_surface(render_surface());
    surface_sent_ = true;
  }
  solver.render(positions_, positions, normals);
}

void Simulation::add_load(const std::string& name, std::unique_ptr<Load> load, bool enabled) {
  if (!load) throw Error(fmt::format("add_load('{}'): no load", name));
  loads_.push_back({name, std::move(load), enabled});
}

bool Simulation::set_load_enabled(const std::string& name, bool enabled) {
  bool found = false;
  for (LoadSlot& slot : loads_)
    if (slot.name == name) {
      slot.enabled = enabled;
      found = true;
    }
  return found;
}

bool Simulation::has_load(const std::string& name) const {
  return std::any_of(loads_.begin(), loads_.end(),
                     [&](const LoadSlot& slot) { return slot.name == name; });
}

bool Simulation::load_enabled(const std::string& name) const {
  return std::any_of(loads_.begin(), loads_.end(),
                     [&](const LoadSlot& slot) { return slot.name == name && slot.enabled; });
}

void Simulation::evaluate_loads() {
  forces_.clear();
  const LoadContext context{time_, scene_, positions_, velocities_};
  for (LoadSlot& slot : loads_)
    if (slot.enabled) slot.load->accumulate(context, forces_);
  if (contact_) contact_->accumulate(time_, dt_, positions_, velocities_, forces_);
}

double Simulation::step(StepStats& stats) {
  check_interrupt();                  // Ctrl-C: stop between steps (core/interrupt.hpp)
  const ScopedFlushSubnormals flush;  // decaying noise must not fall onto the slow path
  const double contact_before = contact_ ? contact_->stats().seconds : 0;
  evaluate_loads();
  if (contact_) stats.add("contact", contact_->stats().seconds - contact_before);
  const auto start = Clock::now();
  method_->step(dt_, forces_, stats);
  const double seconds = seconds_since(start);
  ++step_;
  time_ = double(step_) * dt_;
  const auto geometry_start = Clock::now();
  refresh_state();  // u = U q: world positions and velocities of every vertex
  stats.add("geometry", seconds_since(geometry_start));
  check_divergence();
  return seconds;
}

void Simulation::check_divergence() const {
  // Each part of the vertices finds its first non-finite vertex and its first farthest one; the
  // parts' findings taken in order are the serial scan's, whatever the number of parts.
  struct Finding {
    Index non_finite = -1, worst = -1;
    double worst_distance = 0;
  };
  const auto n = static_cast<std::size_t>(positions_.rows());
  const auto parts = static_cast<std::size_t>(tasks_.threads());
  std::vector<Finding> found(parts);
  tasks_.for_each(parts, [&](std::size_t k) {
    Finding& f = found[k];
    for (auto v = Index(n * k / parts); v < Index(n * (k + 1) / parts); ++v) {
      const double d = (positions_.row(v) - scene_.mesh.vertices.row(v)).norm();
      if (!std::isfinite(d) || !std::isfinite(velocities_.row(v).squaredNorm())) {
        f.non_finite = v;
        return;
      }
      if (d > f.worst_distance) {
        f.worst_distance = d;
        f.worst = v;
      }
    }
  });
  Index worst = -1;
  double worst_distance = 0;
  for (const Finding& f : found) {
    if (f.non_finite >= 0)
      throw DivergenceError(scene_.vertex_domain[static_cast<std::size_t>(f.non_finite)], step_,
                            fmt::format("vertex {} has a non-finite position or velocity "
                                        "(try a smaller [run] dt or a stiffer/damped material)",
                                        f.non_finite));
    if (f.worst >= 0 && f.worst_distance > worst_distance) {
      worst_distance = f.worst_distance;
      worst = f.worst;
    }
  }
  if (worst >= 0 && worst_distance > divergence_limit_)
    throw DivergenceError(
        scene_.vertex_domain[static_cast<std::size_t>(worst)], step_,
        fmt::format("vertex {} moved {:.3g} m, more than {} object sizes ({:.3g} m); "
                    "try a smaller [run] dt (or raise [run] max_displacement)",
                    worst, worst_distance, run_.max_displacement, divergence_limit_));
}

RunSummary Simulation::run() {
  RunSummary summary;
  summary.scene = scene_.name;
  summary.method = method_name_;
  summary.vertices = scene_.mesh.num_vertices();
  summary.elements = scene_.mesh.num_elements();
  summary.domains = scene_.num_domains();
  summary.dt = dt_;
  summary.steps = run_.steps;

  // One timing per step is kept: a count of steps sizes an allocation too (estimated from a
  // MiB on: a smaller one is noise beside the scene).
  if (const double bytes = double(summary.steps) * sizeof(double); bytes >= 0x1p20)
    reserve_memory(fmt::format("the timings of {} steps", summary.steps), bytes,
                   fmt::format("lower [run] steps = {}", summary.steps));
  summary.precompute_seconds = precompute();
  summary.precompute = precompute_stats_;
  reset();
  if (contact_) contact_->reset_stats();  // the steps' only (reset() evaluated t = 0)
  summary.dofs = method_->dofs();

  const long every = run_.output_every;
  const ExportSetup setup{scene_, method_name_, output_path(config_, scene_), dt_,
                          method_->reduced_geometry()};
  std::size_t begun = 0;
  try {
    for (auto& exporter : exporters_) {
      exporter->begin(setup);
      ++begun;
    }
    // The manifest's folder too, before the first step: not only the exporters' own.
    if (!exporters_.empty())
      create_output_folder(run_manifest_path(setup.output), "the run's manifest");
    auto write_frame = [&] {
      if (exporters_.empty()) return;  // nothing to write: no energies to sum over the domains
      const ExportFrame frame{step_,
                              time_,
                              positions_,
                              velocities_,
                              method_->energies(forces_.gravity),
                              setup.layout != nullptr ? &poses_ : nullptr};
      for (auto& exporter : exporters_) exporter->write(frame);
    };
    write_frame();  // frame 0: the initial state, under the loads at t = 0 (set by reset())
    Progress progress(fmt::format("{} on {}", method_name_, scene_.name),
                      static_cast<std::size_t>(summary.steps));
    summary.step_seconds.reserve(static_cast<std::size_t>(summary.steps));
    for (long s = 0; s < summary.steps; ++s) {
      summary.step_seconds.push_back(step(summary.stages));
      if (step_ % every == 0 || s + 1 == summary.steps) write_frame();
      progress.advance();
    }
    progress.finish();
    // Publishing: the previous run's manifest goes first, this run's comes after every file
    // (io/run_manifest.hpp), so that a run killed in between claims no complete set.
    if (!exporters_.empty()) withdraw_run_manifest(setup.output);
    for (auto& exporter : exporters_) exporter->finish();
    std::vector<fs::path> published;
    for (auto& exporter : exporters_) {
      for (const fs::path& file : exporter->outputs()) summary.outputs.push_back(file);
      for (const fs::path& file : exporter->published_files()) published.push_back(file);
    }
    if (!published.empty())
      summary.outputs.push_back(write_run_manifest(setup.output, published,
                                                   {{"scene", scene_.name},
                                                    {"method", method_name_},
                                                    {"steps", std::to_string(summary.steps)},
                                                    {"dt", fmt::format("{}", dt_)}}));
  } catch (...) {
    for (std::size_t i = 0; i < begun; ++i) exporters_[i]->abort();
    throw;
  }
  summary.final_energies = method_->energies(forces_.gravity);
  if (contact_) {
    summary.contact = true;
    summary.contact_stats = contact_->stats();
    summary.contact_tolerance = contact_->tolerance();
    if (summary.contact_stats.max_penetration > contact_->tolerance())
      log::warn(
          "[contact] the penetration reached {:.3g} m at vertex {}, more than [contact] "
          "tolerance = {:g} m: raise [contact] stiffness (or lower [run] dt)",
          summary.contact_stats.max_penetration, summary.contact_stats.deepest_vertex,
          contact_->tolerance());
  }
  return summary;
}

}  // namespace substruct
