// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The reduced layout and the render surface as flat arrays of one floating type T (double or
// float), the form both the CUDA kernels and their CPU twin read (vertex_state.hpp). Plain
// std::vector only, so nvcc never sees Eigen; flatten.hpp builds it from the framework's types.
//
// Vertices are gathered, not scattered: global vertex g lists its slots (domain d, local index
// l) in ascending d, so a vertex shared by several domains sums their values in the order
// geometry-cpu does, and every run gives the same numbers.
#include <cstdint>
#include <vector>

namespace substruct::geometry_cuda {

template <class T>
struct FlatLayout {
  int num_vertices = 0;
  std::vector<T> rest_positions;             // 3N, world rest (vertices no domain covers)
  std::vector<T> inverse_count;              // N, 1 / (domains covering the vertex), 0 if none
  std::vector<int> vertex_slot_begin;        // N + 1
  std::vector<int> slot_domain, slot_local;  // per slot
  // Per domain d (instances point at their representative's arrays through `source`).
  std::vector<int> source;                 // d or its representative
  std::vector<int> num_local, r;           // n and r of the source
  std::vector<std::int64_t> basis_offset;  // source's U and Ψ in `basis`, `rotation_basis`
  std::vector<std::int64_t> rest_offset;   // source's X̄ in `rest`
  std::vector<int> warped;                 // 1: the source has Ψ
  std::vector<int> q_offset;               // d's q and q̇ in the per-step arrays
  std::vector<double> instance_transform;  // 12 per domain: an instance's Rᵢ (row-major), δ
  int num_q = 0;                           // Σ r over the domains
  // U and Ψ of every source domain, each 3n×r column-major (column k of a domain contiguous:
  // neighbouring vertices read neighbouring addresses), and X̄ (3n, xyz per vertex).
  std::vector<T> basis, rotation_basis, rest;

  int num_domains() const { return static_cast<int>(source.size()); }
};

// Per step and domain, the frame after an instance's own turn and offset are folded in:
// R (row-major 9), p, ν, ω (frame axes) — 18 numbers (kFrameSize).
inline constexpr int kFrameSize = 18;

template <class T>
struct FlatSurface {
  int num_render = 0;                      // render vertices
  std::vector<int> embedding_vertices;     // 4 per render vertex
  std::vector<T> embedding_weights;        // 4 per render vertex
  std::vector<int> triangles;              // 3 per triangle
  std::vector<int> vertex_triangle_begin;  // num_render + 1
  std::vector<int> vertex_triangles;       // triangles around each render vertex, ascending

  int num_triangles() const { return static_cast<int>(triangles.size() / 3); }
};

}  // namespace substruct::geometry_cuda
