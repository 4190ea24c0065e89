// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/bench/bench_suite.hpp"

#include <algorithm>
#include <optional>

#include <sstream>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/input_file.hpp"
#include "substruct/core/parse_number.hpp"
#include "substruct/core/trim.hpp"

namespace substruct {

namespace fs = std::filesystem;

namespace {

// "section.key = value" → "--section.key=value".
std::optional<std::string> override_of(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos) return std::nullopt;
  const std::string key = trim(text.substr(0, equals));
  if (key.empty() || key.find('.') == std::string::npos || key.find(' ') != std::string::npos)
    return std::nullopt;
  return "--" + key + "=" + trim(text.substr(equals + 1));
}

}  // namespace

BenchSuite read_bench_suite(const fs::path& file) {
  std::istringstream in(read_input_file(file, "bench suite"));
  BenchSuite suite;
  suite.name = file.stem().string();
  suite.file = file;
  std::vector<bool> reference_given;
  std::string line;
  int number = 0;
  const auto fail = [&](const std::string& what) {
    return Error(fmt::format("{}:{}: {}", file.string(), number, what));
  };
  while (std::getline(in, line)) {
    ++number;
    const std::string text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    if (text.front() == '[') {
      const std::string header = trim(text.substr(1, text.find(']') - 1));
      if (text.back() != ']' || !header.starts_with("experiment ") ||
          trim(header.substr(11)).empty())
        throw fail(fmt::format("expected '[experiment NAME]', found '{}'", text));
      BenchExperiment e;
      e.name = trim(header.substr(11));
      suite.experiments.push_back(e);
      reference_given.push_back(false);
      continue;
    }
    const auto equals = text.find('=');
    if (equals == std::string::npos)
      throw fail(fmt::format("expected KEY = VALUE, found '{}'", text));
    const std::string key = trim(text.substr(0, equals));
    const std::string value = trim(text.substr(equals + 1));
    if (suite.experiments.empty()) {
      if (key == "title")
        suite.title = value;
      else if (key == "about")
        suite.about.push_back(value);
      else
        throw fail(
            fmt::format("unknown key '{}' before the first [experiment] (title, about)", key));
      continue;
    }
    BenchExperiment& e = suite.experiments.back();
    const auto yes_no = [&]() {
      if (value == "yes") return true;
      if (value == "no") return false;
      throw fail(fmt::format("{} must be yes or no, found '{}'", key, value));
    };
    if (key == "title") {
      e.title = value;
    } else if (key == "about") {
      e.about.push_back(value);
    } else if (key == "scene") {
      e.scene = (file.parent_path() / value).lexically_normal();
    } else if (key == "generate") {
      if (value.empty()) throw fail("generate needs the arguments of `substruct generate`");
      e.generate = value;
    } else if (key == "steps" || key == "repeats") {
      const std::optional<long> n = parse_integer(value);
      if (!n || *n < 1)
        throw fail(fmt::format("{} must be an integer ≥ 1, found '{}'", key, value));
      if (key == "steps")
        e.steps = *n;
      else
        e.repeats = static_cast<int>(std::min<long>(*n, 1000));
    } else if (key == "duration") {
      const std::optional<double> t = parse_number(value);
      if (!t || !(*t > 0))
        throw fail(fmt::format("duration must be positive [s], found '{}'", value));
      e.duration = *t;
    } else if (key == "set") {
      const std::optional<std::string> o = override_of(value);
      if (!o) throw fail(fmt::format("set needs SECTION.KEY = VALUE, found '{}'", value));
      e.overrides.push_back(*o);
    } else if (key == "row") {
      const std::vector<std::string> fields = split_trimmed(value, '|');
      if (fields.size() < 2 || fields.size() > 4 || fields[0].empty() || fields[1].empty())
        throw fail(fmt::format(
            "row needs LABEL | PLUGIN [| SECTION.KEY = VALUE; …] [| PAPER], found '{}'", value));
      BenchRow row{fields[0], fields[1], {}, fields.size() > 3 ? fields[3] : ""};
      if (fields.size() > 2 && !fields[2].empty())
        for (const std::string& item : split_trimmed(fields[2], ';')) {
          if (item.empty()) continue;
          const std::optional<std::string> o = override_of(item);
          if (!o)
            throw fail(
                fmt::format("row '{}': expected SECTION.KEY = VALUE, found '{}'", row.label, item));
          row.overrides.push_back(*o);
        }
      for (const BenchRow& other : e.rows)
        if (other.label == row.label) throw fail(fmt::format("a second row named '{}'", row.label));
      e.rows.push_back(row);
    } else if (key == "reference") {
      e.reference = value == "none" ? "" : value;
      reference_given.back() = true;
    } else if (key == "other_methods") {
      e.other_methods = yes_no();
    } else if (key == "stages") {
      e.stages = yes_no();
    } else if (key == "figures") {
      e.figures = yes_no();
    } else {
      throw fail(fmt::format(
          "unknown key '{}' (title, about, scene, generate, steps, duration, repeats, set, row, "
          "reference, other_methods, stages, figures)",
          key));
    }
  }
  if (suite.experiments.empty())
    throw Error(fmt::format("{}: the suite has no [experiment NAME] section", file.string()));
  for (std::size_t k = 0; k < suite.experiments.size(); ++k) {
    BenchExperiment& e = suite.experiments[k];
    const auto missing = [&](const char* what) {
      return Error(fmt::format("{}: [experiment {}] has no {}", file.string(), e.name, what));
    };
    if (e.scene.empty() == e.generate.empty()) throw missing("scene (or generate) — one of them");
    if (e.rows.empty() && !e.other_methods) throw missing("row");
    if (e.steps == 0 && e.duration == 0) throw missing("steps or duration");
    if (!reference_given[k]) {
      for (const BenchRow& row : e.rows)
        if (row.label == "full") e.reference = "full";
    } else if (!e.reference.empty() &&
               std::none_of(e.rows.begin(), e.rows.end(),
                            [&](const BenchRow& r) { return r.label == e.reference; })) {
      throw Error(fmt::format("{}: [experiment {}]: reference '{}' names no row", file.string(),
                              e.name, e.reference));
    }
  }
  return suite;
}

std::vector<fs::path> list_bench_suites(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".suite") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace substruct
