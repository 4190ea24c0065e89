// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The coupling contract (framework/docs/coupling_contract.md) as rules that any coupling plugin
/// can be put through, in this tree or outside it: `substruct check-plugin NAME` runs them, and
/// so does the contract test of the in-tree plugins. Each rule is checked on a scene given as
/// settings (a scene file's, or a test's), with the plugin as its [coupling] plugin:
///
///   lifecycle-order         a call out of order (reset before precompute, step before reset,
///                           precompute twice, …) is an error naming the plugin and the call
///   bad-inputs-refused      a bad dt, force or initial state is refused with one message naming
///                           the plugin, and the refused call changes nothing
///   positions-from-layout   a reduced method's positions and velocities are the geometry
///                           kernel's of its layout and poses, bit for bit; every method moves
///   deterministic-runs      two runs from the same state give the same positions, bit for bit
///   deterministic-threads   a run on 2 threads ([run] threads) gives those of a run on 1
///   full-referenced-run     a short run of the scene beside the `full` ground truth: both run
///                           to the end and the trajectory error is finite and at most a bound
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "substruct/config/config.hpp"

namespace substruct {

class PluginHost;

/// The outcome of one rule.
struct RuleOutcome {
  std::string rule;  // e.g. "deterministic-runs"
  bool passed = false;
  std::string detail;  // what was measured; for a failure, what broke first
};

/// The scene the rules run on and how long they run.
struct ConformanceScene {
  std::vector<Setting> settings;   // the scene's settings ([coupling] plugin is replaced)
  std::filesystem::path base_dir;  // where its relative paths start
  std::string name;                // for messages: the scene file's stem
  long contract_steps = 5;         // steps of each run of the first five rules
  long reference_steps = 50;       // steps of the full-referenced run
  /// The largest trajectory error of the full-referenced run, relative to the reference's own
  /// motion (bench/accuracy.hpp motion_error: 0 exact, 1 as far off as standing still).
  double max_reference_error = 1;
};

/// The names of the rules, in the order check_coupling_plugin() runs them.
const std::vector<std::string>& coupling_rules();

/// Runs every rule on coupling plugin `plugin` of `host`, calling `report` after each (in the
/// order of coupling_rules()) and returning the outcomes. An error a rule does not expect is its
/// failure, with the message; the other rules still run. Throws Error only when the scene
/// cannot be read, `plugin` is no coupling plugin of `host` or its can_run() refuses the scene.
std::vector<RuleOutcome> check_coupling_plugin(
    const PluginHost& host, const std::string& plugin, const ConformanceScene& scene,
    const std::function<void(const RuleOutcome&)>& report = {});

/// One rule (a name of coupling_rules()) alone; Error for an unknown rule.
RuleOutcome check_coupling_rule(const PluginHost& host, const std::string& plugin,
                                const ConformanceScene& scene, const std::string& rule);

}  // namespace substruct
