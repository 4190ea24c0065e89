// SPDX-License-Identifier: GPL-3.0-or-later
// The rules of the coupling contract that a few steps of one method show: the lifecycle, the
// refusal of bad inputs, positions from the layout, determinism across runs and threads.
#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "conformance_probe.hpp"
#include "substruct/conformance/coupling_conformance.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/tracked_vertex.hpp"

namespace substruct::conformance {

Config rule_config(const PluginHost& host, const std::string& plugin, const ConformanceScene& scene,
                   const std::vector<Setting>& extra) {
  std::vector<Setting> fixed = {{"coupling.plugin", plugin, "check-plugin"},
                                {"reduction.cache", "false", "check-plugin"}};
  fixed.insert(fixed.end(), extra.begin(), extra.end());
  std::vector<Setting> settings;
  for (const Setting& s : scene.settings)
    if (std::none_of(fixed.begin(), fixed.end(), [&](const Setting& f) { return f.key == s.key; }))
      settings.push_back(s);
  settings.insert(settings.end(), fixed.begin(), fixed.end());
  return Config::from_settings(settings, scene.base_dir, host);
}

Probe::Probe(const PluginHost& host, const std::string& plugin, const ConformanceScene& scene,
             const std::vector<Setting>& extra)
    : config_(rule_config(host, plugin, scene, extra)),
      scene_(load_scene(config_)),
      solvers_(host, config_),
      method_(host.create<CouplingMethod>(plugin, PluginKind::coupling, PluginContext{config_})),
      dt_(config_.get<double>("run.dt")) {
  const double weight = 9.81 * lumped_vertex_mass(scene_.mesh).sum();
  pull_.gravity = Vec3(-1, -1, -1).normalized() * 9.81;
  const Index tip = scene_.tracked_vertices.empty()
                        ? default_tracked_vertex(scene_.mesh, scene_.fixed_vertices)
                        : scene_.tracked_vertices.front();
  pull_.point_forces.push_back({tip, Vec3(1, -1, 0.5).normalized() * (0.1 * weight)});
}

void Probe::precompute() {
  method_->precompute(PrecomputeContext{scene_, solvers_, {}});
}

void Probe::run_from_rest(long steps, Points& x, Points& v) {
  precompute();
  method_->reset({}, {});
  StepStats stats;
  for (long i = 0; i < steps; ++i) method_->step(dt_, pull_, stats);
  method_->positions(x);
  method_->velocities(v);
}

namespace {

// The message of the Error `call` throws; empty when it throws none.
std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

// `what` must have been refused with a message containing `expected`.
void expect_refused(Problems& problems, const std::string& what, const std::string& message,
                    const std::string& expected) {
  if (message.empty())
    problems.push_back(fmt::format("{} was accepted; expected the error \"{}\"", what, expected));
  else if (message.find(expected) == std::string::npos)
    problems.push_back(
        fmt::format("{}: the error \"{}\" does not say \"{}\"", what, message, expected));
}

double largest_difference(const Points& a, const Points& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return std::numeric_limits<double>::infinity();
  return a.rows() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
}

const char* kStages[] = {"created", "precomputed", "running"};

void expect_stage(Problems& problems, CouplingMethod& method, CouplingMethod::Stage stage,
                  const char* when) {
  if (method.stage() != stage)
    problems.push_back(fmt::format("{}: the stage is '{}', not '{}'", when,
                                   kStages[static_cast<int>(method.stage())],
                                   kStages[static_cast<int>(stage)]));
}

RuleOutcome lifecycle_order(Probe& probe, const std::string& plugin) {
  Problems problems;
  CouplingMethod& m = probe.method();
  const std::string name = plugin + ": ";
  StepStats stats;
  Points x;
  expect_stage(problems, m, CouplingMethod::Stage::created, "when created");
  expect_refused(problems, "reset() before precompute()", error_of([&] { m.reset({}, {}); }),
                 name + "reset() called before precompute()");
  expect_refused(problems, "dofs() before precompute()", error_of([&] { (void)m.dofs(); }),
                 name + "dofs() called before precompute()");
  probe.precompute();
  expect_stage(problems, m, CouplingMethod::Stage::precomputed, "after precompute()");
  if (m.dofs() <= 0) problems.push_back(fmt::format("dofs() is {} after precompute()", m.dofs()));
  expect_refused(problems, "step() before reset()",
                 error_of([&] { m.step(probe.dt(), ExternalForces{}, stats); }),
                 name + "step() called before reset() (the method is precomputed)");
  expect_refused(problems, "positions() before reset()", error_of([&] { m.positions(x); }),
                 name + "positions() called before reset()");
  expect_refused(problems, "a second precompute()", error_of([&] { probe.precompute(); }),
                 name + "precompute() called twice");
  m.reset({}, {});
  expect_stage(problems, m, CouplingMethod::Stage::running, "after reset()");
  m.step(probe.dt(), probe.pull(), stats);
  m.positions(x);
  if (x.rows() != probe.vertices() || !x.allFinite())
    problems.push_back(fmt::format("after one step, positions() has {} rows{} for {} vertices",
                                   x.rows(), x.allFinite() ? "" : " not all finite",
                                   probe.vertices()));
  if (!problems.empty()) return {"", false, problems.front()};
  return {"", true,
          fmt::format("5 calls out of order refused naming the plugin; precompute, reset and "
                      "step ran ({} dofs)",
                      m.dofs())};
}

RuleOutcome bad_inputs_refused(Probe& probe, const std::string& plugin, long steps) {
  Problems problems;
  CouplingMethod& m = probe.method();
  const std::string name = plugin + ": ";
  const Index n = probe.vertices();
  Points x0, v0;
  probe.run_from_rest(steps, x0, v0);
  StepStats stats;
  int refusals = 0;
  const auto refused = [&](const std::string& what, const std::string& expected, auto&& call) {
    ++refusals;
    expect_refused(problems, what, error_of(call), name + expected);
    Points x, v;
    m.positions(x);
    m.velocities(v);
    if (!(x == x0) || !(v == v0))
      problems.push_back(
          fmt::format("{}: the refused call changed the state (positions by up "
                      "to {:.3g} m)",
                      what, largest_difference(x, x0)));
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const double dt : {0.0, -0.01, nan, std::numeric_limits<double>::infinity()})
    refused(fmt::format("step(dt = {})", dt), "step(): dt must be a finite number > 0",
            [&] { m.step(dt, ExternalForces{}, stats); });
  ExternalForces f;
  for (const Index vertex : {n, Index{-1}}) {
    f.point_forces = {{vertex, Vec3(0, 1, 0)}};
    refused(fmt::format("a point force on vertex {}", vertex),
            fmt::format("step(): a point force acts on vertex {}", vertex),
            [&] { m.step(probe.dt(), f, stats); });
  }
  f.point_forces = {{0, Vec3(0, nan, 0)}};
  refused("a point force of NaN", "step(): the point force on vertex 0 is not finite",
          [&] { m.step(probe.dt(), f, stats); });
  f.point_forces.clear();
  f.nodal = Eigen::VectorXd::Ones(5);
  refused("5 nodal forces",
          fmt::format("step(): nodal forces: 5 entries where the mesh has 3N = {}", 3 * n),
          [&] { m.step(probe.dt(), f, stats); });
  f.nodal = Eigen::VectorXd::Zero(3 * n);
  f.nodal[4] = nan;
  refused("a NaN nodal force", "step(): nodal forces: not finite",
          [&] { m.step(probe.dt(), f, stats); });
  f = ExternalForces{};
  f.gravity = Vec3(0, nan, 0);
  refused("a NaN gravity", "step(): gravity is not finite", [&] { m.step(probe.dt(), f, stats); });
  refused("a u0 of 7 entries", "reset(): u0: 7 entries where",
          [&] { m.reset(Eigen::VectorXd::Zero(7), {}); });
  Eigen::VectorXd bad_v0 = Eigen::VectorXd::Zero(3 * n);
  bad_v0[0] = nan;
  refused("a NaN v0", "reset(): v0: not finite", [&] { m.reset({}, bad_v0); });
  if (!problems.empty()) return {"", false, problems.front()};
  return {"", true,
          fmt::format("{} bad inputs refused naming the plugin, the state unchanged", refusals)};
}

RuleOutcome positions_from_layout(Probe& probe, long steps) {
  CouplingMethod& m = probe.method();
  Points x, v;
  probe.run_from_rest(steps, x, v);
  const double moved = largest_difference(x, probe.scene().mesh.vertices);
  if (!(moved > 1e-9))
    return {"", false,
            fmt::format("after {} steps under a pull, no vertex moved more than {:.3g} m", steps,
                        moved)};
  const ReducedGeometry* layout = m.reduced_geometry();
  if (layout == nullptr)
    return {"", true,
            fmt::format("not reduced: its own positions, moved up to {:.3g} m in {} steps", moved,
                        steps)};
  std::vector<DomainPose> poses;
  m.domain_poses(poses);
  Points x_kernel, v_kernel;
  reduced_world_state(*layout, poses, &x_kernel, &v_kernel);
  if (!(x == x_kernel) || !(v == v_kernel))
    return {"", false,
            fmt::format("positions differ from the geometry kernel's by up to {:.3g} m, "
                        "velocities by {:.3g} m/s",
                        largest_difference(x, x_kernel), largest_difference(v, v_kernel))};
  return {"", true,
          fmt::format("{} domain{}: positions and velocities of {} vertices are the kernel's, "
                      "bit for bit",
                      poses.size(), poses.size() == 1 ? "" : "s", x.rows())};
}

// The positions after each of `steps` steps under the pull, from rest (precomputed first, once).
std::vector<Points> trajectory(Probe& probe, long steps) {
  if (probe.method().stage() == CouplingMethod::Stage::created) probe.precompute();
  probe.method().reset({}, {});
  StepStats stats;
  std::vector<Points> frames;
  for (long i = 0; i < steps; ++i) {
    probe.method().step(probe.dt(), probe.pull(), stats);
    probe.method().positions(frames.emplace_back());
  }
  return frames;
}

// Empty when `a` and `b` are the same at every step; else where they first differ.
std::string first_difference(const std::vector<Points>& a, const std::vector<Points>& b,
                             const char* what) {
  for (std::size_t k = 0; k < a.size(); ++k)
    if (!(a[k] == b[k]))
      return fmt::format("{} differ at step {} by up to {:.3g} m", what, k + 1,
                         largest_difference(a[k], b[k]));
  return {};
}

// A run, a second run of the same method after reset(), and a run of a second method.
RuleOutcome deterministic_runs(Probe& first, Probe& second, long steps) {
  const std::vector<Points> run = trajectory(first, steps);
  std::string problem =
      first_difference(run, trajectory(first, steps), "a run and a second run after reset()");
  if (problem.empty())
    problem = first_difference(run, trajectory(second, steps), "the runs of two instances");
  if (!problem.empty()) return {"", false, problem};
  return {"", true,
          fmt::format("a run, a second after reset() and one of a second instance: the same "
                      "positions at each of {} steps",
                      steps)};
}

RuleOutcome deterministic_threads(Probe& one, Probe& two, long steps) {
  const std::string problem =
      first_difference(trajectory(one, steps), trajectory(two, steps), "runs on 1 and 2 threads");
  if (!problem.empty()) return {"", false, problem};
  return {"", true,
          fmt::format("runs on 1 and 2 threads: the same positions at each of {} steps", steps)};
}

}  // namespace
}  // namespace substruct::conformance

