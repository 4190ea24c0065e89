// SPDX-License-Identifier: GPL-3.0-or-later
// geometry-cpu: the geometry solver on the CPU. World positions and velocities come from the
// framework's one kernel (geometry/reduced_geometry.hpp, modal warping included where a domain
// has a Ψ). Each thread first computes the values of a range of domains (split by work): a
// vertex covered by one domain is written straight to the output, the others to one row per
// (domain, vertex); then, after all have, each averages a range of those shared vertices by
// summing each one's rows in ascending domain order: the same numbers, bit for bit, on any number
// of threads, and no buffer of all vertices to fill and read back. The parts run on oneTBB's
// threads (core/parallel_tasks.hpp), the same ones the step's loops use: no pool of its own
// spinning or sleeping against them between a step and its world positions. The render surface is
// the embedding applied to the volumetric positions, with area-weighted normals.
#include <algorithm>
#include <exception>
#include <memory>
#include <vector>

#include "substruct/config/config.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/parallel_tasks.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/geometry/render_surface.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/solvers/geometry_solver.hpp"

namespace substruct::geometry_cpu {
namespace {

// The [geometry-cpu] section.
struct CpuGeometrySettings {
  int threads = 0;  // 0: [run] threads
};

const OptionSet<CpuGeometrySettings>& geometry_cpu_options() {
  static const auto options =
      OptionSet<CpuGeometrySettings>("geometry-cpu",
                                     "world positions and render surface on the CPU")
          .integer(
              "threads", &CpuGeometrySettings::threads, "",
              "threads for the reduced world positions (split by domains, then by vertices: the "
              "same numbers on any count); 0 = as many as [run] threads",
              non_negative);
  return options;
}

const OptionTable& options() {
  return geometry_cpu_options().table();
}

class CpuGeometry final : public GeometrySolver {
 public:
  explicit CpuGeometry(int threads) : threads_(threads) {}

  void set_layout(const ReducedGeometry& given) override {
    // The method's layout, read in place (a copy would hold every rest shape and basis twice);
    // one that was not finalized is finalized in a copy of its own.
    finalized_.reset();
    if (given.inverse_count.size() != given.num_vertices()) {
      finalized_ = std::make_unique<ReducedGeometry>(given);
      finalized_->finalize();
    }
    layout_ = finalized_ ? finalized_.get() : &given;
    // Domain ranges of about equal work (Σ n (3 r + 10) per domain, twice the products and
    // about 60 more per vertex with modal warping) per thread.
    const std::size_t d = layout().domains.size();
    const auto threads = static_cast<std::size_t>(std::max(1, std::min<int>(threads_, int(d))));
    std::vector<double> work(d);
    double total = 0;
    for (std::size_t i = 0; i < d; ++i) {
      const DomainLayout& dom = layout().domains[i];
      const bool warped = layout().source(i).Psi.cols() > 0;
      work[i] = double(dom.global_vertex.size()) *
                (warped ? 6.0 * double(layout().r(i)) + 70.0 : 3.0 * double(layout().r(i)) + 10.0);
      total += work[i];
    }
    bounds_ = {0};
    double done = 0;
    for (std::size_t i = 0; i < d; ++i) {
      done += work[i];
      if (bounds_.size() < threads && done >= total * double(bounds_.size()) / double(threads))
        bounds_.push_back(i + 1);
    }
    if (bounds_.back() != d) bounds_.push_back(d);
    // Where each (domain, vertex) value goes: a vertex covered by one domain straight into the
    // output; the others to a row of their own, each such vertex's rows in ascending domain order.
    const Index n = layout().num_vertices();
    std::vector<int> count(std::size_t(n), 0);
    for (const DomainLayout& dom : layout().domains)
      for (Index g : dom.global_vertex) ++count[std::size_t(g)];
    shared_.clear();
    uncovered_.clear();
    std::vector<Index> begin(std::size_t(n) + 1, 0);  // of each shared vertex's rows
    for (Index g = 0; g < n; ++g) {
      if (count[std::size_t(g)] == 0) uncovered_.push_back(g);
      if (count[std::size_t(g)] > 1) shared_.push_back(g);
      begin[std::size_t(g) + 1] =
          begin[std::size_t(g)] + (count[std::size_t(g)] > 1 ? count[std::size_t(g)] : 0);
    }
    first_row_.assign(d, 0);
    Index occurrences = 0;
    for (std::size_t i = 0; i < d; ++i) {
      first_row_[i] = occurrences;
      occurrences += static_cast<Index>(layout().domains[i].global_vertex.size());
    }
    shared_row_begin_.resize(shared_.size() + 1);
    for (std::size_t k = 0; k < shared_.size(); ++k)
      shared_row_begin_[k] = begin[std::size_t(shared_[k])];
    shared_row_begin_[shared_.size()] = begin[std::size_t(n)];
    target_.assign(std::size_t(occurrences), -1);
    for (std::size_t i = 0; i < d; ++i) {  // rows in ascending domain order
      const std::vector<Index>& ids = layout().domains[i].global_vertex;
      for (std::size_t l = 0; l < ids.size(); ++l)
        if (count[std::size_t(ids[l])] > 1)
          target_[std::size_t(first_row_[i]) + l] = begin[std::size_t(ids[l])]++;
    }
    rows_x_.resize(shared_row_begin_[shared_.size()], 3);
    rows_v_.resize(rows_x_.rows(), 3);
    tasks_.reset();
    if (bounds_.size() > 2)
      tasks_ = std::make_unique<ParallelTasks>(static_cast<int>(bounds_.size() - 1));
  }

