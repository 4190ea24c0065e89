// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// One scene through a list of benchmark rows (a coupling plugin with its settings each), the
/// cases appended to a report with their accuracy against a reference row: what `substruct
/// bench` does per scene, and the Python API's substruct.bench().
#include <cstdio>
#include <string>
#include <vector>

#include "substruct/bench/bench_report.hpp"
#include "substruct/bench/bench_suite.hpp"

namespace substruct {

class PluginHost;

/// How long each row runs.
struct RowRunSettings {
  long steps = 0;       // per run; 0: from duration
  double duration = 0;  // [s]: steps = duration / the row's Δt
  int repeats = 1;
  long max_steps = 0;  // > 0: at most this many (--quick)
  /// Runs the reference row once more at Δt/4 (4× the steps) and reports the reference's own
  /// error against it beside the methods' errors (BenchAccuracy::reference_uncertainty).
  bool reference_check = false;
  /// Where the common overrides come from, for the messages of a value they refuse
  /// (Config::load's origin: "command line", or "Python").
  std::string origin = "command line";
};

/// Runs `scene` with every row (overrides: `common`, then the row's; no exporters) and appends
/// the cases, and their accuracy against the row labelled `reference` (none when empty), to
/// `report`. With `run.reference_check`, the reference's own error at its Δt against Δt/4 is the
/// reference row's error and every row's reference_uncertainty. Progress lines go to `log`
/// unless it is null.
void run_bench_rows(const std::string& scene, const std::vector<BenchRow>& rows,
                    const std::string& reference, const std::vector<std::string>& common,
                    const RowRunSettings& run, const PluginHost& host, BenchReport& report,
                    std::FILE* log);

}  // namespace substruct
