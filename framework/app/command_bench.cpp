// SPDX-License-Identifier: GPL-3.0-or-later
// substruct bench [SCENE.ini …] [--methods a,b] [--steps N] [--repeats K] [--out DIR] …
// Every scene × coupling method against the `full` ground truth, in one report.
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/bench/bench_report.hpp"
#include "substruct/bench/bench_rows.hpp"
#include "substruct/bench/bench_suite.hpp"
#include "substruct/bench/bench_verdict.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/input_file.hpp"
#include "substruct/core/install_layout.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/parse_number.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kTableBegin = "<!-- bench-table:begin -->";
constexpr const char* kTableEnd = "<!-- bench-table:end -->";

struct BenchArguments {
  GlobalOptions global;
  std::vector<std::string> scenes;
  std::vector<std::string> methods;  // empty: every coupling plugin
  std::string reference = "full";    // "none": no ground truth
  long steps = 200;
  int repeats = 3;
  fs::path out = "bench";
  fs::path scenes_file;
  fs::path readme;
  std::string suite;   // a name in share/benchmarks, a .suite file, or "all"
  bool quick = false;  // at most 10 steps, one run: checks a suite end to end in seconds
  bool plots = true;
  bool reference_check = true;         // the reference once more at Δt/4: its own error
  std::vector<std::string> overrides;  // applied to every scene
  bool help = false;
};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (char ch : text + ",") {
    if (ch == ',' || ch == ' ') {
      if (!item.empty()) items.push_back(item);
      item.clear();
    } else {
      item += ch;
    }
  }
  return items;
}

BenchArguments parse(const Args& raw) {
  BenchArguments a;
  const Args args = take_global_options(raw, a.global);
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& arg = args[k];
    // "--name value" or "--name=value"
    auto value = [&](const char* name) -> std::string {
      const std::string flag = std::string("--") + name;
      if (arg.starts_with(flag + "=")) return arg.substr(flag.size() + 1);
      if (k + 1 >= args.size()) throw Error(fmt::format("bench: {} needs a value", flag));
      return args[++k];
    };
    auto is = [&](const char* name) {
      const std::string flag = std::string("--") + name;
      return arg == flag || arg.starts_with(flag + "=");
    };
    auto integer = [&](const char* name, long low) {
      const std::string text = value(name);
      const std::optional<long> n = parse_integer(text);
      if (!n || *n < low)
        throw Error(
            fmt::format("bench: --{} must be an integer ≥ {}, found '{}'", name, low, text));
      return *n;
    };
    if (arg == "--help" || arg == "-h") {
      a.help = true;
    } else if (is("methods")) {
      a.methods = split_list(value("methods"));
    } else if (is("reference")) {
      a.reference = value("reference");
    } else if (is("steps")) {
      a.steps = integer("steps", 1);
    } else if (is("repeats")) {
      a.repeats = static_cast<int>(integer("repeats", 1));
    } else if (is("out")) {
      a.out = value("out");
    } else if (is("scenes-file")) {
      a.scenes_file = value("scenes-file");
    } else if (is("results") || is("readme")) {  // --readme: the older name of --results
      a.readme = value(is("results") ? "results" : "readme");
    } else if (is("suite")) {
      a.suite = value("suite");
    } else if (arg == "--quick") {
      a.quick = true;
    } else if (arg == "--no-plots") {
      a.plots = false;
    } else if (arg == "--no-reference-check") {
      a.reference_check = false;
    } else if (arg.starts_with("--") && arg.find('.') != std::string::npos) {
      a.overrides.push_back(arg);  // --section.key=value
    } else if (arg.starts_with("-")) {
      throw unknown_option("bench", arg,
                           {"--methods", "--reference", "--steps", "--repeats", "--out",
                            "--scenes-file", "--results", "--readme", "--suite", "--quick",
                            "--no-plots", "--no-reference-check", "--help"});
    } else {
      a.scenes.push_back(arg);
    }
  }
  return a;
}

// The scenes listed in `file`: one path per line (relative to the file), '#' starts a comment.
std::vector<std::string> read_scene_list(const fs::path& file) {
  std::istringstream in(read_input_file(file, "bench scene list"));
  std::vector<std::string> scenes;
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string path;
    if (words >> path) scenes.push_back((file.parent_path() / path).lexically_normal().string());
  }
  if (scenes.empty()) throw Error(fmt::format("bench: {} lists no scene", file.string()));
  return scenes;
}

// The coupling plugins found, in name order.
std::vector<std::string> coupling_plugins(const PluginHost& host) {
  std::vector<std::string> available;
  for (const PluginInfo& p : host.plugins())
    if (p.descriptor && p.descriptor->kind == PluginKind::coupling)
      available.emplace_back(p.descriptor->name);
  std::sort(available.begin(), available.end());
  return available;
}

