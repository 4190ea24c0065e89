// SPDX-License-Identifier: GPL-3.0-or-later
#include "flatten.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <Eigen/Geometry>

#include "substruct/core/error.hpp"

namespace substruct::geometry_cuda {

template <class T>
FlatLayout<T> flatten_layout(const ReducedGeometry& input) {
  const ReducedGeometry* geometry = &input;
  ReducedGeometry finalized;
  if (input.inverse_count.size() != input.num_vertices()) {
    finalized = input;
    finalized.finalize();
    geometry = &finalized;
  }
  const ReducedGeometry& g = *geometry;
  FlatLayout<T> f;
  const Index n = g.num_vertices();
  const auto domains = g.domains.size();
  f.num_vertices = static_cast<int>(n);
  f.rest_positions.resize(3 * std::size_t(n));
  f.inverse_count.resize(std::size_t(n));
  for (Index v = 0; v < n; ++v) {
    for (int c = 0; c < 3; ++c)
      f.rest_positions[3 * std::size_t(v) + c] = T(g.rest_positions(v, c));
    f.inverse_count[std::size_t(v)] = T(g.inverse_count[v]);
  }
  // Per domain: the source's arrays, appended once per source domain.
  f.source.resize(domains);
  f.num_local.resize(domains);
  f.r.resize(domains);
  f.basis_offset.assign(domains, 0);
  f.rest_offset.assign(domains, 0);
  f.warped.assign(domains, 0);
  f.q_offset.resize(domains);
  f.instance_transform.assign(12 * domains, 0.0);
  for (std::size_t d = 0; d < domains; ++d) {
    const DomainLayout& dom = g.domains[d];
    f.source[d] = dom.instance_of >= 0 ? dom.instance_of : static_cast<int>(d);
    f.num_local[d] = static_cast<int>(dom.global_vertex.size());
    f.r[d] = static_cast<int>(g.r(d));
    f.q_offset[d] = f.num_q;
    f.num_q += f.r[d];
    if (dom.instance_of >= 0) {
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) f.instance_transform[12 * d + 3 * i + j] = dom.rotation(i, j);
        f.instance_transform[12 * d + 9 + i] = dom.offset[i];
      }
      continue;
    }
    const auto rows = dom.U.rows(), cols = dom.U.cols();
    f.basis_offset[d] = static_cast<std::int64_t>(f.basis.size());
    f.rest_offset[d] = static_cast<std::int64_t>(f.rest.size());
    const bool warped = dom.Psi.size() > 0;
    f.warped[d] = warped ? 1 : 0;
    for (Eigen::Index k = 0; k < cols; ++k)
      for (Eigen::Index i = 0; i < rows; ++i) f.basis.push_back(T(dom.U(i, k)));
    if (warped) {
      f.rotation_basis.resize(std::size_t(f.basis_offset[d]));  // zeros before: never read
      for (Eigen::Index k = 0; k < cols; ++k)
        for (Eigen::Index i = 0; i < rows; ++i) f.rotation_basis.push_back(T(dom.Psi(i, k)));
    }
    for (Eigen::Index l = 0; l < dom.rest.rows(); ++l)
      for (int c = 0; c < 3; ++c) f.rest.push_back(T(dom.rest(l, c)));
  }
  // Ψ shares U's offsets: domains without one leave zeros there (never read).
  f.rotation_basis.resize(f.basis.size());
  // Slots, gathered per vertex in ascending domain order (counting sort by vertex).
  std::vector<int> count(std::size_t(n) + 1, 0);
  for (const DomainLayout& dom : g.domains)
    for (Index v : dom.global_vertex) ++count[std::size_t(v) + 1];
  for (std::size_t v = 0; v < std::size_t(n); ++v) count[v + 1] += count[v];
  f.vertex_slot_begin = count;
  f.slot_domain.resize(std::size_t(count.back()));
  f.slot_local.resize(std::size_t(count.back()));
  for (std::size_t d = 0; d < domains; ++d) {
    const std::vector<Index>& ids = g.domains[d].global_vertex;
    for (std::size_t l = 0; l < ids.size(); ++l) {
      const int slot = count[std::size_t(ids[l])]++;
      f.slot_domain[std::size_t(slot)] = static_cast<int>(d);
      f.slot_local[std::size_t(slot)] = static_cast<int>(l);
    }
  }
  return f;
}

