// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The per-vertex arithmetic of geometry-cuda, compiled for the device (the kernels of
// device_geometry.cu) and for the host (its CPU twin, host_geometry.cpp): one function per
// output vertex, on raw arrays, so that one thread computes one vertex and no two threads write
// the same place.
//
// World state of vertex g, the average over the domains d that cover it (C0 averaging) of
//   x = p + R (X̄ + u),   v = R (ν + ω × (X̄ + u) + u̇),
// with u = U q and u̇ = U q̇, or with modal warping (Yang et al. 2010 Eq. 7) u = R̃(w) U q,
// w = Ψ q, and its exact rate u̇ = R̃(w) U q̇ + DR̃(w)[Ψ q̇] U q, where
//   R̃(w) y = y + β w×y + γ w×(w×y),
//   DR̃(w)[ẇ] y = β ẇ×y + γ (ẇ×(w×y) + w×(ẇ×y)) + (w·ẇ)(β′/θ w×y + γ′/θ w×(w×y))
// (kinematics/modal_warping.hpp writes the same with 3×3 matrices).
#include "flat_geometry.hpp"
#include "substruct/core/host_device.hpp"
#include "substruct/kinematics/warping_coefficients.hpp"

namespace substruct::geometry_cuda {

// FlatLayout's arrays seen through raw pointers (host or device memory).
template <class T>
struct LayoutView {
  int num_vertices;
  const T* rest_positions;
  const T* inverse_count;
  const int* vertex_slot_begin;
  const int* slot_domain;
  const int* slot_local;
  const int* source;
  const int* num_local;
  const int* r;
  const std::int64_t* basis_offset;
  const std::int64_t* rest_offset;
  const int* warped;
  const int* q_offset;
  const T* basis;
  const T* rotation_basis;
  const T* rest;
};

// One step's inputs: kFrameSize numbers per domain, and q, q̇ (FlatLayout::q_offset).
template <class T>
struct StepView {
  const T* frames;
  const T* q;
  const T* qdot;  // null: positions only
};

template <class T>
struct SurfaceView {
  const int* embedding_vertices;
  const T* embedding_weights;
  const int* triangles;
  const int* vertex_triangle_begin;
  const int* vertex_triangles;
};

namespace detail {

template <class T>
SUBSTRUCT_HD inline void cross(const T* a, const T* b, T* out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

// out = M a, M row-major 3×3.
template <class T>
SUBSTRUCT_HD inline void times(const T* M, const T* a, T* out) {
  for (int i = 0; i < 3; ++i) out[i] = M[3 * i] * a[0] + M[3 * i + 1] * a[1] + M[3 * i + 2] * a[2];
}

// Σ_k column k of a 3n×r column-major basis at local vertex l times a[k], added to out_a, and
// times b[k] added to out_b unless b is null: one pass over the basis for both.
template <class T>
SUBSTRUCT_HD inline void add_basis_products(const T* basis, int n, int r, int l, const T* a,
                                            T* out_a, const T* b, T* out_b) {
  const T* row = basis + 3 * l;
  for (int k = 0; k < r; ++k) {
    const T* column = row + static_cast<std::int64_t>(k) * 3 * n;
    const T c0 = column[0], c1 = column[1], c2 = column[2];
    out_a[0] += c0 * a[k];
    out_a[1] += c1 * a[k];
    out_a[2] += c2 * a[k];
    if (b != nullptr) {
      out_b[0] += c0 * b[k];
      out_b[1] += c1 * b[k];
      out_b[2] += c2 * b[k];
    }
  }
}

}  // namespace detail

/// x (and v, unless step.qdot or v is null) of global vertex g: 3 numbers each.
template <class T>
SUBSTRUCT_HD inline void vertex_world_state(const LayoutView<T>& L, const StepView<T>& step, int g,
                                            T* x, T* v) {
  const bool velocities = v != nullptr && step.qdot != nullptr;
  const int begin = L.vertex_slot_begin[g], end = L.vertex_slot_begin[g + 1];
  if (begin == end) {  // no domain covers it: rest, at rest
    for (int c = 0; c < 3; ++c) {
      x[c] = L.rest_positions[3 * g + c];
      if (velocities) v[c] = 0;
    }
    return;
  }
  T xs[3] = {0, 0, 0}, vs[3] = {0, 0, 0};
  for (int s = begin; s < end; ++s) {
    const int d = L.slot_domain[s], l = L.slot_local[s];
    const int src = L.source[d], n = L.num_local[src], r = L.r[src];
    const T* q = step.q + L.q_offset[d];
    const T* qdot = velocities ? step.qdot + L.q_offset[d] : nullptr;
    const T* frame = step.frames + kFrameSize * d;  // R, p, ν, ω
    const T* basis = L.basis + L.basis_offset[src];
    T u[3] = {0, 0, 0}, ud[3] = {0, 0, 0};
    detail::add_basis_products(basis, n, r, l, q, u, qdot, ud);
    if (L.warped[src] != 0 && r > 0) {
      const T* psi = L.rotation_basis + L.basis_offset[src];
      T w[3] = {0, 0, 0}, wd[3] = {0, 0, 0};  // w = Ψ q, ẇ = Ψ q̇
      detail::add_basis_products(psi, n, r, l, q, w, qdot, wd);
      const auto c = warping_coefficients(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
      T wy[3], wwy[3];
      detail::cross(w, u, wy);
      detail::cross(w, wy, wwy);
      if (velocities) {
        // u̇ = R̃(w) U q̇ + DR̃(w)[ẇ] U q.
        T dbeta, dgamma;
        warping_coefficient_rates(c, dbeta, dgamma);
        T wud[3], wwud[3], wdy[3], wdwy[3], wwdy[3];
        detail::cross(w, ud, wud);
        detail::cross(w, wud, wwud);
        detail::cross(wd, u, wdy);
        detail::cross(wd, wy, wdwy);
        detail::cross(w, wdy, wwdy);
        const T wwd = w[0] * wd[0] + w[1] * wd[1] + w[2] * wd[2];
        for (int k = 0; k < 3; ++k)
          ud[k] = ud[k] + c.beta * wud[k] + c.gamma * wwud[k] + c.beta * wdy[k] +
                  c.gamma * (wdwy[k] + wwdy[k]) + wwd * (dbeta * wy[k] + dgamma * wwy[k]);
      }
      for (int k = 0; k < 3; ++k) u[k] = u[k] + c.beta * wy[k] + c.gamma * wwy[k];
    }
    const T* rest = L.rest + L.rest_offset[src] + 3 * l;
    const T xl[3] = {rest[0] + u[0], rest[1] + u[1], rest[2] + u[2]};
    T world[3];
    detail::times(frame, xl, world);
    for (int k = 0; k < 3; ++k) xs[k] += frame[9 + k] + world[k];
    if (velocities) {
      T local[3];
      detail::cross(frame + 15, xl, local);  // ω × x̃
      for (int k = 0; k < 3; ++k) local[k] = frame[12 + k] + local[k] + ud[k];
      detail::times(frame, local, world);
      for (int k = 0; k < 3; ++k) vs[k] += world[k];
    }
  }
  const T weight = L.inverse_count[g];
  for (int k = 0; k < 3; ++k) {
    x[k] = xs[k] * weight;
    if (velocities) v[k] = vs[k] * weight;
  }
}

/// y_k = Σ_a w_ka x_(vertex ka): render vertex k from the volumetric positions x (3N).
template <class T>
SUBSTRUCT_HD inline void render_vertex(const SurfaceView<T>& S, const T* x, int k, T* y) {
  T sum[3] = {0, 0, 0};
  for (int a = 0; a < 4; ++a) {
    const T w = S.embedding_weights[4 * k + a];
    const T* p = x + 3 * static_cast<std::int64_t>(S.embedding_vertices[4 * k + a]);
    for (int c = 0; c < 3; ++c) sum[c] += w * p[c];
  }
  for (int c = 0; c < 3; ++c) y[c] = sum[c];
}

/// (b − a) × (c − a) of triangle t over the render positions y: twice its area along its normal.
template <class T>
SUBSTRUCT_HD inline void face_normal(const SurfaceView<T>& S, const T* y, int t, T* n) {
  const T* a = y + 3 * S.triangles[3 * t];
  const T* b = y + 3 * S.triangles[3 * t + 1];
  const T* c = y + 3 * S.triangles[3 * t + 2];
  const T ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const T ac[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  detail::cross(ab, ac, n);
}

/// The area-weighted normal of render vertex k, normalised ((0, 0, 0) in no triangle), from the
/// face normals of face_normal().
template <class T>
SUBSTRUCT_HD inline void vertex_normal(const SurfaceView<T>& S, const T* face_normals, int k,
                                       T* n) {
  using std::sqrt;
  T sum[3] = {0, 0, 0};
  for (int i = S.vertex_triangle_begin[k]; i < S.vertex_triangle_begin[k + 1]; ++i) {
    const T* f = face_normals + 3 * S.vertex_triangles[i];
    for (int c = 0; c < 3; ++c) sum[c] += f[c];
  }
  const T length = sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
  for (int c = 0; c < 3; ++c) n[c] = length > 0 ? sum[c] / length : sum[c];
}

}  // namespace substruct::geometry_cuda
