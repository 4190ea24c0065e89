// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/bench/bench_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace substruct {

namespace {

struct Row {
  const BenchCase* c;
  const BenchAccuracy* a;
  double error() const { return a->motion.relative_rms; }
  double step_ms() const { return 1e3 * c->median_step_seconds(); }
};

// Three significant digits, the table's precision: two figures that print the same are a tie.
std::string num(double x) {
  return fmt::format("{:.3g}", x);
}

// A speed-up: "35", "1190" (no exponent).
std::string ratio(double x) {
  return x >= 1000 ? fmt::format("{:.0f}", x) : num(x);
}

std::string quoted(const Row& r) {
  return fmt::format("`{}`", r.c->name());
}

// "`a`", "`a` and `b`", "`a`, `b` and `c`", each name followed by `detail(row)`.
template <class Detail>
std::string names(const std::vector<Row>& rows, Detail detail) {
  std::string out;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (k > 0) out += k + 1 == rows.size() ? " and " : ", ";
    out += quoted(rows[k]) + detail(rows[k]);
  }
  return out;
}

std::string names(const std::vector<Row>& rows) {
  return names(rows, [](const Row&) { return std::string(); });
}

// The rows whose `figure` prints as the smallest one's (ties), in table order.
template <class Figure>
std::vector<Row> smallest(const std::vector<Row>& rows, Figure figure) {
  if (rows.empty()) return {};
  const auto best = std::min_element(
      rows.begin(), rows.end(), [&](const Row& x, const Row& y) { return figure(x) < figure(y); });
  std::vector<Row> tied;
  for (const Row& r : rows)
    if (num(figure(r)) == num(figure(*best))) tied.push_back(r);
  return tied;
}

bool below_uncertainty(const Row& r) {
  return std::isfinite(r.a->reference_uncertainty) && r.error() < r.a->reference_uncertainty;
}

