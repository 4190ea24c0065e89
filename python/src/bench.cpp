// SPDX-License-Identifier: GPL-3.0-or-later
// substruct.bench(): `substruct bench` from Python, its report's rows as dicts (the columns of
// results.csv), and the same files when asked.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "substruct/bench/bench_rows.hpp"
#include "substruct/bench/machine_info.hpp"

namespace substruct::python {

namespace {

py::object field_value(const BenchField& f) {
  if (const auto* text = std::get_if<std::string>(&f.value)) return py::str(*text);
  if (const auto* count = std::get_if<long long>(&f.value)) return py::int_(*count);
  const double x = std::get<double>(f.value);
  return std::isfinite(x) ? py::object(py::float_(x)) : py::object(py::none());
}

py::list bench(const py::object& scenes, const std::vector<std::string>& methods, long steps,
               int repeats, const py::dict& overrides, const py::object& reference,
               const py::object& out, bool verbose, bool reference_check) {
  std::vector<std::string> files;
  if (py::isinstance<py::str>(scenes) || py::hasattr(scenes, "__fspath__"))
    files.push_back(scenes.cast<std::filesystem::path>().string());
  else
    for (const py::handle s : scenes) files.push_back(s.cast<std::filesystem::path>().string());
  if (files.empty() || methods.empty()) throw Error("bench: give at least one scene and method");
  if (steps < 1 || repeats < 1) throw Error("bench: steps and repeats must be ≥ 1");
  std::vector<std::string> common;
  for (const auto& [key, value] : overrides)
    common.push_back("--" + key.cast<std::string>() + "=" + py::str(value).cast<std::string>());
  std::vector<BenchRow> rows;
  for (const std::string& m : methods) rows.push_back({m, m, {}, ""});

  BenchReport report;
  report.reference_method =
      reference.is_none()
          ? (std::find(methods.begin(), methods.end(), "full") != methods.end() ? "full" : "")
          : reference.cast<std::string>();
  report.steps = steps;
  report.repeats = repeats;
  auto host = plugin_host();
  const std::filesystem::path folder =  // read with the GIL held
      out.is_none() ? std::filesystem::path() : out.cast<std::filesystem::path>();
  run_interruptible([&] {
    report.machine = describe_machine();
    for (const std::string& scene : files)
      run_bench_rows(scene, rows, report.reference_method, common,
                     RowRunSettings{steps, 0, repeats, 0, reference_check, "Python"}, *host, report,
                     verbose ? stdout : nullptr);
    if (!folder.empty()) write_bench_report(folder, report);
  });
  py::list result;
  for (std::size_t k = 0; k < report.cases.size(); ++k) {
    py::dict row;
    for (const BenchField& f : bench_result_fields(report.cases[k], report.accuracy[k]))
      row[py::str(f.name)] = field_value(f);
    result.append(row);
  }
  return result;
}

}  // namespace

void bind_bench(py::module_& m) {
  m.def("bench", &bench, py::arg("scenes"), py::arg("methods"), py::arg("steps") = 200,
        py::arg("repeats") = 3, py::arg("overrides") = py::dict(),
        py::arg("reference") = py::none(), py::arg("out") = py::none(), py::arg("verbose") = false,
        py::arg("reference_check") = true,
        R"(`substruct bench` from Python: every scene (a path or a list) by every coupling method.

Each case: a timed precompute, then `repeats` runs of `steps` steps from the initial state; its
accuracy against the `reference` method's run of the same scene (default "full" when it is among
`methods`, else none), with the report's metric definitions. overrides: {"section.key": value}
for every case. Returns one dict per case with the columns of results.csv (scene, method,
status, dofs, step_ms_median, relative_rms_error, frequency_ratio, …; None where a figure does
not apply). reference_check: run the reference once more at Δt/4 and give its own error against
that run as its row's relative_rms_error and every row's reference_uncertainty, as the command
line does. out: a folder to write report.md, results.csv and results.json into, as the
command line does (without the plots).)");
}

}  // namespace substruct::python
