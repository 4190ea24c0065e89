// SPDX-License-Identifier: GPL-3.0-or-later
#include "host_geometry.hpp"

namespace substruct::geometry_cuda {

template <class T>
LayoutView<T> host_view(const FlatLayout<T>& f) {
  return {f.num_vertices,
          f.rest_positions.data(),
          f.inverse_count.data(),
          f.vertex_slot_begin.data(),
          f.slot_domain.data(),
          f.slot_local.data(),
          f.source.data(),
          f.num_local.data(),
          f.r.data(),
          f.basis_offset.data(),
          f.rest_offset.data(),
          f.warped.data(),
          f.q_offset.data(),
          f.basis.data(),
          f.rotation_basis.data(),
          f.rest.data()};
}

template <class T>
SurfaceView<T> host_view(const FlatSurface<T>& s) {
  return {s.embedding_vertices.data(), s.embedding_weights.data(), s.triangles.data(),
          s.vertex_triangle_begin.data(), s.vertex_triangles.data()};
}

template <class T>
void host_world_state(const FlatLayout<T>& layout, const T* step_input, bool velocities, T* x,
                      T* v) {
  const LayoutView<T> view = host_view(layout);
  const T* q = step_input + std::size_t(kFrameSize) * layout.source.size();
  const StepView<T> step{step_input, q, velocities ? q + layout.num_q : nullptr};
  for (int g = 0; g < layout.num_vertices; ++g)
    vertex_world_state(view, step, g, x + 3 * std::size_t(g),
                       velocities ? v + 3 * std::size_t(g) : nullptr);
}

template <class T>
void host_render(const FlatSurface<T>& surface, const T* x, T* y, T* faces, T* normals) {
  const SurfaceView<T> view = host_view(surface);
  for (int k = 0; k < surface.num_render; ++k) render_vertex(view, x, k, y + 3 * std::size_t(k));
  for (int t = 0; t < surface.num_triangles(); ++t)
    face_normal(view, y, t, faces + 3 * std::size_t(t));
  for (int k = 0; k < surface.num_render; ++k)
    vertex_normal(view, faces, k, normals + 3 * std::size_t(k));
}

template LayoutView<double> host_view(const FlatLayout<double>&);
template LayoutView<float> host_view(const FlatLayout<float>&);
template SurfaceView<double> host_view(const FlatSurface<double>&);
template SurfaceView<float> host_view(const FlatSurface<float>&);
template void host_world_state(const FlatLayout<double>&, const double*, bool, double*, double*);
template void host_world_state(const FlatLayout<float>&, const float*, bool, float*, float*);
template void host_render(const FlatSurface<double>&, const double*, double*, double*, double*);
template void host_render(const FlatSurface<float>&, const float*, float*, float*, float*);

}  // namespace substruct::geometry_cuda