// The paragraph of one scene: its rows in table order; `reference` the reference's name.
std::string scene_verdict(const std::string& scene, const std::vector<Row>& rows,
                          const std::string& reference, bool quick) {
  std::vector<std::string> sentences;
  if (quick)
    sentences.emplace_back(
        "Quick run: a check that every row runs, not a measurement; choose no method by these "
        "figures");

  const Row* ref = nullptr;
  for (const Row& r : rows)
    if (!reference.empty() && r.c->name() == reference) ref = &r;
  const bool ranked = ref != nullptr && ref->c->ran();
  std::vector<Row> ran, indistinguishable, compared, unmeasured, broken, failed;
  for (const Row& r : rows) {
    if (!r.c->ran()) {
      failed.push_back(r);
      continue;
    }
    if (r.a->broken) {
      broken.push_back(r);
      continue;
    }
    ran.push_back(r);
    if (!ranked || &r == ref || r.c->name() == reference) continue;
    if (!std::isfinite(r.error()))
      unmeasured.push_back(r);
    else if (below_uncertainty(r))
      indistinguishable.push_back(r);
    else
      compared.push_back(r);
  }

  // Accuracy.
  if (reference.empty()) {
    sentences.emplace_back("No reference was run, so the methods are not ranked by accuracy");
  } else if (ref == nullptr) {
    sentences.push_back(fmt::format(
        "The reference `{}` is not among the rows, so the methods are not ranked by accuracy",
        reference));
  } else if (!ranked) {
    sentences.push_back(
        fmt::format("The reference `{}` did not run to the end ({}), so the methods are not "
                    "ranked by accuracy",
                    reference, ref->c->failure));
  } else {
    const double u = ref->a->reference_uncertainty;
    if (!indistinguishable.empty())
      sentences.push_back(fmt::format(
          "{} {} indistinguishable from the reference `{}`: {} below the reference's own "
          "error of {} of its motion (its run at Δt against Δt/4)",
          names(indistinguishable,
                [](const Row& r) { return fmt::format(" (error {})", num(r.error())); }),
          indistinguishable.size() == 1 ? "is" : "are", reference,
          indistinguishable.size() == 1 ? "its error is" : "their errors are", num(u)));
    if (!compared.empty()) {
      const std::vector<Row> best = smallest(compared, [](const Row& r) { return r.error(); });
      sentences.push_back(fmt::format(
          "{} to the reference `{}`: {}, at an error of {} of the reference's motion{}",
          indistinguishable.empty() ? "Closest" : "Of the others, closest", reference, names(best),
          num(best.front().error()), best.size() > 1 ? " (a tie to three digits)" : ""));
      if (!std::isfinite(u))
        sentences.emplace_back(
            "The reference's own error was not checked (--no-reference-check or a quick run), "
            "so how much of that error the reference shares is unknown");
    } else if (indistinguishable.empty() && unmeasured.empty()) {
      sentences.push_back(
          fmt::format("No method but the reference `{}` ran to compare with it", reference));
    }
    if (!unmeasured.empty())
      sentences.push_back(fmt::format(
          "{} {} no error against the reference (sampled at another time step or other vertices)",
          names(unmeasured), unmeasured.size() == 1 ? "has" : "have"));
  }

  // Speed.
  if (!ran.empty()) {
    const std::vector<Row> fastest = smallest(ran, [](const Row& r) { return r.step_ms(); });
    const Row& f = fastest.front();
    const bool is_reference = ranked && fastest.size() == 1 && f.c->name() == reference;
    if (is_reference) {
      sentences.push_back(fmt::format(
          "Fastest: the reference `{}` itself, at {} ms per step (median); no method is faster",
          reference, num(f.step_ms())));
    } else {
      std::string at;
      if (ranked && f.c->name() != reference) {
        if (below_uncertainty(f))
          at = ", indistinguishable from the reference";
        else if (std::isfinite(f.error()))
          at = fmt::format(", at an error of {}", num(f.error()));
        if (ref->step_ms() > 0)
          at += fmt::format("; {}× the reference's speed ({} ms)",
                            ratio(ref->step_ms() / f.step_ms()), num(ref->step_ms()));
      }
      sentences.push_back(fmt::format("Fastest: {}, at {} ms per step (median){}{}", names(fastest),
                                      num(f.step_ms()),
                                      fastest.size() > 1 ? ", a tie to three digits" : "", at));
    }
  }

  // What gave no result.
  for (const Row& r : broken)
    sentences.push_back(fmt::format(
        "{} is broken: its domains came {} mm apart ({} % of the object's size), so its figures "
        "are no result",
        quoted(r), num(1e3 * r.c->interface_gap), num(100 * r.c->interface_gap / r.c->size)));
  for (const Row& r : failed)
    sentences.push_back(
        r.c->step_seconds.empty()
            ? fmt::format("{} could not run: {}", quoted(r), r.c->failure)
            : fmt::format("{} stopped before the end: {}", quoted(r), r.c->failure));

  std::string paragraph = fmt::format("**{}**:", scene);
  for (std::string s : sentences) {
    while (!s.empty() && (s.back() == '.' || s.back() == ' ' || s.back() == '\n')) s.pop_back();
    paragraph += " " + s + ".";
  }
  return paragraph + "\n";
}

}  // namespace

std::string bench_verdict(const BenchReport& report) {
  std::vector<std::string> scenes;
  for (const BenchCase& c : report.cases)
    if (std::find(scenes.begin(), scenes.end(), c.scene) == scenes.end()) scenes.push_back(c.scene);
  std::string out;
  for (const std::string& scene : scenes) {
    std::vector<Row> rows;
    for (std::size_t k = 0; k < report.cases.size() && k < report.accuracy.size(); ++k)
      if (report.cases[k].scene == scene) rows.push_back({&report.cases[k], &report.accuracy[k]});
    out += (out.empty() ? "" : "\n") +
           scene_verdict(scene, rows, report.reference_method, report.quick);
  }
  return out;
}

}  // namespace substruct