  void world_state(const std::vector<DomainPose>& poses, Points& x, Points* v) override {
    if (bounds_.empty()) throw Error("geometry-cpu: world_state() before set_layout()");
    const Index n = layout().num_vertices();
    const std::size_t parts = bounds_.size() - 1;
    x.resize(n, 3);
    if (v != nullptr) v->resize(n, 3);
    Points* v_rows = v != nullptr ? &rows_v_ : nullptr;
    if (parts <= 1) {
      route_domain_states(layout(), poses, 0, layout().domains.size(), first_row_, target_, &x, v,
                          &rows_x_, v_rows);
      average_shared(0, 1, x, v);
      return;
    }
    // Each part's error (a pose of the wrong size); the lowest part's is reported, as one thread
    // would have.
    std::vector<std::exception_ptr> failures(parts);
    tasks_->for_each(parts, [&](std::size_t k) {
      try {
        route_domain_states(layout(), poses, bounds_[k], bounds_[k + 1], first_row_, target_, &x, v,
                            &rows_x_, v_rows);
      } catch (...) {
        failures[k] = std::current_exception();
      }
    });
    for (const std::exception_ptr& f : failures)
      if (f) std::rethrow_exception(f);
    tasks_->for_each(parts, [&](std::size_t k) { average_shared(k, parts, x, v); });
  }

  void set_surface(const RenderSurface& surface) override { surface_ = surface; }

  void render(const Points& x, Points& y, Points& normals) override {
    embedded_positions(surface_.embedding, x, y);
    vertex_normals(y, surface_.triangles, normals);
  }

 private:
  // Part k of `parts` of the vertices covered by several domains: their rows summed in
  // ascending domain order from zero, averaged; and of those no domain covers: rest, at rest.
  void average_shared(std::size_t k, std::size_t parts, Points& x, Points* v) const {
    const auto split = [&](std::size_t size, std::size_t i) { return size * i / parts; };
    for (std::size_t s = split(shared_.size(), k); s < split(shared_.size(), k + 1); ++s) {
      const Index g = shared_[s];
      Vec3 xs = Vec3::Zero(), vs = Vec3::Zero();
      for (Index row = shared_row_begin_[s]; row < shared_row_begin_[s + 1]; ++row) {
        xs += rows_x_.row(row).transpose();
        if (v != nullptr) vs += rows_v_.row(row).transpose();
      }
      const double w = layout().inverse_count[g];
      x.row(g) = (xs * w).transpose();
      if (v != nullptr) v->row(g) = (vs * w).transpose();
    }
    for (std::size_t u = split(uncovered_.size(), k); u < split(uncovered_.size(), k + 1); ++u) {
      const Index g = uncovered_[u];
      x.row(g) = layout().rest_positions.row(g);
      if (v != nullptr) v->row(g).setZero();
    }
  }

  const ReducedGeometry& layout() const { return *layout_; }

  int threads_;
  const ReducedGeometry* layout_ = nullptr;     // the method's (or finalized_)
  std::unique_ptr<ReducedGeometry> finalized_;  // a copy, only of a layout not finalized
  std::unique_ptr<ParallelTasks> tasks_;        // the parts' threads (oneTBB's, as the step's)
  std::vector<std::size_t> bounds_;             // thread k does domains [bounds_[k], bounds_[k+1])
  std::vector<Index> first_row_;  // domain d's vertex l is occurrence first_row_[d] + l
  std::vector<Index> target_;     // per occurrence: −1 (straight to the output) or its row
  std::vector<Index> shared_, shared_row_begin_;  // vertices of several domains, their rows
  std::vector<Index> uncovered_;                  // vertices of no domain
  Points rows_x_, rows_v_;
  RenderSurface surface_;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  int threads = geometry_cpu_options().read(context.config).threads;
  if (threads == 0) threads = run_threads(context.config);
  return std::make_unique<CpuGeometry>(threads);
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "geometry-cpu",
      PluginKind::geometry,
      SUBSTRUCT_VERSION,
      "world positions of reduced domains (C0-averaged) and the embedded render surface with "
      "smooth normals, on the CPU",
      &options,
      &create};
  return d;
}

}  // namespace substruct::geometry_cpu

SUBSTRUCT_PLUGIN(substruct::geometry_cpu::descriptor)