namespace substruct {

using conformance::Probe;

const std::vector<std::string>& coupling_rules() {
  static const std::vector<std::string> rules = {"lifecycle-order",       "bad-inputs-refused",
                                                 "positions-from-layout", "deterministic-runs",
                                                 "deterministic-threads", "full-referenced-run"};
  return rules;
}

RuleOutcome check_coupling_rule(const PluginHost& host, const std::string& plugin,
                                const ConformanceScene& scene, const std::string& rule) {
  const auto& rules = coupling_rules();
  if (std::find(rules.begin(), rules.end(), rule) == rules.end())
    throw Error(fmt::format("no coupling rule '{}' (rules: {})", rule, fmt::join(rules, ", ")));
  const long steps = std::max(1L, scene.contract_steps);
  RuleOutcome outcome;
  try {
    if (rule == "lifecycle-order") {
      Probe probe(host, plugin, scene);
      outcome = conformance::lifecycle_order(probe, plugin);
    } else if (rule == "bad-inputs-refused") {
      Probe probe(host, plugin, scene);
      outcome = conformance::bad_inputs_refused(probe, plugin, steps);
    } else if (rule == "positions-from-layout") {
      Probe probe(host, plugin, scene);
      outcome = conformance::positions_from_layout(probe, steps);
    } else if (rule == "deterministic-runs") {
      Probe first(host, plugin, scene), second(host, plugin, scene);
      outcome = conformance::deterministic_runs(first, second, steps);
    } else if (rule == "deterministic-threads") {
      Probe one(host, plugin, scene, {{"run.threads", "1", "check-plugin"}});
      Probe two(host, plugin, scene, {{"run.threads", "2", "check-plugin"}});
      outcome = conformance::deterministic_threads(one, two, steps);
    } else {
      outcome = conformance::check_full_referenced_run(host, plugin, scene);
    }
  } catch (const std::exception& e) {
    outcome = {"", false, fmt::format("unexpected error: {}", e.what())};
  }
  outcome.rule = rule;
  return outcome;
}

std::vector<RuleOutcome> check_coupling_plugin(
    const PluginHost& host, const std::string& plugin, const ConformanceScene& scene,
    const std::function<void(const RuleOutcome&)>& report) {
  (void)host.find(plugin, PluginKind::coupling);
  {  // a scene that cannot be read, or that the method refuses: no rule can say more
    Probe probe(host, plugin, scene);
    if (const CanRun can = probe.method().can_run(probe.scene()); !can)
      throw Error(fmt::format("{} cannot run the scene {}: {}; check it on another scene", plugin,
                              scene.name, can.reason));
  }
  std::vector<RuleOutcome> outcomes;
  for (const std::string& rule : coupling_rules()) {
    outcomes.push_back(check_coupling_rule(host, plugin, scene, rule));
    if (report) report(outcomes.back());
  }
  return outcomes;
}

}  // namespace substruct
