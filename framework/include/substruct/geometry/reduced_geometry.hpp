// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The reduced layout of a multidomain method and the one kernel that turns it into world
/// positions and velocities (used by the geometry plugins and by the methods' own
/// positions()/velocities()).
///
/// Per domain i, set once after precompute: its vertices (sorted global ids), their rest
/// positions X̄ in the domain's frame (n×3) and the basis U (3n×r, r may be 0: a rigid domain).
/// Per step, its pose: frame rotation R and origin p (world), the frame's velocity ν and angular
/// velocity ω (both in the frame's axes), and the reduced coordinates q, q̇. Then
///   x = p + R (X̄ + U q),     v = R (ν + ω × (X̄ + U q) + U q̇),
/// and a vertex shared by several domains gets the average of their values (C0 averaging,
/// Barbič–Zhao 2011 §5 "Rendering"). Vertices no domain covers stay at rest with zero velocity.
///
/// Modal warping (optional, per domain; Choi & Ko 2005, Yang et al. 2010 Eq. 7): with a modal
/// rotation matrix Ψ (3n×r like U, fem/modal_rotation_operator.hpp) the local displacement of
/// vertex a is u_a = R̃(w_a) (U q)_a, w_a = (Ψ q)_a (kinematics/modal_warping.hpp), in place of
/// (U q)_a, and its rate is the exact time derivative
///   u̇_a = R̃(w_a) (U q̇)_a + DR̃(w_a)[(Ψ q̇)_a] (U q)_a,
/// so that v is the derivative of x (Choi & Ko's R(w) U q̇ is equal only while w keeps its axis).
/// Without Ψ every value is bit for bit the unwarped one.
#include <span>
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

struct DomainLayout {
  std::vector<Index> global_vertex;  // local → global vertex, ascending
  Points rest;                       // X̄, n×3, frame coordinates
  RowMajorMatrix U;      // 3n×r basis (xyz interleaved per vertex, row-major); r = 0 allowed
  RowMajorMatrix Psi{};  // Ψ: empty (no warping) or 3n×r, rotation vectors w = Ψ q
  /// An instance (≥ 0): the domain whose rest shape and basis this one's are, turned and moved,
  /// X̄ = R X̄_rep + δ, U = (I ⊗ R) U_rep and Ψ = (I ⊗ R) Ψ_rep (R = rotation, δ = offset;
  /// vertices in the same local order); `rest`, `U` and `Psi` then stay empty. The kernel
  /// evaluates the representative's arrays in the pose turned by R (R̃(R w) = R R̃(w) Rᵀ for a
  /// proper rotation), so many copies of one leaf cost one basis in memory.
  int instance_of = -1;
  Mat3 rotation = Mat3::Identity();
  Vec3 offset = Vec3::Zero();
};

struct ReducedGeometry {
  Points rest_positions;  // N×3 world rest positions (used for vertices no domain covers)
  std::vector<DomainLayout> domains;
  Eigen::VectorXd inverse_count;   // 1 / (number of domains covering each vertex), 0 if none
  std::vector<char> shares_basis;  // per domain: its rest shape and basis serve other domains too

  Index num_vertices() const { return static_cast<Index>(rest_positions.rows()); }
  /// The layout holding domain d's rest shape and basis: its own, or its representative's.
  const DomainLayout& source(std::size_t d) const {
    const int rep = domains[d].instance_of;
    return rep >= 0 ? domains[static_cast<std::size_t>(rep)] : domains[d];
  }
  /// Domain d's number of reduced coordinates.
  Index r(std::size_t d) const { return static_cast<Index>(source(d).U.cols()); }
  /// Fills inverse_count and shares_basis and checks the layout (ids in range and ascending, sizes
  /// consistent, Ψ empty or of U's shape, instances of a domain that is not an instance itself and
  /// without a Ψ of their own); throws Error naming the domain otherwise. Call once after filling
  /// `domains`.
  void finalize();
};

struct DomainPose {
  Mat3 R = Mat3::Identity();  // frame rotation (world)
  Vec3 p = Vec3::Zero();      // frame origin (world)
  Vec3 nu = Vec3::Zero();     // frame velocity, frame axes
  Vec3 omega = Vec3::Zero();  // frame angular velocity, frame axes
  Eigen::VectorXd q, qdot;    // r entries each
};

/// Adds the world positions (x_sum) and/or velocities (v_sum) of domains [first, last) into the
/// N×3 sums (either may be null); they must be sized N×3 by the caller.
void accumulate_domain_states(const ReducedGeometry& geometry, std::span<const DomainPose> poses,
                              std::size_t first, std::size_t last, Points* x_sum, Points* v_sum);

/// The values of domains [first, last), each written where it is needed: domain d's vertex l
/// (global g) goes to row g of x and/or v when target[first_row[d] + l] < 0 (g is covered by d
/// alone: its average is the value, written as 0 + value, bit for bit the sum from zero), and
/// otherwise to row target[first_row[d] + l] of x_rows and/or v_rows, to be summed with g's other
/// rows in ascending domain order from zero and averaged, which gives accumulate_domain_states()
/// and finish_average()'s numbers bit for bit. Positions are written when x is given (x_rows
/// then too), velocities when v is (v_rows too); all sized by the caller. A vertex covered by one
/// domain is written once, with no sums or buffer of all vertices to fill and read back.
void route_domain_states(const ReducedGeometry& geometry, std::span<const DomainPose> poses,
                         std::size_t first, std::size_t last, std::span<const Index> first_row,
                         std::span<const Index> target, Points* x, Points* v, Points* x_rows,
                         Points* v_rows);

/// Turns the sums of all domains into averages (uncovered vertices: rest position, zero velocity).
void finish_average(const ReducedGeometry& geometry, Points* x, Points* v);

/// Both steps for every domain, on the calling thread: x and/or v (either may be null) are
/// resized to N×3.
void reduced_world_state(const ReducedGeometry& geometry, std::span<const DomainPose> poses,
                         Points* x, Points* v);

}  // namespace substruct