// The coupling methods to run: the reference first, then the others in name order.
std::vector<std::string> choose_methods(const BenchArguments& a, const PluginHost& host) {
  const std::vector<std::string> available = coupling_plugins(host);
  std::vector<std::string> methods = a.methods.empty() ? available : a.methods;
  for (const std::string& m : methods)
    if (std::find(available.begin(), available.end(), m) == available.end())
      throw Error(fmt::format("bench: no coupling plugin '{}' (available: {})", m,
                              fmt::join(available, ", ")));
  if (a.reference != "none") {
    if (std::find(available.begin(), available.end(), a.reference) == available.end())
      throw Error(fmt::format("bench: no coupling plugin '{}' for the reference", a.reference));
    methods.erase(std::remove(methods.begin(), methods.end(), a.reference), methods.end());
    methods.insert(methods.begin(), a.reference);
  }
  return methods;
}

// Replaces the text between the `begin` and `end` marker lines of `readme` by `table`.
void update_readme(const fs::path& readme, const std::string& table,
                   const std::string& begin_marker = kTableBegin,
                   const std::string& end_marker = kTableEnd) {
  std::string text = read_input_file(readme, "bench README");
  const auto begin = text.find(begin_marker);
  const auto end = text.find(end_marker);
  if (begin == std::string::npos || end == std::string::npos || end < begin)
    throw Error(fmt::format("bench: {} has no '{}' … '{}' section for the table", readme.string(),
                            begin_marker, end_marker));
  const auto from = begin + begin_marker.size();
  text.replace(from, end - from, "\n" + table);
  write_file_atomically(readme, text);
}

// Draws the plots with Python/matplotlib; says why when it cannot.
void draw_plots(const fs::path& dir) {
  const fs::path script = data_dir() / "plot_bench.py";
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  if (!fs::exists(script)) {
    std::printf("plots      skipped: %s is missing\n", script.c_str());
    return;
  }
  const std::string command =
      fmt::format("'{}' '{}' '{}'", python, script.string(), (dir / "results.json").string());
  const int status = std::system(command.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 3)
    std::printf(
        "plots      skipped: Python's matplotlib is missing (apt-get install "
        "python3-matplotlib)\n");
  else if (code != 0)
    throw Error(fmt::format("bench: the plotting step failed ({}): {}", code, command));
}

// The suite files `--suite` names: "all", a name in share/benchmarks, or a path.
std::vector<fs::path> suite_files(const std::string& suite) {
  const fs::path dir = data_dir() / "benchmarks";
  if (suite == "all") {
    std::vector<fs::path> files = list_bench_suites(dir);
    if (files.empty()) throw Error(fmt::format("bench: no *.suite file in {}", dir.string()));
    return files;
  }
  if (fs::exists(suite)) return {suite};
  if (fs::exists(dir / (suite + ".suite"))) return {dir / (suite + ".suite")};
  std::vector<std::string> names;
  for (const fs::path& f : list_bench_suites(dir)) names.push_back(f.stem().string());
  throw Error(fmt::format("bench: no suite '{}' (in {}: {}; or all)", suite, dir.string(),
                          fmt::join(names, ", ")));
}

// Makes an experiment's scene with `substruct generate` into DIR/scenes/<experiment>.ini.
fs::path generate_scene(const BenchExperiment& e, const fs::path& dir) {
  Args args;
  std::istringstream words(e.generate);
  for (std::string word; words >> word;) args.push_back(word);
  const fs::path scenes = dir / "scenes";
  args.insert(args.end(), {"--out", scenes.string(), "--name", e.name});
  const auto generate = std::find_if(commands().begin(), commands().end(), [](const Command& c) {
    return std::string(c.name) == "generate";
  });
  if (generate == commands().end()) throw Error("bench: the generate command is missing");
  std::printf("generate   %s\n", e.generate.c_str());
  if (generate->run(args) != 0)
    throw Error(
        fmt::format("bench: [experiment {}]: substruct generate {} failed", e.name, e.generate));
  return scenes / (e.name + ".ini");
}

