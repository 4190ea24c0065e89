// geometry-cuda: the geometry solver on a CUDA GPU (DESIGN: [solvers] geometry = cuda). The
// layout and render surface are flattened once (flatten.hpp) and copied to the device; each
// update packs the poses into pinned memory, runs one launch over all volumetric vertices
// (vertex_state.hpp: frames, instances, r = 0, modal warping, C0 averaging by gathering each
// vertex's domains in ascending order, so every run gives the same numbers) and copies x and v
// back. Without a usable device it stops with CUDA's reason, or with `fallback = cpu` runs the
// same per-vertex functions on the host (host_geometry.hpp).
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "device_geometry.hpp"
#include "flatten.hpp"
#include "host_geometry.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/options.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
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
};

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
                  "the kernels' per-vertex code on the host, one thread)");
  return options;
}

const OptionTable& options() {
  return geometry_cuda_options().table();
}

// Copies 3 × rows numbers of type T into an N×3 (row-major) Points.
template <class T>
void copy_out(const T* from, Index rows, Points& to) {
  to.resize(rows, 3);
  if constexpr (std::is_same_v<T, double>) {
    std::memcpy(to.data(), from, sizeof(double) * 3 * std::size_t(rows));
  } else {
    double* out = to.data();
    for (std::size_t i = 0; i < 3 * std::size_t(rows); ++i) out[i] = double(from[i]);
  }
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
  explicit CudaGeometry(std::unique_ptr<DeviceGeometry<T>> device) : device_(std::move(device)) {}

  void set_layout(const ReducedGeometry& layout) override {
    layout_ = flatten_layout<T>(layout);
    const std::size_t step = std::size_t(kFrameSize) * layout_.source.size() + 2 * layout_.num_q;
    if (device_) {
      device_->set_layout(layout_);
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
      pack_step(layout_, std::span<const DomainPose>(poses), velocities, device_->step_input());
      device_->world_state(velocities);
      copy_out(device_->positions(), n, x);
      if (velocities) copy_out(device_->velocities(), n, *v);
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
  std::unique_ptr<DeviceGeometry<T>> device_;
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
  if (!on_device) return std::make_unique<CudaGeometry<T>>(nullptr);
  return std::make_unique<CudaGeometry<T>>(std::make_unique<DeviceGeometry<T>>(settings.device));
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
