// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/bench/bench_report.hpp"

#include "substruct/bench/bench_verdict.hpp"

#include "substruct/core/damped_vibration.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/io/staged_file.hpp"

namespace substruct {

namespace fs = std::filesystem;

namespace {

std::vector<double> total_energy(const BenchCase& c) {
  std::vector<double> e(c.kinetic.size());
  for (std::size_t k = 0; k < e.size(); ++k) e[k] = c.kinetic[k] + c.elastic[k] + c.gravity[k];
  return e;
}

std::vector<double> kinetic_elastic(const BenchCase& c) {
  std::vector<double> e(c.kinetic.size());
  for (std::size_t k = 0; k < e.size(); ++k) e[k] = c.kinetic[k] + c.elastic[k];
  return e;
}

// A number for Markdown/CSV: `digits` significant digits, "—" for NaN.
std::string num(double x, int digits = 3) {
  if (!std::isfinite(x)) return "—";
  return fmt::format("{:.{}g}", x, digits);
}

// The error / motion cell: the reference's own error against Δt/4 on its row; a method's error
// below that uncertainty says so (the reference cannot tell it from exact).
std::string motion_cell(const BenchAccuracy& a) {
  if (a.self_check) return num(a.motion.relative_rms) + " vs Δt/4";
  if (std::isfinite(a.reference_uncertainty) && a.motion.relative_rms < a.reference_uncertainty)
    return fmt::format("{} < ref. {}", num(a.motion.relative_rms), num(a.reference_uncertainty));
  return num(a.motion.relative_rms);
}

// A change with its sign: "+0.117", "-0.85", "+101".
std::string signed_num(double x) {
  if (!std::isfinite(x)) return "—";
  return fmt::format("{:+.3g}", x);
}

std::string json_number(double x) {
  return std::isfinite(x) ? fmt::format("{:.9g}", x) : "null";
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<int>(ch));
        else
          out += ch;
    }
  }
  return out + "\"";
}

template <class Range>
std::string json_array(const Range& values) {
  std::string out = "[";
  bool first = true;
  for (double v : values) {
    if (!first) out += ',';
    out += json_number(v);
    first = false;
  }
  return out + "]";
}

std::string stages_text(const std::vector<std::pair<std::string, double>>& stages, double scale,
                        const char* unit) {
  std::string out;
  for (const auto& [name, seconds] : stages)
    out += fmt::format("{}{} {}{}", out.empty() ? "" : ", ", name, num(scale * seconds), unit);
  return out;
}

std::string models_text(const PrecomputeStats& p) {
  if (p.models_computed + p.models_loaded + p.models_instanced == 0) return "";
  return fmt::format("{} computed, {} from cache, {} instanced", p.models_computed, p.models_loaded,
                     p.models_instanced);
}

// The contact stage's mean wall time per step [s] (0 when it was not timed).
double contact_stage_seconds(const BenchCase& c) {
  for (const auto& [stage, seconds] : c.stage_seconds)
    if (stage == "contact") return seconds;
  return 0;
}

// One line of the report's Contact section: what the contact stage found and cost.
std::string contact_text(const BenchCase& c) {
  const ContactStats& s = c.contact_stats;
  std::string line =
      fmt::format("- {} / {}: deepest penetration {} m", c.scene, c.name(), num(s.max_penetration));
  if (s.deepest_vertex >= 0) line += fmt::format(" (vertex {})", s.deepest_vertex);
  const double share = s.max_penetration / c.contact_tolerance;
  line += share > 1 ? fmt::format(", {}× the tolerance {} m", num(share), num(c.contact_tolerance))
                    : fmt::format(", {} % of the tolerance {} m", num(100 * share),
                                  num(c.contact_tolerance));
  line += fmt::format("; {} contacts per step (at most {}), {} % of them sliding",
                      num(s.contacts_per_step()), s.max_contacts, num(100 * s.sliding_share()));
  const double stage = contact_stage_seconds(c);
  const double step = c.median_step_seconds();
  line += fmt::format("; the contact stage {} µs per step", num(1e6 * stage));
  if (step > 0) line += fmt::format(" ({} % of the median step)", num(100 * stage / step));
  return line + "\n";
}

