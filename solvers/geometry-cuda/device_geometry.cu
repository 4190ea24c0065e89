// SPDX-License-Identifier: GPL-3.0-or-later
// geometry-cuda's device side (device_geometry.hpp): buffers, transfers and the kernels, each a
// thin loop over vertex_state.hpp's per-vertex functions.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "device_geometry.hpp"
#include "substruct/core/error.hpp"
#include "vertex_state.hpp"

namespace substruct::geometry_cuda {
namespace {

std::string describe(cudaError_t e) {
  return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("geometry-cuda: ") + what + ": " + describe(e));
}

// An array in device memory or, with kPinned, in page-locked host memory (copies from and to
// it run asynchronously at full bus speed); size 0: no allocation, a null pointer.
template <class U, bool kPinned>
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { release(); }
  void resize(std::size_t n) {
    if (n == size_) return;
    release();
    if (n > 0) {
      void** p = reinterpret_cast<void**>(&data_);
      check(kPinned ? cudaMallocHost(p, n * sizeof(U)) : cudaMalloc(p, n * sizeof(U)),
            kPinned ? "cudaMallocHost" : "cudaMalloc");
    }
    size_ = n;
  }
  void upload(const std::vector<U>& host) {
    static_assert(!kPinned);
    resize(host.size());
    if (size_ > 0)
      check(cudaMemcpy(data_, host.data(), size_ * sizeof(U), cudaMemcpyHostToDevice),
            "copying the layout to the device");
  }
  U* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  void release() {
    if (data_ != nullptr) kPinned ? cudaFreeHost(data_) : cudaFree(data_);
    data_ = nullptr;
    size_ = 0;
  }
  U* data_ = nullptr;
  std::size_t size_ = 0;
};

template <class U>
using DeviceArray = Buffer<U, false>;
template <class U>
using PinnedArray = Buffer<U, true>;

constexpr int kBlock = 256;
constexpr int kChunkVertices = 6144;
constexpr int kMaxChunks = 24;

int blocks(int n) {
  return (n + kBlock - 1) / kBlock;
}

template <class T>
__global__ void world_state_kernel(LayoutView<T> layout, StepView<T> step, T* x, T* v) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < layout.num_vertices)
    vertex_world_state(layout, step, g, x + 3 * g, v != nullptr ? v + 3 * g : nullptr);
}

template <class T>
__global__ void render_vertex_kernel(SurfaceView<T> surface, int n, const T* x, T* y) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) render_vertex(surface, x, k, y + 3 * k);
}

template <class T>
__global__ void face_normal_kernel(SurfaceView<T> surface, int n, const T* y, T* faces) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) face_normal(surface, y, t, faces + 3 * t);
}

template <class T>
__global__ void vertex_normal_kernel(SurfaceView<T> surface, int n, const T* faces, T* normals) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) vertex_normal(surface, faces, k, normals + 3 * k);
}

}  // namespace

std::string device_problem(int device) {
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    std::string why = "cudaGetDeviceCount: " + describe(e);
    if (e == cudaErrorInsufficientDriver)
      why += ": no NVIDIA driver is loaded here, or it is older than this build's CUDA " +
             std::to_string(CUDART_VERSION / 1000) + "." +
             std::to_string(CUDART_VERSION % 1000 / 10) + " needs";
    return why;
  }
  if (count == 0) return "no CUDA device is present";
  if (device < 0 || device >= count)
    return "device " + std::to_string(device) + " asked for, but there are only " +
           std::to_string(count) + " (0 to " + std::to_string(count - 1) + ")";
  cudaDeviceProp p{};
  if (const cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess)
    return "cudaGetDeviceProperties: " + describe(e);
  if (p.major < SUBSTRUCT_CUDA_MIN_MAJOR)
    return std::string(p.name) + " has compute capability " + std::to_string(p.major) + "." +
           std::to_string(p.minor) + "; this build runs on " +
           std::to_string(SUBSTRUCT_CUDA_MIN_MAJOR) +
           ".0 and newer (set CMAKE_CUDA_ARCHITECTURES to include it)";
  if (const cudaError_t e = cudaSetDevice(device); e != cudaSuccess)
    return "cudaSetDevice: " + describe(e);
  if (const cudaError_t e = cudaFree(nullptr); e != cudaSuccess)  // creates the context
    return "creating a context on " + std::string(p.name) + ": " + describe(e);
  return "";
}

double device_peak_bandwidth(int device) {
  int clock_khz = 0, bus_bits = 0;
  check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device),
        "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device),
        "cudaDeviceGetAttribute");
  return 2.0 * clock_khz * 1e3 * bus_bits / 8.0;  // double data rate
}

