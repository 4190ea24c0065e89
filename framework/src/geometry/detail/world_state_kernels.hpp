// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The vertex kernels of the world state (reduced_geometry.cpp).
//
// Up to four domains' world positions and velocities at once, one domain per lane of four
// doubles, for domains that share one rest shape X̄ and basis U (a representative and its
// instances: a tree's thousands of leaves are copies of one leaf). U [q₁ … q₄] and U [q̇₁ … q̇₄]
// are then one pass over U with no sums across lanes, and the per-vertex frame transforms are
// four at a time. Compiled for AVX2/FMA and the baseline, the processor choosing at load time.
// Every lane's numbers are its domain's alone: the same whichever lane or group it is in.
#include <cstddef>

namespace substruct::detail {

constexpr int kLanes = 4;

/// Four domains' frames in the axes of their shared rest shape, lane j = domain j (unused lanes:
/// any finite values). R(i, c) is at R[i + 3 c] (column-major like Mat3); ν and ω in the frame's
/// axes.
struct LanePoses {
  alignas(32) double R[9][kLanes];
  alignas(32) double p[3][kLanes];
  alignas(32) double nu[3][kLanes];
  alignas(32) double omega[3][kLanes];
};

/// Y = U Q and, when Qdot is not null, Ẏ = U Q̇ for the vertices [l0, l1): U is row-major 3n × r
/// (xyz rows per vertex), Q and Q̇ are r × 4 (row m = q_m of the four domains). Vertex l's value
/// for coordinate c is the four lanes at y + 12 (l − l0) + 4 c (likewise ẏ).
void lane_displacements(std::size_t l0, std::size_t l1, std::size_t r, const double* U,
                        const double* Q, const double* Qdot, double* y, double* ydot);

/// x = p + R (X̄ + y) and, when `velocities`, v = R (ν + ω × (X̄ + y) + ẏ) for the vertices
/// [l0, l1): X̄ row-major n × 3 (shared by the lanes), y and ẏ laid out as lane_displacements
/// writes them (y null: zero displacement; ẏ null: zero rate). Vertex l's x_c is the four lanes
/// at out + 24 (l − l0) + 4 c, its v_c at out + 24 (l − l0) + 12 + 4 c.
void lane_world_states(std::size_t l0, std::size_t l1, const double* rest, const double* y,
                       const double* ydot, const LanePoses& pose, bool velocities, double* out);

/// One domain alone, one vertex per vector (x, y, z and a spare lane): x = p + R (X̄ + y) and,
/// when `velocities`, v = R (ν + ω × (X̄ + y) + ẏ) for n vertices; X̄, y and ẏ three values per
/// vertex (y, ẏ null: zero); R column-major, p, ν, ω three values. Vertex l's x is at
/// out + 8 l (three values; the fourth is overwritten), its v at out + 8 l + 4.
void frame_world_states(std::size_t n, const double* rest, const double* y, const double* ydot,
                        const double* R, const double* p, const double* nu, const double* omega,
                        bool velocities, double* out);

}  // namespace substruct::detail