// Runs every experiment of a suite into DIR/<suite>/<experiment>/ and returns its Markdown:
// the title, then per experiment its title, text, table and the machine line.
std::string run_suite(const BenchSuite& suite, const BenchArguments& a, const PluginHost& host,
                      const MachineInfo& machine) {
  std::string md = fmt::format("#### {}\n\n", suite.title.empty() ? suite.name : suite.title);
  for (const std::string& line : suite.about) md += line + "\n";
  if (!suite.about.empty()) md += "\n";
  for (const BenchExperiment& e : suite.experiments) {
    std::vector<BenchRow> rows = e.rows;
    if (e.other_methods)
      for (const std::string& plugin : coupling_plugins(host))
        if (std::none_of(rows.begin(), rows.end(),
                         [&](const BenchRow& r) { return r.plugin == plugin; }))
          rows.push_back(BenchRow{plugin, plugin, {}, ""});
    BenchReport report;
    report.machine = machine;
    report.reference_method = e.reference;
    report.stage_column = e.stages;
    report.figures_column = e.figures;
    const RowRunSettings run{e.steps, e.duration, a.quick ? 1 : e.repeats, a.quick ? 10 : 0,
                             !a.quick && a.reference_check};
    report.repeats = run.repeats;
    report.quick = a.quick;
    report.steps = e.steps;
    std::vector<std::string> common = e.overrides;
    common.insert(common.end(), a.overrides.begin(), a.overrides.end());
    std::printf("suite      %s / %s\n", suite.name.c_str(), e.name.c_str());
    const fs::path scene = e.generate.empty() ? e.scene : generate_scene(e, a.out / suite.name);
    run_bench_rows(scene.string(), rows, e.reference, common, run, host, report, stdout);
    const fs::path dir = a.out / suite.name / e.name;
    for (const fs::path& file : write_bench_report(dir, report))
      std::printf("output     %s\n", fs::absolute(file).lexically_normal().c_str());
    if (a.plots) draw_plots(dir);
    md += fmt::format("**{}**{}{}\n\n", e.title.empty() ? e.name : e.title,
                      e.about.empty() ? "" : " ", fmt::join(e.about, " "));
    md += bench_markdown_table(report);
    md += fmt::format("\n_{} · {} · commit {} · {} run(s) of {}{}_\n\n", machine.cpu,
                      machine.date.substr(0, 10), machine.commit, run.repeats,
                      e.steps ? fmt::format("{} steps", a.quick ? std::min(e.steps, 10L) : e.steps)
                              : fmt::format("{} s", e.duration),
                      e.reference.empty() ? "" : fmt::format("; reference: {}", e.reference));
    if (a.quick)
      md +=
          "_Quick run: a check that every row runs; its accuracy figures are not meaningful._\n\n";
    md += "Verdict on " + bench_verdict(report) + "\n";
    if (const std::string contact = bench_contact_lines(report); !contact.empty())
      md += "\nContact:\n\n" + contact + "\n";
  }
  return md;
}

}  // namespace