std::string device_description(int device) {
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  return std::string(p.name) + ", " + std::to_string(p.multiProcessorCount) +
         " SMs, compute capability " + std::to_string(p.major) + "." + std::to_string(p.minor) +
         ", " + std::to_string(static_cast<long>(device_peak_bandwidth(device) / 1e9)) +
         " GB/s peak memory bandwidth";
}

template <class T>
struct DeviceGeometry<T>::State {
  int device = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr, downloaded = nullptr;
  std::vector<int> chunk_begin;          // vertex ranges of the download's chunks
  std::vector<cudaEvent_t> chunk_ready;  // one per chunk
  // The layout.
  int num_vertices = 0, num_domains = 0, num_q = 0;
  DeviceArray<T> rest_positions, inverse_count, basis, rotation_basis, rest;
  DeviceArray<int> vertex_slot_begin, slot_domain, slot_local, source, num_local, r, warped,
      q_offset;
  DeviceArray<std::int64_t> basis_offset, rest_offset;
  DeviceArray<T> step, x, v;  // frames | q | q̇ ; outputs
  PinnedArray<T> step_host, x_host, v_host;
  // The surface.
  int num_render = 0, num_triangles = 0;
  DeviceArray<int> embedding_vertices, triangles, vertex_triangle_begin, vertex_triangles;
  DeviceArray<T> embedding_weights, render_x, y, faces, normals;
  PinnedArray<T> render_x_host, y_host, normals_host;

  LayoutView<T> layout_view() const {
    return {
        num_vertices,       rest_positions.data(), inverse_count.data(),  vertex_slot_begin.data(),
        slot_domain.data(), slot_local.data(),     source.data(),         num_local.data(),
        r.data(),           basis_offset.data(),   rest_offset.data(),    warped.data(),
        q_offset.data(),    basis.data(),          rotation_basis.data(), rest.data()};
  }
  // The update's work on `stream`: poses up, the kernel, x and v down chunk by chunk, each
  // chunk's event recorded; with `timed`, the timing events around the kernel and download.
  void enqueue(bool velocities, bool timed);
  // The untimed update, without and with velocities, as CUDA graphs (one launch per update
  // instead of some thirty calls), captured again whenever the buffers change.
  void capture_graphs();
  void release_graphs();
  cudaGraphExec_t update[2] = {nullptr, nullptr};

  SurfaceView<T> surface_view() const {
    return {embedding_vertices.data(), embedding_weights.data(), triangles.data(),
            vertex_triangle_begin.data(), vertex_triangles.data()};
  }
};