template <class T>
FlatSurface<T> flatten_surface(const RenderSurface& surface) {
  FlatSurface<T> f;
  const Index n = surface.num_vertices();
  f.num_render = static_cast<int>(n);
  f.embedding_vertices.resize(4 * std::size_t(n));
  f.embedding_weights.resize(4 * std::size_t(n));
  for (Index k = 0; k < n; ++k)
    for (int a = 0; a < 4; ++a) {
      f.embedding_vertices[4 * std::size_t(k) + a] = surface.embedding.vertices(k, a);
      f.embedding_weights[4 * std::size_t(k) + a] = T(surface.embedding.weights(k, a));
    }
  const Triangles& tri = surface.triangles;
  f.triangles.resize(3 * std::size_t(tri.rows()));
  std::vector<int> count(std::size_t(n) + 1, 0);
  for (Eigen::Index t = 0; t < tri.rows(); ++t)
    for (int c = 0; c < 3; ++c) {
      const Index v = tri(t, c);
      if (v < 0 || v >= n)
        throw Error(fmt::format("geometry-cuda: triangle {} uses render vertex {} of {}", t, v, n));
      f.triangles[3 * std::size_t(t) + c] = v;
      ++count[std::size_t(v) + 1];
    }
  for (std::size_t v = 0; v < std::size_t(n); ++v) count[v + 1] += count[v];
  f.vertex_triangle_begin = count;
  f.vertex_triangles.resize(std::size_t(count.back()));
  for (Eigen::Index t = 0; t < tri.rows(); ++t)
    for (int c = 0; c < 3; ++c)
      f.vertex_triangles[std::size_t(count[std::size_t(tri(t, c))]++)] = static_cast<int>(t);
  return f;
}

template <class T>
void pack_step(const FlatLayout<T>& layout, std::span<const DomainPose> poses, bool velocities,
               T* out, std::size_t first, std::size_t last) {
  const auto domains = static_cast<std::size_t>(layout.num_domains());
  if (poses.size() != domains)
    throw Error(fmt::format("reduced geometry: {} poses for {} domains", poses.size(), domains));
  T* q = out + std::size_t(kFrameSize) * domains;
  T* qdot = q + layout.num_q;
  for (std::size_t d = first; d < std::min(last, domains); ++d) {
    const DomainPose& pose = poses[d];
    Mat3 R = pose.R;
    Vec3 p = pose.p, nu = pose.nu, omega = pose.omega;
    if (layout.source[d] != static_cast<int>(d)) {
      const double* transform = layout.instance_transform.data() + 12 * d;
      const Mat3 Ri = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(transform);
      const Vec3 offset = Eigen::Map<const Vec3>(transform + 9);
      R = pose.R * Ri;
      p = pose.p + pose.R * offset;
      nu = Ri.transpose() * (pose.nu + pose.omega.cross(offset));
      omega = Ri.transpose() * pose.omega;
    }
    const int r = layout.r[d];
    if (pose.q.size() != r || (velocities && pose.qdot.size() != r))
      throw Error(
          fmt::format("reduced geometry: domain {} has r = {} but its pose has {} q and {} "
                      "q̇ entries",
                      d, r, pose.q.size(), pose.qdot.size()));
    T* frame = out + std::size_t(kFrameSize) * d;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) frame[3 * i + j] = T(R(i, j));
      frame[9 + i] = T(p[i]);
      frame[12 + i] = T(nu[i]);
      frame[15 + i] = T(omega[i]);
    }
    for (int k = 0; k < r; ++k) {
      q[layout.q_offset[d] + k] = T(pose.q[k]);
      if (velocities) qdot[layout.q_offset[d] + k] = T(pose.qdot[k]);
    }
  }
}

template FlatLayout<double> flatten_layout<double>(const ReducedGeometry&);
template FlatLayout<float> flatten_layout<float>(const ReducedGeometry&);
template FlatSurface<double> flatten_surface<double>(const RenderSurface&);
template FlatSurface<float> flatten_surface<float>(const RenderSurface&);
template void pack_step<double>(const FlatLayout<double>&, std::span<const DomainPose>, bool,
                                double*, std::size_t, std::size_t);
template void pack_step<float>(const FlatLayout<float>&, std::span<const DomainPose>, bool, float*,
                               std::size_t, std::size_t);

}  // namespace substruct::geometry_cuda
