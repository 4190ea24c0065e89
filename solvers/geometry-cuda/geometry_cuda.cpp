// SPDX-License-Identifier: GPL-3.0-or-later
// geometry-cuda: the geometry solver on a CUDA GPU (DESIGN: [solvers] geometry = cuda). The
// layout and render surface are flattened once (flatten.hpp) and copied to the device; each
// update packs the poses into pinned memory, runs one launch over all volumetric vertices
// (vertex_state.hpp: frames, instances, r = 0, modal warping, C0 averaging by gathering each
// vertex's domains in ascending order, so every run gives the same numbers) and copies x and v
// back in chunks, which a few host threads copy into the caller's arrays as each arrives. Without a
// usable device it stops with CUDA's reason, or with `fallback = cpu` runs the same per-vertex
// functions on the host (host_geometry.hpp).
#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "device_geometry.hpp"
#include "flatten.hpp"
#include "host_geometry.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/worker_pool.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/solvers/geometry_solver.hpp"

namespace substruct::geometry_cuda {
namespace {

enum class Precision { float64, float32 };
enum class Fallback { none, cpu };

// The [geometry-cuda] section.
struct CudaGeometrySettings {
  int device = 0;
  Precision precision = Precision::float64;
  Fallback fallback = Fallback::none;
  int copy_threads = 0;  // 0: one per core, at most kMaxCopyThreads
};

constexpr int kMaxCopyThreads = 8;

const OptionSet<CudaGeometrySettings>& geometry_cuda_options() {
  using S = CudaGeometrySettings;
  static const auto options =
      OptionSet<S>("geometry-cuda", "world positions and render surface on a CUDA GPU")
          .integer("device", &S::device, "", "the CUDA device to use (0 = the first)", non_negative)
          .choice("precision", &S::precision,
                  {{"double", Precision::float64}, {"float", Precision::float32}},
                  "arithmetic and device storage: double (geometry-cpu's numbers to round-off) "
                  "or float (half the memory traffic; about 1e-7 of the object's size)")
          .choice("fallback", &S::fallback, {{"none", Fallback::none}, {"cpu", Fallback::cpu}},
                  "without a usable GPU: none (stop with CUDA's reason) or cpu (warn and run "
                  "the kernels' per-vertex code on the host, one thread)")
          .integer("copy_threads", &S::copy_threads, "",
                   "host threads that copy x and v from the pinned staging buffers into the "
                   "caller's arrays, each chunk as soon as it has crossed the bus; 0 = one per "
                   "core, at most 8",
                   non_negative);
  return options;
}

const OptionTable& options() {
  return geometry_cuda_options().table();
}

// Copies `count` numbers of type T into doubles.
template <class T>
void copy_numbers(const T* from, std::size_t count, double* to) {
  if constexpr (std::is_same_v<T, double>) {
    std::memcpy(to, from, sizeof(double) * count);
  } else {
    for (std::size_t i = 0; i < count; ++i) to[i] = double(from[i]);
  }
}

// Copies 3 × rows numbers of type T into an N×3 (row-major) Points.
template <class T>
void copy_out(const T* from, Index rows, Points& to) {
  to.resize(rows, 3);
  copy_numbers(from, 3 * std::size_t(rows), to.data());
}

template <class T>
void copy_in(const Points& from, T* to) {
  const double* in = from.data();
  for (std::size_t i = 0; i < 3 * std::size_t(from.rows()); ++i) to[i] = T(in[i]);
}

template <class T>
class CudaGeometry final : public GeometrySolver {
 public:
  // `device` null: the host twin.
  CudaGeometry(std::unique_ptr<DeviceGeometry<T>> device, int copy_threads)
      : device_(std::move(device)), copy_threads_(copy_threads) {}

  void set_layout(const ReducedGeometry& layout) override {
    layout_ = flatten_layout<T>(layout);
    const std::size_t step = std::size_t(kFrameSize) * layout_.source.size() + 2 * layout_.num_q;
    if (device_) {
      device_->set_layout(layout_);
      const int threads = std::min(copy_threads_, device_->chunks());
      if (!copy_pool_ || copy_pool_->size() != std::max(1, threads))
        copy_pool_ = std::make_unique<WorkerPool>(threads);
      // The device holds the bases; the host keeps what packing a step needs.
      std::vector<T>().swap(layout_.basis);
      std::vector<T>().swap(layout_.rotation_basis);
      std::vector<T>().swap(layout_.rest);
    } else {
      host_input_.assign(step, T(0));
      if constexpr (!std::is_same_v<T, double>) {
        host_x_.resize(3 * std::size_t(layout_.num_vertices));
        host_v_.resize(3 * std::size_t(layout_.num_vertices));
      }
    }
    has_layout_ = true;
  }