// "full: trapezoidal Newmark (γ = ½, β = ¼); ddm: backward Euler …", each method once.
std::string integrators_text(const BenchReport& report) {
  std::vector<std::string> seen;
  std::string list;
  for (const BenchCase& c : report.cases) {
    if (c.precompute.integrator.empty()) continue;
    const std::string item = fmt::format("`{}` {}", c.name(), c.precompute.integrator);
    if (std::find(seen.begin(), seen.end(), item) != seen.end()) continue;
    seen.push_back(item);
    list += (list.empty() ? "" : "; ") + item;
  }
  return list;
}

}  // namespace

std::vector<BenchField> bench_result_fields(const BenchCase& c, const BenchAccuracy& a) {
  using L = long long;
  const double nan = std::nan("");
  return {{"scene", c.scene},
          {"method", c.name()},
          {"status", c.ran() ? "ok" : c.failure},
          {"dofs", L(c.dofs)},
          {"domains", L(c.domains)},
          {"dt", c.dt},
          {"precompute_s", c.precompute_seconds},
          {"models_computed", L(c.precompute.models_computed)},
          {"models_loaded", L(c.precompute.models_loaded)},
          {"models_instanced", L(c.precompute.models_instanced)},
          {"step_ms_median", 1e3 * c.median_step_seconds()},
          {"step_ms_p10", 1e3 * c.percentile_step_seconds(10)},
          {"step_ms_p90", 1e3 * c.percentile_step_seconds(90)},
          {"peak_rss_mb", c.peak_rss_mb},
          {"rms_error", a.error.rms},
          {"max_error", a.error.max},
          {"frequency_hz", a.frequency_hz},
          {"reference_frequency_hz", a.reference_frequency_hz},
          {"frequency_ratio", a.frequency_ratio},
          {"energy_drift", a.energy_drift},
          {"interface_gap_m", c.interface_gap},
          {"relative_rms_error", a.motion.relative_rms},
          {"offset_ratio", a.motion.offset_ratio},
          {"decay_rate", a.decay_rate},
          {"reference_decay_rate", a.reference_decay_rate},
          {"decay_ratio", a.decay_ratio},
          {"plugin", c.method},
          {"paper", c.paper},
          {"broken", L(a.broken)},
          {"integrator", c.precompute.integrator},
          {"reference_uncertainty", a.reference_uncertainty},
          {"self_check", L(a.self_check)},
          {"contact_max_penetration_m", c.contact ? c.contact_stats.max_penetration : nan},
          {"contacts_per_step", c.contact ? c.contact_stats.contacts_per_step() : nan},
          {"contact_stage_us", c.contact ? 1e6 * contact_stage_seconds(c) : nan}};
}

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

}  // namespace

BenchAccuracy compare_with_reference(const BenchCase& c, const BenchCase* reference) {
  BenchAccuracy a;
  if (!c.ran()) return a;
  a.broken = broken_interface(c.interface_gap, c.size);
  const bool has_reference = reference != nullptr && reference->ran();
  const std::vector<double> total = total_energy(c);
  const auto from = std::min<std::size_t>(std::size_t(c.steady_from), total.size());
  a.energy_drift =
      from + 1 >= total.size()
          ? std::nan("")
          : energy_drift(
                std::vector<double>(total.begin() + std::ptrdiff_t(from), total.end()),
                energy_scale(kinetic_elastic(c),
                             has_reference ? kinetic_elastic(*reference) : std::vector<double>{}));
  if (c.tracked.cols() >= 3) {
    const DampedVibration v = dominant_vibration_of_positions(c.tracked.leftCols(3), c.dt);
    a.frequency_hz = v.frequency_hz;
    a.decay_rate = v.decay_rate;
  }
  if (!has_reference || reference->tracked.cols() != c.tracked.cols() ||
      reference->tracked.rows() != c.tracked.rows() || reference->dt != c.dt)
    return a;  // no reference, or one sampled otherwise
  a.error = trajectory_error(c.tracked, reference->tracked, c.size);
  a.motion = motion_error(c.tracked, reference->tracked);
  if (reference->tracked.cols() >= 3) {
    const DampedVibration v =
        dominant_vibration_of_positions(reference->tracked.leftCols(3), reference->dt);
    a.reference_frequency_hz = v.frequency_hz;
    a.reference_decay_rate = v.decay_rate;
  }
  a.frequency_ratio = a.frequency_hz / a.reference_frequency_hz;
  const double duration = c.dt * double(std::max<Index>(0, c.tracked.rows() - 1));
  a.decay_ratio = std::exp(-(a.decay_rate - a.reference_decay_rate) * duration);
  return a;
}