template <class T>
DeviceGeometry<T>::DeviceGeometry(int device) : state_(std::make_unique<State>()) {
  if (const std::string problem = device_problem(device); !problem.empty())
    throw Error("geometry-cuda: no usable CUDA device: " + problem);
  state_->device = device;
  check(cudaSetDevice(device), "cudaSetDevice");
  check(cudaStreamCreateWithFlags(&state_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaEventCreate(&state_->start), "cudaEventCreate");
  check(cudaEventCreate(&state_->stop), "cudaEventCreate");
  check(cudaEventCreate(&state_->downloaded), "cudaEventCreate");
}

template <class T>
DeviceGeometry<T>::~DeviceGeometry() {
  if (state_->stream != nullptr) cudaStreamSynchronize(state_->stream);
  state_->release_graphs();
  if (state_->start != nullptr) cudaEventDestroy(state_->start);
  if (state_->stop != nullptr) cudaEventDestroy(state_->stop);
  if (state_->downloaded != nullptr) cudaEventDestroy(state_->downloaded);
  for (cudaEvent_t e : state_->chunk_ready) cudaEventDestroy(e);
  if (state_->stream != nullptr) cudaStreamDestroy(state_->stream);
}

template <class T>
void DeviceGeometry<T>::set_layout(const FlatLayout<T>& layout) {
  State& s = *state_;
  check(cudaSetDevice(s.device), "cudaSetDevice");
  s.num_vertices = layout.num_vertices;
  s.num_domains = layout.num_domains();
  s.num_q = layout.num_q;
  s.rest_positions.upload(layout.rest_positions);
  s.inverse_count.upload(layout.inverse_count);
  s.vertex_slot_begin.upload(layout.vertex_slot_begin);
  s.slot_domain.upload(layout.slot_domain);
  s.slot_local.upload(layout.slot_local);
  s.source.upload(layout.source);
  s.num_local.upload(layout.num_local);
  s.r.upload(layout.r);
  s.basis_offset.upload(layout.basis_offset);
  s.rest_offset.upload(layout.rest_offset);
  s.warped.upload(layout.warped);
  s.q_offset.upload(layout.q_offset);
  s.basis.upload(layout.basis);
  s.rotation_basis.upload(layout.rotation_basis);
  s.rest.upload(layout.rest);
  const std::size_t step = std::size_t(kFrameSize) * s.num_domains + 2 * std::size_t(s.num_q);
  s.step.resize(step);
  s.step_host.resize(step);
  s.x.resize(3 * std::size_t(s.num_vertices));
  s.v.resize(3 * std::size_t(s.num_vertices));
  s.x_host.resize(3 * std::size_t(s.num_vertices));
  s.v_host.resize(3 * std::size_t(s.num_vertices));
  // Chunks of at least kChunkVertices (144 kB of x in double), at most kMaxChunks: small enough
  // that copying one out on the host overlaps the next one's transfer, few enough that each
  // transfer still runs at full bus speed.
  const int chunks =
      std::clamp((s.num_vertices + kChunkVertices - 1) / kChunkVertices, 1, kMaxChunks);
  s.chunk_begin.resize(std::size_t(chunks) + 1);
  for (int c = 0; c <= chunks; ++c)
    s.chunk_begin[std::size_t(c)] = static_cast<int>(std::int64_t(s.num_vertices) * c / chunks);
  while (s.chunk_ready.size() < std::size_t(chunks)) {
    cudaEvent_t e = nullptr;
    check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
    s.chunk_ready.push_back(e);
  }
  s.capture_graphs();
}

template <class T>
T* DeviceGeometry<T>::step_input() {
  return state_->step_host.data();
}

template <class T>
void DeviceGeometry<T>::State::enqueue(bool velocities, bool timed) {
  const std::size_t frames = std::size_t(kFrameSize) * num_domains;
  const std::size_t inputs = frames + (velocities ? 2 : 1) * std::size_t(num_q);
  if (inputs > 0)
    check(cudaMemcpyAsync(step.data(), step_host.data(), inputs * sizeof(T), cudaMemcpyHostToDevice,
                          stream),
          "copying the poses to the device");
  const StepView<T> view{step.data(), step.data() + frames,
                         velocities ? step.data() + frames + num_q : nullptr};
  if (timed) check(cudaEventRecord(start, stream), "cudaEventRecord");
  world_state_kernel<T><<<blocks(num_vertices), kBlock, 0, stream>>>(
      layout_view(), view, x.data(), velocities ? v.data() : nullptr);
  check(cudaGetLastError(), "launching the world-state kernel");
  if (timed) check(cudaEventRecord(stop, stream), "cudaEventRecord");
  for (std::size_t c = 0; c + 1 < chunk_begin.size(); ++c) {
    const std::size_t first = 3 * std::size_t(chunk_begin[c]);
    const std::size_t bytes = (3 * std::size_t(chunk_begin[c + 1]) - first) * sizeof(T);
    check(cudaMemcpyAsync(x_host.data() + first, x.data() + first, bytes, cudaMemcpyDeviceToHost,
                          stream),
          "copying the positions from the device");
    if (velocities)
      check(cudaMemcpyAsync(v_host.data() + first, v.data() + first, bytes, cudaMemcpyDeviceToHost,
                            stream),
            "copying the velocities from the device");
    // External when captured (not timed): inside the graph the record stays one the host can
    // wait for.
    check(cudaEventRecordWithFlags(chunk_ready[c], stream,
                                   timed ? cudaEventRecordDefault : cudaEventRecordExternal),
          "cudaEventRecord");
  }
  if (timed) check(cudaEventRecord(downloaded, stream), "cudaEventRecord");
}

template <class T>
void DeviceGeometry<T>::State::capture_graphs() {
  release_graphs();
  if (num_vertices == 0) return;
  for (int velocities = 0; velocities < 2; ++velocities) {
    cudaGraph_t graph = nullptr;
    check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "capturing the update");
    try {
      enqueue(velocities == 1, false);
    } catch (...) {
      if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph != nullptr)
        cudaGraphDestroy(graph);
      throw;
    }
    check(cudaStreamEndCapture(stream, &graph), "capturing the update");
    const cudaError_t e = cudaGraphInstantiate(&update[velocities], graph, 0);
    cudaGraphDestroy(graph);
    check(e, "instantiating the update's graph");
  }
}

template <class T>
void DeviceGeometry<T>::State::release_graphs() {
  for (cudaGraphExec_t& g : update) {
    if (g != nullptr) cudaGraphExecDestroy(g);
    g = nullptr;
  }
}

template <class T>
void DeviceGeometry<T>::world_state(bool velocities, bool timed) {
  State& s = *state_;
  if (s.num_vertices == 0) return;
  check(cudaSetDevice(s.device), "cudaSetDevice");  // another solver may use another GPU
  if (timed)
    s.enqueue(velocities, true);
  else
    check(cudaGraphLaunch(s.update[velocities ? 1 : 0], s.stream), "launching the update");
}

