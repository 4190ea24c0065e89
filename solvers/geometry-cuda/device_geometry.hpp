// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CUDA side of geometry-cuda: the flat layout and surface (flat_geometry.hpp) in device
// buffers allocated once, and per update one flattened launch over all volumetric vertices
// (vertex_world_state) whose results come back in chunks, then for the render surface one launch
// per stage (embedding, face normals, vertex normals). Inputs go up and results come down through
// pinned host buffers on one stream. Failures throw substruct::Error quoting the CUDA error.
//
// Compiled by nvcc: no Eigen here (flatten.hpp turns the framework's types into the flat form).
#include <memory>
#include <string>

#include "flat_geometry.hpp"

namespace substruct::geometry_cuda {

/// Empty when CUDA device `device` can run the kernels; otherwise why not, quoting CUDA's error
/// ("no CUDA-capable device is detected (cudaErrorNoDevice)", an old driver, ...).
std::string device_problem(int device);

/// "NVIDIA H100 80GB HBM3, 132 SMs, compute capability 9.0, 3352 GB/s peak memory bandwidth".
std::string device_description(int device);

/// Peak memory bandwidth of the device in bytes per second (from its memory clock and bus).
double device_peak_bandwidth(int device);

template <class T>
class DeviceGeometry {
 public:
  /// Selects `device`; throws Error if it is not usable (device_problem()).
  explicit DeviceGeometry(int device);
  ~DeviceGeometry();
  DeviceGeometry(const DeviceGeometry&) = delete;
  DeviceGeometry& operator=(const DeviceGeometry&) = delete;

  /// Copies the layout to the device and sizes the staging buffers.
  void set_layout(const FlatLayout<T>& layout);
  /// The pinned input of the next update: kFrameSize × domains frames, then q, then q̇ (see
  /// FlatLayout::q_offset). Valid after set_layout().
  T* step_input();
  /// Uploads the step input, runs the kernel and starts downloading x (and v when
  /// `velocities`) into the pinned outputs (3N each), chunk after chunk of vertices, each chunk's
  /// x and v together; returns without waiting. Replays a CUDA graph captured at set_layout();
  /// `timed` enqueues the same work directly, with the events last_kernel_ms() and
  /// last_download_ms() read.
  void world_state(bool velocities, bool timed = false);
  /// The download's chunks: chunk c holds vertices [chunk_begin(c), chunk_begin(c + 1)).
  int chunks() const;
  int chunk_begin(int c) const;
  /// Waits until chunk c of the last world_state() is in the pinned outputs (any thread may
  /// wait for any chunk: the caller copies chunks out while later ones are still on the bus).
  void wait_chunk(int c) const;
  /// The pinned outputs, for reading chunk by chunk after wait_chunk().
  const T* positions_staging() const;
  const T* velocities_staging() const;
  /// x, once all of it has arrived.
  const T* positions() const;
  /// v, once all of it has arrived (after a world_state(true)).
  const T* velocities() const;

  /// Copies the surface to the device.
  void set_surface(const FlatSurface<T>& surface);
  /// The pinned input of render(): the positions of `num_vertices` volumetric vertices, 3 each.
  T* render_input(int num_vertices);
  /// Render positions and normals (3 per render vertex each) of the render input.
  void render();
  const T* render_positions() const;
  const T* render_normals() const;

  /// Milliseconds the last timed world_state()'s kernel ran on the device (no transfers).
  double last_kernel_ms();
  /// Milliseconds the last timed world_state()'s results took to cross the bus after the kernel.
  double last_download_ms();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

extern template class DeviceGeometry<double>;
extern template class DeviceGeometry<float>;

}  // namespace substruct::geometry_cuda