std::string bench_markdown_table(const BenchReport& report) {
  bool paper = false;
  for (const BenchCase& c : report.cases) paper = paper || !c.paper.empty();
  const std::string extra_head = std::string(report.stage_column ? " step stages [ms] |" : "") +
                                 (report.figures_column ? " precompute figures |" : "") +
                                 (paper ? " paper (times in ms) |" : "");
  const std::string extra_rule = std::string(report.stage_column ? "---|" : "") +
                                 (report.figures_column ? "---|" : "") + (paper ? "---|" : "");
  std::string t =
      "| scene | method | DOFs | domains | precompute [s] | step [ms] median (p10–p90) | "
      "peak memory [MB] | error / motion | offset ratio | f / f_ref | decay ratio | RMS error / "
      "size | energy change / E_ref | interface gap [mm] |" +
      extra_head +
      "\n"
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" +
      extra_rule + "\n";
  for (std::size_t k = 0; k < report.cases.size(); ++k) {
    const BenchCase& c = report.cases[k];
    const BenchAccuracy& a = report.accuracy[k];
    std::string extra;
    if (report.stage_column) extra += fmt::format(" {} |", stages_text(c.stage_seconds, 1e3, ""));
    if (report.figures_column)
      extra += fmt::format(" {} |", stages_text(c.precompute.figures, 1, ""));
    if (paper) extra += fmt::format(" {} |", c.paper);
    if (!c.ran() && c.step_seconds.empty()) {
      t += fmt::format("| {} | {} | | | | not run: {} | | | | | | | | |{}\n", c.scene, c.name(),
                       c.failure, extra);
      continue;
    }
    const std::string step = c.ran() ? fmt::format("{} ({}–{})", num(1e3 * c.median_step_seconds()),
                                                   num(1e3 * c.percentile_step_seconds(10)),
                                                   num(1e3 * c.percentile_step_seconds(90)))
                                     : "diverged: " + c.failure;
    if (a.broken) {  // the domains came apart: no figure of it is a result
      t += fmt::format(
          "| {} | {} | {} | {} | {} | {} | {} | broken: the domains are {} mm apart ({} % of the "
          "size) | | | | | | {} |{}\n",
          c.scene, c.name(), c.dofs, c.domains, num(c.precompute_seconds), step,
          num(c.peak_rss_mb, 4), num(1e3 * c.interface_gap), num(100 * c.interface_gap / c.size),
          num(1e3 * c.interface_gap), extra);
      continue;
    }
    t += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |{}\n",
                     c.scene, c.name(), c.dofs, c.domains, num(c.precompute_seconds), step,
                     num(c.peak_rss_mb, 4), motion_cell(a), num(a.motion.offset_ratio),
                     num(a.frequency_ratio), num(a.decay_ratio), num(a.error.rms),
                     signed_num(a.energy_drift), num(1e3 * c.interface_gap), extra);
  }
  return t;
}

std::string bench_contact_lines(const BenchReport& report) {
  std::string lines;
  for (const BenchCase& c : report.cases)
    if (c.contact && !c.step_seconds.empty()) lines += contact_text(c);
  return lines;
}