int command_bench(const Args& raw_args) {
  BenchArguments a = parse(raw_args);
  if (a.help) {
    std::printf(
        "usage: substruct bench [SCENE.ini …] [--methods a,b] [--reference full|none]\n"
        "                       [--steps N] [--repeats K] [--out DIR] [--scenes-file FILE]\n"
        "                       [--results FILE.md] [--no-plots] [--no-reference-check] [--quick]\n"
        "                       [--section.key=value …]\n"
        "       substruct bench --suite NAME|FILE|all [--quick] [--out DIR] [--results FILE.md]\n"
        "  Runs every scene with every coupling method that can run it (or --methods) and the\n"
        "  ground truth (--reference, default full), from the scene's initial state under its\n"
        "  loads, without output; K timed runs of N steps (default 3 × 200).\n"
        "  Writes DIR/report.md (table, verdict, stages), results.csv, results.json and the plots\n"
        "  trajectories_<scene>.png, energy_<scene>.png (default DIR: bench).\n"
        "  Without scenes: the list in share/benchmarks/scenes.txt (installed:\n"
        "  <prefix>/share/substruct/benchmarks). --results (or --readme) replaces the table\n"
        "  between the '%s' and '%s' lines of that file\n"
        "  (this tree's: benchmarks/RESULTS.md).\n"
        "  Figures: precompute time (stages, cache hits), step time median and p10–p90 (stages),\n"
        "  DOFs, peak memory, and against the reference: RMS/max error of the tracked vertices\n"
        "  over the object's size, frequency ratio of the first tracked vertex's vibration,\n"
        "  energy change against the reference's energy, interface gap (above 1 %% of the size\n"
        "  the row is marked broken). The reference runs once more at Δt/4, and its own error\n"
        "  against that run is its row's error (--no-reference-check: not). Methods that cannot\n"
        "  run a scene are listed with why. A scene with [contact] obstacles adds a Contact\n"
        "  section: the deepest penetration against the tolerance, contacts per step, the\n"
        "  share sliding and the contact stage's time per step (also in results.csv).\n"
        "  --suite runs a paper's experiments from share/benchmarks/NAME.suite (all: every\n"
        "  suite there), each experiment one table of named rows beside the paper's figures,\n"
        "  into DIR/NAME/EXPERIMENT/; DIR/NAME/summary.md has the tables, and --results puts\n"
        "  them between '<!-- bench-suite:NAME:begin -->' and '<!-- bench-suite:NAME:end -->'.\n"
        "  --quick: at most 10 steps and one run per row, no reference check (a check of the\n"
        "  pipeline, not a measurement: the report and its verdict say so).\n"
        "  After the table, a verdict per scene: the method closest to the reference and the\n"
        "  fastest, at what error and time per step; errors below the reference's own error\n"
        "  (Δt against Δt/4) are indistinguishable from it, not ranked; the methods that could\n"
        "  not run, stopped or came apart, and why.\n",
        kTableBegin, kTableEnd);
    return 0;
  }
  if (!a.suite.empty()) {
    if (!a.scenes.empty() || !a.methods.empty() || !a.scenes_file.empty())
      throw Error("bench: --suite takes its scenes and methods from the suite file");
    std::vector<BenchSuite> suites;
    for (const fs::path& file : suite_files(a.suite)) suites.push_back(read_bench_suite(file));
    PluginHost host(a.global.plugin_paths);
    // Every row's plugin exists before anything runs: a typo in the last experiment must not
    // cost the time of the others.
    const std::vector<std::string> available = coupling_plugins(host);
    for (const BenchSuite& suite : suites)
      for (const BenchExperiment& e : suite.experiments)
        for (const BenchRow& row : e.rows)
          if (std::find(available.begin(), available.end(), row.plugin) == available.end())
            throw Error(fmt::format(
                "{}: [experiment {}] row '{}': no coupling plugin '{}' "
                "(available: {})",
                suite.file.string(), e.name, row.label, row.plugin, fmt::join(available, ", ")));
    const MachineInfo machine = describe_machine();
    for (const BenchSuite& suite : suites) {
      const std::string md = run_suite(suite, a, host, machine);
      fs::create_directories(a.out / suite.name);
      write_file_atomically(a.out / suite.name / "summary.md", md);
      std::printf("output     %s\n",
                  fs::absolute(a.out / suite.name / "summary.md").lexically_normal().c_str());
      if (!a.readme.empty()) {
        update_readme(a.readme, md, fmt::format("<!-- bench-suite:{}:begin -->", suite.name),
                      fmt::format("<!-- bench-suite:{}:end -->", suite.name));
        std::printf("readme     %s: suite %s updated\n", a.readme.c_str(), suite.name.c_str());
      }
      std::printf("\n%s", md.c_str());
    }
    return 0;
  }
  if (a.scenes.empty())
    a.scenes = read_scene_list(a.scenes_file.empty() ? data_dir() / "benchmarks" / "scenes.txt"
                                                     : a.scenes_file);

  PluginHost host(a.global.plugin_paths);
  std::vector<BenchRow> rows;
  for (const std::string& method : choose_methods(a, host))
    rows.push_back(BenchRow{method, method, {}, ""});
  BenchReport report;
  report.machine = describe_machine();
  report.reference_method = a.reference == "none" ? "" : a.reference;
  // --quick: at most 10 steps, one run, no reference check (as for a suite).
  report.steps = a.quick ? std::min(a.steps, 10L) : a.steps;
  report.repeats = a.quick ? 1 : a.repeats;
  report.quick = a.quick;
  for (const std::string& scene : a.scenes)
    run_bench_rows(
        scene, rows, report.reference_method, a.overrides,
        RowRunSettings{report.steps, 0, report.repeats, 0, !a.quick && a.reference_check}, host,
        report, stdout);

  for (const fs::path& file : write_bench_report(a.out, report))
    std::printf("output     %s\n", fs::absolute(file).lexically_normal().c_str());
  if (a.plots) draw_plots(a.out);
  if (!a.readme.empty()) {
    update_readme(a.readme, fmt::format("_{} · {} · commit {} · {} × {} steps_\n\n{}\n{}",
                                        report.machine.cpu, report.machine.date.substr(0, 10),
                                        report.machine.commit, report.repeats, report.steps,
                                        bench_markdown_table(report), bench_verdict(report)));
    std::printf("readme     %s: table updated\n", a.readme.c_str());
  }
  std::printf("\n%s\nVerdict\n\n%s", bench_markdown_table(report).c_str(),
              bench_verdict(report).c_str());
  return 0;
}

SUBSTRUCT_COMMAND("bench", "[SCENE.ini …] [--methods a,b] [--steps N] [--out DIR]",
                  "compare coupling methods against the ground truth: timings, accuracy, report",
                  command_bench);

}  // namespace substruct::cli