template <class T>
int DeviceGeometry<T>::chunks() const {
  return std::max(0, static_cast<int>(state_->chunk_begin.size()) - 1);
}

template <class T>
int DeviceGeometry<T>::chunk_begin(int c) const {
  return state_->chunk_begin[std::size_t(c)];
}

template <class T>
void DeviceGeometry<T>::wait_chunk(int c) const {
  check(cudaEventSynchronize(state_->chunk_ready[std::size_t(c)]), "the world-state kernel");
}

template <class T>
const T* DeviceGeometry<T>::positions_staging() const {
  return state_->x_host.data();
}

template <class T>
const T* DeviceGeometry<T>::velocities_staging() const {
  return state_->v_host.data();
}

template <class T>
const T* DeviceGeometry<T>::positions() const {
  check(cudaStreamSynchronize(state_->stream), "the world-state kernel");
  return state_->x_host.data();
}

template <class T>
const T* DeviceGeometry<T>::velocities() const {
  check(cudaStreamSynchronize(state_->stream), "the world-state kernel");
  return state_->v_host.data();
}

template <class T>
double DeviceGeometry<T>::last_kernel_ms() {
  check(cudaStreamSynchronize(state_->stream), "the world-state kernel");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, state_->start, state_->stop), "cudaEventElapsedTime");
  return ms;
}

template <class T>
double DeviceGeometry<T>::last_download_ms() {
  check(cudaStreamSynchronize(state_->stream), "the world-state kernel");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, state_->stop, state_->downloaded), "cudaEventElapsedTime");
  return ms;
}

template <class T>
void DeviceGeometry<T>::set_surface(const FlatSurface<T>& surface) {
  State& s = *state_;
  check(cudaSetDevice(s.device), "cudaSetDevice");
  s.num_render = surface.num_render;
  s.num_triangles = surface.num_triangles();
  s.embedding_vertices.upload(surface.embedding_vertices);
  s.embedding_weights.upload(surface.embedding_weights);
  s.triangles.upload(surface.triangles);
  s.vertex_triangle_begin.upload(surface.vertex_triangle_begin);
  s.vertex_triangles.upload(surface.vertex_triangles);
  s.y.resize(3 * std::size_t(s.num_render));
  s.normals.resize(3 * std::size_t(s.num_render));
  s.faces.resize(3 * std::size_t(s.num_triangles));
  s.y_host.resize(3 * std::size_t(s.num_render));
  s.normals_host.resize(3 * std::size_t(s.num_render));
}

template <class T>
T* DeviceGeometry<T>::render_input(int num_vertices) {
  State& s = *state_;
  s.render_x.resize(3 * std::size_t(num_vertices));
  s.render_x_host.resize(3 * std::size_t(num_vertices));
  return s.render_x_host.data();
}

template <class T>
void DeviceGeometry<T>::render() {
  State& s = *state_;
  if (s.num_render == 0 || s.render_x.size() == 0) return;
  check(cudaSetDevice(s.device), "cudaSetDevice");
  check(cudaMemcpyAsync(s.render_x.data(), s.render_x_host.data(), s.render_x.size() * sizeof(T),
                        cudaMemcpyHostToDevice, s.stream),
        "copying the positions to the device");
  const SurfaceView<T> view = s.surface_view();
  render_vertex_kernel<T><<<blocks(s.num_render), kBlock, 0, s.stream>>>(
      view, s.num_render, s.render_x.data(), s.y.data());
  if (s.num_triangles > 0)
    face_normal_kernel<T><<<blocks(s.num_triangles), kBlock, 0, s.stream>>>(
        view, s.num_triangles, s.y.data(), s.faces.data());
  vertex_normal_kernel<T><<<blocks(s.num_render), kBlock, 0, s.stream>>>(
      view, s.num_render, s.faces.data(), s.normals.data());
  check(cudaGetLastError(), "launching the render kernels");
  const std::size_t bytes = 3 * std::size_t(s.num_render) * sizeof(T);
  check(cudaMemcpyAsync(s.y_host.data(), s.y.data(), bytes, cudaMemcpyDeviceToHost, s.stream),
        "copying the render positions from the device");
  check(cudaMemcpyAsync(s.normals_host.data(), s.normals.data(), bytes, cudaMemcpyDeviceToHost,
                        s.stream),
        "copying the normals from the device");
  check(cudaStreamSynchronize(s.stream), "the render kernels");
}

template <class T>
const T* DeviceGeometry<T>::render_positions() const {
  return state_->y_host.data();
}

template <class T>
const T* DeviceGeometry<T>::render_normals() const {
  return state_->normals_host.data();
}

template class DeviceGeometry<double>;
template class DeviceGeometry<float>;

}  // namespace substruct::geometry_cuda