std::vector<fs::path> write_bench_report(const fs::path& dir, const BenchReport& report) {
  if (report.accuracy.size() != report.cases.size())
    throw Error("bench report: one accuracy entry per case expected");
  fs::create_directories(dir);
  const MachineInfo& m = report.machine;

  // report.md
  std::string md = "# substruct benchmark\n\n";
  md += fmt::format(
      "- machine: {} ({} hardware threads), {}\n- build: {}, {}; commit {}\n- date: {}\n"
      "- runs: {} × {} steps per scene and method; step times over all runs, one thread\n",
      m.cpu, m.cores, m.os, m.compiler, m.build, m.commit, m.date, report.repeats, report.steps);
  if (!report.reference_method.empty())
    md += fmt::format(
        "- accuracy against `{}` on the same scene, loads, initial state and time step, of the "
        "tracked vertices:\n"
        "  - error / motion = RMS of |x − x_ref| over RMS of the reference's displacement from its "
        "first frame (0: exact; 1: as far off as standing still); on the reference's row, its "
        "own error at its Δt against a run at Δt/4, and \"< ref.\" where a method's error is "
        "below that: closer than the reference can tell\n"
        "  - offset ratio = mean displacement projected on the reference's, over the reference's "
        "(1: the right sag or drift; 0.2: five times too small)\n"
        "  - f / f_ref = frequency of the dominant vibration of the first tracked vertex, fitted "
        "as damped exponentials (matrix pencil), over the reference's\n"
        "  - decay ratio = e^(−σT) / e^(−σ_ref T), how much of its amplitude that vibration keeps "
        "over the run T against the reference (below 1: damped more)\n"
        "  - RMS error / size = RMS of |x − x_ref| over the object's bounding-box diagonal\n"
        "  - energy change = (E_end − E_0) / E_ref, E the total energy and E_ref the reference's "
        "largest kinetic + elastic energy: +0.1 gained a tenth of what the reference holds, +100 "
        "a hundred times it (a gain is positive and is not capped); under a ramped load E_0 is "
        "taken "
        "where the ramp ends\n",
        report.reference_method);
  if (report.quick)
    md +=
        "- **quick run**: a check that every row runs, not a measurement; with so few steps "
        "the accuracy figures are not meaningful, and frequencies need two periods\n";
  if (std::any_of(report.accuracy.begin(), report.accuracy.end(),
                  [](const BenchAccuracy& a) { return a.broken; }))
    md +=
        "- broken: the domains came apart by more than 1 % of the object's size at an "
        "interface; such a run's figures are not results\n";
  if (const std::string list = integrators_text(report); !list.empty())
    md += "- time integrators (a decay ratio is read for what its scheme damps): " + list + "\n";
  md += fmt::format("\n{}\n## Verdict\n\n{}\n## Stages\n\n", bench_markdown_table(report),
                    bench_verdict(report));
  for (const BenchCase& c : report.cases) {
    if (c.step_seconds.empty()) continue;
    md += fmt::format("- {} / {}: precompute {} s", c.scene, c.name(), num(c.precompute_seconds));
    if (!c.precompute.stage_seconds.empty())
      md += fmt::format(" ({})", stages_text(c.precompute.stage_seconds, 1, " s"));
    if (const std::string models = models_text(c.precompute); !models.empty())
      md += "; models: " + models;
    if (!c.stage_seconds.empty())
      md += "; step: " + stages_text(c.stage_seconds, 1e3, " ms") + " (mean)";
    md += "\n";
  }
  if (const std::string contact = bench_contact_lines(report); !contact.empty())
    md += "\n## Contact\n\n" + contact;
  md += "\nPlots: trajectories_<scene>.png (tracked vertex), energy_<scene>.png.\n";

  // results.csv
  std::string csv;
  for (const BenchField& f : bench_result_fields(BenchCase{}, BenchAccuracy{}))
    csv += (csv.empty() ? "" : ",") + f.name;
  csv += "\n";
  for (std::size_t k = 0; k < report.cases.size(); ++k) {
    const std::vector<BenchField> fields = bench_result_fields(report.cases[k], report.accuracy[k]);
    std::string line;
    for (const BenchField& f : fields) {
      if (!line.empty()) line += ",";
      if (const auto* text = std::get_if<std::string>(&f.value))
        line += csv_field(*text);
      else if (const auto* count = std::get_if<long long>(&f.value))
        line += std::to_string(*count);
      else if (const double x = std::get<double>(f.value); std::isfinite(x))
        line += fmt::format("{:.9g}", x);
    }
    csv += line + "\n";
  }

  // results.json
  std::string js = "{\n";
  js += fmt::format(
      "\"machine\": {{\"cpu\": {}, \"cores\": {}, \"os\": {}, \"compiler\": {}, \"build\": {}, "
      "\"commit\": {}, \"date\": {}}},\n",
      json_string(m.cpu), m.cores, json_string(m.os), json_string(m.compiler), json_string(m.build),
      json_string(m.commit), json_string(m.date));
  js += fmt::format("\"reference\": {}, \"steps\": {}, \"repeats\": {},\n\"cases\": [\n",
                    json_string(report.reference_method), report.steps, report.repeats);
  for (std::size_t k = 0; k < report.cases.size(); ++k) {
    const BenchCase& c = report.cases[k];
    const BenchAccuracy& a = report.accuracy[k];
    std::string pre = "{";
    for (const auto& [name, s] : c.precompute.stage_seconds)
      pre += fmt::format("{}{}: {}", pre.size() > 1 ? ", " : "", json_string(name), json_number(s));
    std::string tracked = "[";
    for (Index col = 0; col < c.tracked.cols(); ++col) {
      const Eigen::VectorXd column = c.tracked.col(col);
      if (col) tracked += ',';
      tracked += json_array(std::vector<double>(column.begin(), column.end()));
    }
    tracked += "]";
    std::vector<Index> ids = c.tracked_vertices;
    std::string tracked_ids = "[";
    for (std::size_t i = 0; i < ids.size(); ++i)
      tracked_ids += fmt::format("{}{}", i ? "," : "", ids[i]);
    tracked_ids += "]";
    js += fmt::format(
        "{{\"scene\": {}, \"method\": {}, \"plugin\": {}, \"paper\": {}, \"ran\": {}, \"failure\": "
        "{}, \"dofs\": {}, "
        "\"domains\": {}, \"dt\": {}, \"size\": {}, \"precompute_s\": {}, "
        "\"precompute_stages_s\": {}}}, \"precompute_figures\": {}}}, "
        "\"models_computed\": {}, \"models_loaded\": {}, "
        "\"models_instanced\": {}, \"step_ms_median\": {}, \"step_ms_p10\": {}, "
        "\"step_ms_p90\": {}, \"step_stages_ms_mean\": {}}}, \"peak_rss_mb\": {}, "
        "\"baseline_rss_mb\": {}, \"rms_error\": {}, \"max_error\": {}, \"frequency_hz\": {}, "
        "\"reference_frequency_hz\": {}, \"frequency_ratio\": {}, \"energy_drift\": {}, "
        "\"interface_gap_m\": {}, \"broken\": {}, \"integrator\": {}, "
        "\"reference_uncertainty\": {}, \"self_check\": {}, "
        "\"relative_rms_error\": {}, \"offset_ratio\": {}, "
        "\"decay_rate\": {}, \"reference_decay_rate\": {}, \"decay_ratio\": {}, "
        "\"tracked_vertices\": {}, \"tracked_xyz_columns\": {}, "
        "\"kinetic\": {}, \"elastic\": {}, \"gravity\": {}}}{}\n",
        json_string(c.scene), json_string(c.name()), json_string(c.method), json_string(c.paper),
        c.ran() ? "true" : "false", json_string(c.failure), c.dofs, c.domains, json_number(c.dt),
        json_number(c.size), json_number(c.precompute_seconds), pre,
        [&] {
          std::string f = "{";
          for (const auto& [name, value] : c.precompute.figures)
            f += fmt::format("{}{}: {}", f.size() > 1 ? ", " : "", json_string(name),
                             json_number(value));
          return f;
        }(),
        c.precompute.models_computed, c.precompute.models_loaded, c.precompute.models_instanced,
        json_number(1e3 * c.median_step_seconds()),
        json_number(1e3 * c.percentile_step_seconds(10)),
        json_number(1e3 * c.percentile_step_seconds(90)),
        [&] {
          std::string ms = "{";
          for (const auto& [name, s] : c.stage_seconds)
            ms += fmt::format("{}{}: {}", ms.size() > 1 ? ", " : "", json_string(name),
                              json_number(1e3 * s));
          return ms;
        }(),
        json_number(c.peak_rss_mb), json_number(c.baseline_rss_mb), json_number(a.error.rms),
        json_number(a.error.max), json_number(a.frequency_hz),
        json_number(a.reference_frequency_hz), json_number(a.frequency_ratio),
        json_number(a.energy_drift), json_number(c.interface_gap), a.broken ? "true" : "false",
        json_string(c.precompute.integrator), json_number(a.reference_uncertainty),
        a.self_check ? "true" : "false", json_number(a.motion.relative_rms),
        json_number(a.motion.offset_ratio), json_number(a.decay_rate),
        json_number(a.reference_decay_rate), json_number(a.decay_ratio), tracked_ids, tracked,
        json_array(c.kinetic), json_array(c.elastic), json_array(c.gravity),
        k + 1 < report.cases.size() ? "," : "");
  }
  js += "]\n}\n";

  const std::vector<fs::path> files{dir / "report.md", dir / "results.csv", dir / "results.json"};
  write_file_atomically(files[0], md);
  write_file_atomically(files[1], csv);
  write_file_atomically(files[2], js);
  return files;
}

}  // namespace substruct