  void world_state(const std::vector<DomainPose>& poses, Points& x, Points* v) override {
    if (!has_layout_) throw Error("geometry-cuda: world_state() before set_layout()");
    const bool velocities = v != nullptr;
    const Index n = layout_.num_vertices;
    if (device_) {
      // The poses packed by the copy threads too (a tree has over a thousand domains), each a
      // range of domains.
      const std::size_t domains = layout_.source.size(), parts = std::size_t(copy_pool_->size());
      T* input = device_->step_input();
      copy_pool_->run([&](int k) {
        pack_step(layout_, std::span<const DomainPose>(poses), velocities, input,
                  domains * std::size_t(k) / parts, domains * std::size_t(k + 1) / parts);
      });
      device_->world_state(velocities);
      x.resize(n, 3);
      if (velocities) v->resize(n, 3);
      copy_chunks(x, v);
      return;
    }
    pack_step(layout_, std::span<const DomainPose>(poses), velocities, host_input_.data());
    if constexpr (std::is_same_v<T, double>) {
      x.resize(n, 3);
      if (velocities) v->resize(n, 3);
      host_world_state(layout_, host_input_.data(), velocities, x.data(),
                       velocities ? v->data() : nullptr);
    } else {
      host_world_state(layout_, host_input_.data(), velocities, host_x_.data(), host_v_.data());
      copy_out(host_x_.data(), n, x);
      if (velocities) copy_out(host_v_.data(), n, *v);
    }
  }

  void set_surface(const RenderSurface& surface) override {
    surface_ = flatten_surface<T>(surface);
    max_embedded_vertex_ = surface_.embedding_vertices.empty()
                               ? -1
                               : *std::max_element(surface_.embedding_vertices.begin(),
                                                   surface_.embedding_vertices.end());
    faces_.resize(3 * std::size_t(surface_.num_triangles()));
    if (device_) device_->set_surface(surface_);
  }

  void render(const Points& x, Points& y, Points& normals) override {
    if (max_embedded_vertex_ >= x.rows())
      throw Error(
          fmt::format("geometry-cuda: the render surface is embedded on vertex {} but "
                      "render() got {} volumetric vertices",
                      max_embedded_vertex_, x.rows()));
    const Index n = surface_.num_render;
    if (device_) {
      copy_in(x, device_->render_input(static_cast<int>(x.rows())));
      device_->render();
      copy_out(device_->render_positions(), n, y);
      copy_out(device_->render_normals(), n, normals);
      return;
    }
    // The host twin: buffers kept between frames.
    render_x_.resize(3 * std::size_t(x.rows()));
    render_y_.resize(3 * std::size_t(n));
    render_n_.resize(3 * std::size_t(n));
    copy_in(x, render_x_.data());
    host_render(surface_, render_x_.data(), render_y_.data(), faces_.data(), render_n_.data());
    copy_out(render_y_.data(), n, y);
    copy_out(render_n_.data(), n, normals);
  }

 private:
  // Thread k of the copy pool takes chunks k, k + threads, …: each is copied out of the pinned
  // buffers as soon as it has arrived, while later chunks are still crossing the bus.
  void copy_chunks(Points& x, Points* v) {
    const T* xs = device_->positions_staging();
    const T* vs = device_->velocities_staging();
    const int chunks = device_->chunks(), threads = copy_pool_->size();
    copy_pool_->run([&](int k) {
      for (int c = k; c < chunks; c += threads) {
        device_->wait_chunk(c);
        const std::size_t first = 3 * std::size_t(device_->chunk_begin(c));
        const std::size_t count = 3 * std::size_t(device_->chunk_begin(c + 1)) - first;
        copy_numbers(xs + first, count, x.data() + first);
        if (v != nullptr) copy_numbers(vs + first, count, v->data() + first);
      }
    });
  }

  std::unique_ptr<DeviceGeometry<T>> device_;
  int copy_threads_ = 1;
  std::unique_ptr<WorkerPool> copy_pool_;
  FlatLayout<T> layout_;
  bool has_layout_ = false;
  std::vector<T> host_input_, host_x_, host_v_;  // the host twin's buffers
  FlatSurface<T> surface_;
  int max_embedded_vertex_ = -1;
  std::vector<T> faces_;
  std::vector<T> render_x_, render_y_, render_n_;  // the host twin's render buffers
};

template <class T>
std::unique_ptr<Component> make(const CudaGeometrySettings& settings, bool on_device) {
  if (!on_device) return std::make_unique<CudaGeometry<T>>(nullptr, 1);
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int copy_threads =
      settings.copy_threads > 0 ? settings.copy_threads : std::min(cores, kMaxCopyThreads);
  return std::make_unique<CudaGeometry<T>>(std::make_unique<DeviceGeometry<T>>(settings.device),
                                           copy_threads);
}

std::unique_ptr<Component> create(const PluginContext& context) {
  const CudaGeometrySettings settings = geometry_cuda_options().read(context.config);
  const std::string problem = device_problem(settings.device);
  if (!problem.empty() && settings.fallback == Fallback::none)
    throw Error(fmt::format(
        "geometry-cuda: no usable CUDA device: {}. Choose [solvers] geometry = cpu, or set "
        "[geometry-cuda] fallback = cpu to run its kernels on the host",
        problem));
  const char* precision = settings.precision == Precision::float64 ? "double" : "float";
  if (problem.empty())
    log::info("geometry-cuda: {}, {} precision", device_description(settings.device), precision);
  else
    log::warn(
        "geometry-cuda: no usable CUDA device ({}); running its kernels on the host, one "
        "thread (fallback = cpu)",
        problem);
  return settings.precision == Precision::float64 ? make<double>(settings, problem.empty())
                                                  : make<float>(settings, problem.empty());
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "geometry-cuda",
      PluginKind::geometry,
      SUBSTRUCT_VERSION,
      "world positions of reduced domains (C0-averaged, modal warping) and the embedded render "
      "surface with smooth normals, on a CUDA GPU",
      &options,
      &create};
  return d;
}

}  // namespace substruct::geometry_cuda

SUBSTRUCT_PLUGIN(substruct::geometry_cuda::descriptor)
