// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/bench/bench_case.hpp"

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/config/coupling_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/interrupt.hpp"
#include "substruct/core/log.hpp"
#include "substruct/sim/simulation.hpp"

namespace substruct {

namespace {

// A "VmHWM:"-style line of /proc/self/status in MB; 0 where there is no such file.
double status_mb(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) != 0) continue;
    std::istringstream values(line.substr(field.size()));
    double kb = 0;
    values >> kb;
    return kb / 1024;
  }
  return 0;
}

// Frees what the allocator keeps and restarts the kernel's peak-RSS counter (Linux ≥ 4.0), so
// that VmHWM afterwards is the peak of what comes next.
void reset_peak_memory() {
  malloc_trim(0);
  std::ofstream("/proc/self/clear_refs") << "5";
}

// Frame `frame` of the recorded run: tracked positions, energies, interface gap.
// `last_gravity`: the previous frame's g, updated (for BenchCase::steady_from).
void record_frame(Simulation& sim, BenchCase& c, Index frame, Vec3& last_gravity) {
  for (std::size_t v = 0; v < c.tracked_vertices.size(); ++v)
    c.tracked.block<1, 3>(frame, 3 * static_cast<Index>(v)) =
        sim.positions().row(c.tracked_vertices[v]);
  const Vec3 g = sim.forces().gravity;
  if (frame > 0 && g != last_gravity) c.steady_from = frame;
  last_gravity = g;
  const Energies e = sim.method().energies(g);
  c.kinetic.push_back(e.kinetic);
  c.elastic.push_back(e.elastic);
  c.gravity.push_back(e.gravity);
  c.interface_gap = std::max(c.interface_gap, sim.method().interface_gap());
}

}  // namespace

double BenchCase::median_step_seconds() const {
  return percentile_step_seconds(50);
}

double BenchCase::percentile_step_seconds(double p) const {
  if (step_seconds.empty()) return 0;
  std::vector<double> sorted = step_seconds;
  std::sort(sorted.begin(), sorted.end());
  const double x = std::clamp(p, 0.0, 100.0) / 100 * double(sorted.size() - 1);
  const auto k = static_cast<std::size_t>(x);
  if (k + 1 >= sorted.size()) return sorted.back();
  return sorted[k] + (x - double(k)) * (sorted[k + 1] - sorted[k]);
}

BenchCase run_bench_case(const Config& config, const PluginHost& host,
                         const BenchCaseSettings& settings) {
  if (settings.steps < 1) throw Error("bench: steps must be ≥ 1");
  if (settings.repeats < 1) throw Error("bench: repeats must be ≥ 1");
  BenchCase c;
  c.method = coupling_options().read(config).plugin;
  c.scene = config.scene_file().stem().string();
  reset_peak_memory();
  c.baseline_rss_mb = status_mb("VmRSS:");
  std::unique_ptr<Simulation> sim;
  try {
    sim = std::make_unique<Simulation>(config, host);
  } catch (const Interrupted&) {
    throw;  // Ctrl-C ends the whole benchmark, not this case
  } catch (const Error& e) {
    c.failure = e.what();  // e.g. "coupling 'inertia' cannot run scene 'ring': …"
    return c;
  }
  const Scene& scene = sim->scene();
  c.scene = scene.name;
  c.domains = static_cast<int>(scene.num_domains());
  c.dt = sim->run_settings().dt;
  c.size = scene.size();
  c.tracked_vertices = scene.tracked_vertices;
  try {
    c.precompute_seconds = sim->precompute();
    c.precompute = sim->precompute_stats();
    StepStats stages;
    Vec3 gravity = Vec3::Zero();
    for (int repeat = 0; repeat < settings.repeats; ++repeat) {
      sim->reset();
      c.dofs = sim->method().dofs();
      const bool record = repeat == 0;
      if (record) {
        c.tracked = Eigen::MatrixXd::Zero(settings.steps + 1, 3 * Index(c.tracked_vertices.size()));
        record_frame(*sim, c, 0, gravity);
      }
      for (long step = 1; step <= settings.steps; ++step) {
        c.step_seconds.push_back(sim->step(stages));
        if (record) record_frame(*sim, c, step, gravity);
      }
      log::info("bench: {} on {}: run {} of {}, {:.3f} ms per step (median so far)", c.method,
                c.scene, repeat + 1, settings.repeats, 1e3 * c.median_step_seconds());
    }
    if (const ContactService* contact = sim->contact()) {
      c.contact = true;
      c.contact_stats = contact->stats();  // the last run's (each run resets them)
      c.contact_tolerance = contact->tolerance();
    }
    const double steps = double(c.step_seconds.size());
    for (const auto& [stage, seconds] : stages.stage_seconds)
      c.stage_seconds.emplace_back(stage, seconds / steps);
  } catch (const Interrupted&) {
    throw;
  } catch (const Error& e) {
    // A divergence, or a precompute the scene does not allow (e.g. a domain with fewer free
    // DOFs than the modes asked): the method is listed with the reason, the others still run.
    c.failure = e.what();
  }
  c.peak_rss_mb = status_mb("VmHWM:");
  return c;
}

}  // namespace substruct
