// geometry-cpu: the geometry solver on the CPU. World positions and velocities come from the
// framework's one kernel (geometry/reduced_geometry.hpp, modal warping included where a domain
// has a Ψ), split over `threads` threads by domains (each thread sums into its own buffer; the
// sums are added and averaged); the render surface is the embedding applied to the volumetric
// positions, with area-weighted normals.
#include <algorithm>
#include <memory>
#include <thread>
#include <vector>

#include "substruct/config/config.hpp"
#include "substruct/config/options.hpp"
#include "substruct/core/error.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/geometry/render_surface.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/solvers/geometry_solver.hpp"

namespace substruct::geometry_cpu {
namespace {

// The [geometry-cpu] section.
struct CpuGeometrySettings {
  int threads = 1;  // 0: one per core
};

const OptionSet<CpuGeometrySettings>& geometry_cpu_options() {
  static const auto options =
      OptionSet<CpuGeometrySettings>("geometry-cpu",
                                     "world positions and render surface on the CPU")
          .integer("threads", &CpuGeometrySettings::threads, "",
                   "threads for the reduced world positions (split by domains); 0 = one per core",
                   non_negative);
  return options;
}

const OptionTable& options() {
  return geometry_cpu_options().table();
}

class CpuGeometry final : public GeometrySolver {
 public:
  explicit CpuGeometry(int threads) : threads_(threads) {}

  void set_layout(const ReducedGeometry& layout) override {
    layout_ = layout;
    if (layout_.inverse_count.size() != layout_.num_vertices()) layout_.finalize();
    // Domain ranges of about equal work (Σ n (3 r + 10) per domain, twice the products and
    // about 60 more per vertex with modal warping) per thread.
    const std::size_t d = layout_.domains.size();
    const auto threads = static_cast<std::size_t>(std::max(1, std::min<int>(threads_, int(d))));
    std::vector<double> work(d);
    double total = 0;
    for (std::size_t i = 0; i < d; ++i) {
      const DomainLayout& dom = layout_.domains[i];
      const bool warped = layout_.source(i).Psi.cols() > 0;
      work[i] = double(dom.global_vertex.size()) *
                (warped ? 6.0 * double(layout_.r(i)) + 70.0 : 3.0 * double(layout_.r(i)) + 10.0);
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
    partial_x_.assign(bounds_.size() - 1, Points());
    partial_v_.assign(bounds_.size() - 1, Points());
  }

  void world_state(const std::vector<DomainPose>& poses, Points& x, Points* v) override {
    if (bounds_.empty()) throw Error("geometry-cpu: world_state() before set_layout()");
    const Index n = layout_.num_vertices();
    const std::size_t parts = bounds_.size() - 1;
    x = Points::Zero(n, 3);
    if (v != nullptr) *v = Points::Zero(n, 3);
    if (parts <= 1) {
      accumulate_domain_states(layout_, poses, 0, layout_.domains.size(), &x, v);
    } else {
      std::vector<std::jthread> workers;
      for (std::size_t k = 1; k < parts; ++k)
        workers.emplace_back([&, k] { accumulate_part(poses, k, v != nullptr); });
      accumulate_domain_states(layout_, poses, bounds_[0], bounds_[1], &x, v);
      workers.clear();  // joins
      for (std::size_t k = 1; k < parts; ++k) {
        x += partial_x_[k];
        if (v != nullptr) *v += partial_v_[k];
      }
    }
    finish_average(layout_, &x, v);
  }

  void set_surface(const RenderSurface& surface) override { surface_ = surface; }

  void render(const Points& x, Points& y, Points& normals) override {
    embedded_positions(surface_.embedding, x, y);
    vertex_normals(y, surface_.triangles, normals);
  }

 private:
  void accumulate_part(const std::vector<DomainPose>& poses, std::size_t k, bool velocities) {
    const Index n = layout_.num_vertices();
    partial_x_[k] = Points::Zero(n, 3);
    if (velocities) partial_v_[k] = Points::Zero(n, 3);
    accumulate_domain_states(layout_, poses, bounds_[k], bounds_[k + 1], &partial_x_[k],
                             velocities ? &partial_v_[k] : nullptr);
  }

  int threads_;
  ReducedGeometry layout_;
  std::vector<std::size_t> bounds_;  // thread k does domains [bounds_[k], bounds_[k+1])
  std::vector<Points> partial_x_, partial_v_;
  RenderSurface surface_;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  int threads = geometry_cpu_options().read(context.config).threads;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
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
