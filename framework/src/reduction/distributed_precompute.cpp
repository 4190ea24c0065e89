// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/distributed_precompute.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/interrupt.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/core/trim.hpp"

#include "detail/model_plan.hpp"

namespace substruct {

namespace {

// What the ranks tell one another, one line per fact, fields separated by tabs:
//   cache check:  "<class>\t<rank>\t<seconds>"                       (a valid cache file)
//   result:       "C\t<class>\t<seconds>\t<modes>\t<derivatives>\t<pca>\t<forces>"
//                 "F\t<class>\t<message>"                            (it failed)
//                 "I"                                                (Ctrl-C on this rank)
//                 "B\t<busy seconds>\t<files checked>"
std::vector<std::string> fields(const std::string& line) {
  return split_trimmed(line, '\t');
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out = split_trimmed(text, '\n');
  std::erase(out, std::string());
  return out;
}

/// "F\t<class>\t<message>": `what` on one line, starting with `label` ("domain 6: …").
std::string failure_line(std::size_t cls, const std::string& label, std::string what) {
  if (!what.starts_with(label + ":")) what = label + ": " + what;
  std::replace(what.begin(), what.end(), '\n', ' ');
  std::replace(what.begin(), what.end(), '\t', ' ');
  return fmt::format("F\t{}\t{}", cls, what);
}

/// A model's estimated cost in units of one tet × one mode²: the basis, the modal derivatives and
/// the polynomial grow about as tets × r² over the sizes of generated trees (fitted to 1,441
/// models from r = 8, 36 tets to r = 20, 3,840 tets: 16 % mean error, against 20 % for tets × r),
/// plus a fixed cost per model, mostly writing its file (about 1.5 ms, or 10,000 such units).
double estimated_cost(Index tets, int r) {
  return double(tets) * r * r + 1e4;
}

struct Computed {
  int rank = 0;
  double seconds = 0, modes = 0, derivatives = 0, pca = 0, forces = 0;
};

/// "C\t<class>\t<seconds>\t<modes>\t<derivatives>\t<pca>\t<forces>" of a model computed in
/// `seconds`, and back (the fields of such a line, computed by `rank`).
std::string computed_line(std::size_t cls, double seconds, const ReducedModel& model) {
  const ReducedBasis& b = model.basis;
  return fmt::format("C\t{}\t{:.9g}\t{:.9g}\t{:.9g}\t{:.9g}\t{:.9g}", cls, seconds,
                     b.seconds_assembly + b.seconds_linear_modes, b.seconds_derivatives,
                     b.seconds_pca, model.seconds_force_model);
}

Computed parse_computed(const std::vector<std::string>& f, int rank) {
  return Computed{rank,
                  std::stod(f.at(2)),
                  std::stod(f.at(3)),
                  std::stod(f.at(4)),
                  std::stod(f.at(5)),
                  std::stod(f.at(6))};
}

struct Failure {
  int rank = 0;
  std::string message;
};

}  // namespace

DistributedPrecompute precompute_distributed(const std::vector<ModelRequest>& requests,
                                             MaterialModel material,
                                             const ReductionSettings& settings,
                                             const SolverProvider& solvers, const ModelCache& cache,
                                             ProcessGroup& group) {
  const auto start = Clock::now();
  if (!settings.cache || !cache.enabled())
    throw Error(
        "a precompute shared over the ranks of an MPI job keeps its models in the model cache: "
        "set [reduction] cache = true (and [run] cache_dir to a folder every rank can write)");
  const int rank = group.rank(), ranks = group.size();
  const detail::ModelPlan plan = detail::plan_models(requests, material, settings);
  const std::vector<InstanceClass>& classes = plan.classes;
  const auto rep_of = [&](std::size_t c) { return std::size_t(classes[c].representative()); };
  double busy = 0;
  int checked = 0;

  // 1. The cache: each rank reads a share of the deformable representatives' files in full.
  std::vector<std::size_t> deformable;
  for (std::size_t c = 0; c < classes.size(); ++c)
    if (plan.r[rep_of(c)] > 0) deformable.push_back(c);
  std::string found;
  for (std::size_t k = std::size_t(rank); k < deformable.size(); k += std::size_t(ranks)) {
    const std::size_t i = rep_of(deformable[k]);
    const auto t0 = Clock::now();
    bool valid = false;
    try {  // nothing may leave a rank before the collective steps below (the others would wait)
      valid = cache.load(plan.hashes[i], requests[i].mesh).has_value();
    } catch (const std::exception& e) {
      log::warn("cache: cannot check the model of domain {}: {}; recomputing", requests[i].domain,
                e.what());
    }
    const double s = seconds_since(t0);
    busy += s;
    ++checked;
    if (valid) found += fmt::format("{}\t{}\t{:.9g}\n", deformable[k], rank, s);
  }
  std::vector<std::optional<std::pair<int, double>>> cached(classes.size());
  for (const std::string& text : group.all_gather(found))
    for (const std::string& line : lines(text)) {
      const std::vector<std::string> f = fields(line);
      cached.at(std::stoul(f.at(0))) = std::make_pair(std::stoi(f.at(1)), std::stod(f.at(2)));
    }

  // 2. The rest shared out by estimated cost: the longest first, each to the least loaded rank
  //    (the lowest on ties), so that every rank makes the same assignment.
  struct Work {
    std::size_t cls;
    double cost;
  };
  std::vector<Work> work;
  std::size_t large_missing = 0;
  for (std::size_t c : deformable)
    if (!cached[c] && plan.large[rep_of(c)])
      ++large_missing;
    else if (!cached[c])
      work.push_back(
          {c, estimated_cost(requests[rep_of(c)].mesh->num_elements(), plan.r[rep_of(c)])});
  std::stable_sort(work.begin(), work.end(),
                   [](const Work& a, const Work& b) { return a.cost > b.cost; });
  DistributedPrecompute out;
  out.ranks.resize(std::size_t(ranks));
  std::vector<std::vector<std::size_t>> assigned(static_cast<std::size_t>(ranks));
  for (const Work& w : work) {
    std::size_t j = 0;
    for (std::size_t k = 1; k < out.ranks.size(); ++k)
      if (out.ranks[k].cost < out.ranks[j].cost) j = k;
    out.ranks[j].cost += w.cost;
    out.ranks[j].tets += requests[rep_of(w.cls)].mesh->num_elements();
    assigned[j].push_back(w.cls);
  }

  // 2b. The large domains (settings.shared_solve_dofs), one after another by every rank together:
  //     the eigen solve, the modal derivatives and the polynomial's terms are shared over the
  //     ranks, and rank 0 stores the model. Every rank learns at once whether it worked.
  std::vector<std::optional<Computed>> computed(classes.size());
  std::vector<std::pair<std::size_t, Failure>> failures;
  bool any_interrupted = false, stopped = false;
  int interrupted_by = 0;  // the signal that interrupted this rank
  SolverProvider shared_solvers = solvers;
  shared_solvers.set_shared_solves(true);
  shared_solvers.set_shared_work(&group);  // the modal derivatives and polynomial too
  for (std::size_t c : deformable) {
    const std::size_t i = rep_of(c);
    if (cached[c] || !plan.large[i] || stopped) continue;
    const ModelRequest& q = requests[i];
    const std::string label = fmt::format("domain {}", q.domain);
    const auto t0 = Clock::now();
    std::string status;
    try {
      const ReducedModel model = compute_reduced_model(*q.mesh, material, q.boundary, plan.r[i],
                                                       settings, shared_solvers, label);
      if (rank == 0) cache.store(plan.hashes[i], model);
      status = computed_line(c, seconds_since(t0), model);
      log::info("domain {}: {} by all {} ranks, cached", q.domain,
                detail::computed_summary(model, seconds_since(t0)), ranks);
    } catch (const Interrupted& e) {
      status.assign(1, 'I');  // (not = "I": a GCC 12 -Wrestrict false positive)
      interrupted_by = e.signal();
    } catch (const std::exception& e) {
      status = failure_line(c, label, e.what());
    }
    busy += seconds_since(t0);
    const std::vector<std::string> statuses = group.all_gather(status);
    for (int k = 0; k < ranks; ++k) {
      const std::vector<std::string> f = fields(statuses[std::size_t(k)]);
      if (f.at(0) == "C" && k == 0) {
        computed[c] = parse_computed(f, kAllRanks);
      } else if (f.at(0) == "F") {
        failures.push_back({c, Failure{k, f.size() > 2 ? f[2] : ""}});
        stopped = true;
      } else if (f.at(0) == "I") {
        any_interrupted = stopped = true;
      }
    }
  }

  // 3. This rank's share, each model stored as soon as it is computed.
  const std::vector<std::size_t>& mine = assigned[std::size_t(rank)];
  std::string report;
  Progress progress(fmt::format("reduced models (rank {} of {})", rank, ranks),
                    std::size_t(out.ranks[std::size_t(rank)].tets));
  for (std::size_t c : mine) {
    if (stopped || group.stop_raised()) break;
    const std::size_t i = rep_of(c);
    const ModelRequest& q = requests[i];
    const std::string label = fmt::format("domain {}", q.domain);
    const auto t0 = Clock::now();
    try {
      const ReducedModel model =
          compute_reduced_model(*q.mesh, material, q.boundary, plan.r[i], settings, solvers, label);
      const auto file = cache.store(plan.hashes[i], model);
      const double s = seconds_since(t0);
      busy += s;
      report += computed_line(c, s, model) + "\n";
      log::info("domain {}: {}, cached ({}), rank {}", q.domain, detail::computed_summary(model, s),
                file.string(), rank);
    } catch (const Interrupted& e) {
      busy += seconds_since(t0);
      report += "I\n";
      interrupted_by = e.signal();
      stopped = true;
      group.raise_stop();
    } catch (const std::exception& e) {  // an Error, or anything else: reported to every rank
      busy += seconds_since(t0);
      report += failure_line(c, label, e.what()) + "\n";
      stopped = true;
      group.raise_stop();
    }
    progress.advance(std::size_t(q.mesh->num_elements()));
  }
  progress.finish();
  report += fmt::format("B\t{:.9g}\t{}\n", busy, checked);

  // 4. What every rank did.
  const std::vector<std::string> reports = group.all_gather(report);
  for (int k = 0; k < ranks; ++k)
    for (const std::string& line : lines(reports[std::size_t(k)])) {
      const std::vector<std::string> f = fields(line);
      RankShare& share = out.ranks[std::size_t(k)];
      share.rank = k;
      if (f.at(0) == "C") {
        computed.at(std::stoul(f.at(1))) = parse_computed(f, k);
        ++share.computed;
      } else if (f.at(0) == "F") {
        failures.push_back({std::stoul(f.at(1)), Failure{k, f.size() > 2 ? f[2] : ""}});
      } else if (f.at(0) == "I") {
        any_interrupted = true;
      } else if (f.at(0) == "B") {
        share.busy_seconds = std::stod(f.at(1));
        share.checked = std::stoi(f.at(2));
      }
    }
  if (interrupted_by != 0) throw Interrupted(interrupted_by);
  int stored = 0;
  for (const auto& c : computed) stored += c.has_value();
  const std::size_t to_compute = work.size() + large_missing;
  const std::string resume =
      stored == 0 ? fmt::format("the job stopped before any of the {} models to compute was stored",
                                to_compute)
                  : fmt::format(
                        "the job stopped: {} of the {} models to compute were computed and cached "
                        "before it stopped; a rerun loads them and computes the other {}",
                        stored, to_compute, to_compute - std::size_t(stored));
  if (!failures.empty()) {
    std::string message = fmt::format("{} (on rank {}); {}", failures.front().second.message,
                                      failures.front().second.rank, resume);
    for (std::size_t k = 1; k < failures.size(); ++k)
      message += fmt::format("; also {} (on rank {})", failures[k].second.message,
                             failures[k].second.rank);
    throw Error(message);
  }
  if (any_interrupted)
    throw Error(fmt::format("another rank was interrupted (Ctrl-C); {}", resume));

  // 5. Every domain's record, in request order.
  out.domains.resize(requests.size());
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const std::size_t ri = rep_of(c);
    DistributedModelRecord& rec = out.domains[ri];
    rec.domain = rec.representative = requests[ri].domain;
    rec.r = plan.r[ri];
    rec.tets = requests[ri].mesh->num_elements();
    if (rec.r == 0) {
      rec.origin = ModelOrigin::rigid;
    } else if (cached[c]) {
      rec.origin = ModelOrigin::cache;
      rec.rank = cached[c]->first;
      rec.seconds = cached[c]->second;
    } else {
      const Computed& k = computed[c].value();
      rec.origin = ModelOrigin::computed;
      rec.rank = k.rank;
      rec.seconds = k.seconds;
      rec.modes = k.modes;
      rec.derivatives = k.derivatives;
      rec.pca = k.pca;
      rec.forces = k.forces;
    }
    for (std::size_t m = 1; m < classes[c].members.size(); ++m) {
      const auto ii = std::size_t(classes[c].members[m].domain);
      DistributedModelRecord& instance = out.domains[ii];
      instance.domain = requests[ii].domain;
      instance.representative = rec.domain;
      instance.origin = rec.r == 0 ? ModelOrigin::rigid : ModelOrigin::instance;
      instance.r = plan.r[ii];
      instance.tets = requests[ii].mesh->num_elements();
    }
  }
  out.seconds = seconds_since(start);
  return out;
}

}  // namespace substruct
