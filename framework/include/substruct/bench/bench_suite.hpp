// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A benchmark suite: a paper's experiments as files in share/benchmarks/NAME.suite, each
/// experiment one scene run by named rows (a coupling plugin with its own settings, and what the
/// paper reports for it), so that `substruct bench --suite NAME` reproduces the paper's table.
///
/// The format, one setting per line (lines starting with # are comments):
///
///   title = Barbič–Zhao 2011, Fig. 7      the suite's heading
///   about = one line of explanation       repeatable: lines of text under the heading
///   [experiment release]                  one table; then, for it:
///   title = …, about = …                  its heading and text
///   scene = ../scenes/flower.ini          relative to the suite file, or
///   generate = tree --branches 40 …       `substruct generate` arguments (made in the output)
///   steps = 164, or duration = 0.82       per run (duration: steps = duration / the row's Δt)
///   repeats = 1                           timed runs per row (default 1)
///   set = run.loads =                     an override for every row (repeatable)
///   row = LABEL | PLUGIN | KEY = VALUE; … | PAPER    a row (the last two fields optional),
///         e.g. row = L1 | inertia | inertia.lumping = interface | f / f_ref = 2
///   reference = full | none | LABEL       default: the row named full, if any
///   other_methods = yes | no              rows for the other plugins too (default yes)
///   stages = yes | no                     a column of step stages (default no)
///   figures = yes | no                    a column of precompute figures (default no)
#include <filesystem>
#include <string>
#include <vector>

namespace substruct {

struct BenchRow {
  std::string label;
  std::string plugin;
  std::vector<std::string> overrides;  // "--section.key=value"
  std::string paper;
};

struct BenchExperiment {
  std::string name;
  std::string title;
  std::vector<std::string> about;
  std::filesystem::path scene;  // absolute or relative to the working directory
  std::string generate;         // or `substruct generate` arguments (shape first) that make it
  long steps = 0;               // 0: from duration
  double duration = 0;          // [s], when steps is 0
  int repeats = 1;
  std::vector<std::string> overrides;  // "--section.key=value", before each row's own
  std::vector<BenchRow> rows;
  std::string reference;  // a row's label; empty: none
  bool other_methods = true;
  bool stages = false;
  bool figures = false;
};

struct BenchSuite {
  std::string name;  // the file's stem
  std::filesystem::path file;
  std::string title;
  std::vector<std::string> about;
  std::vector<BenchExperiment> experiments;
};

/// Reads a suite file. Throws Error naming the file and line for an unknown key, a malformed row,
/// an experiment without a scene, rows or steps, or a reference that names no row.
BenchSuite read_bench_suite(const std::filesystem::path& file);

/// The suite files of `dir` (*.suite), sorted by name.
std::vector<std::filesystem::path> list_bench_suites(const std::filesystem::path& dir);

}  // namespace substruct
