// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/geometry/reduced_geometry.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>

#include "detail/world_state_kernels.hpp"
#include "substruct/core/dense_rows_product.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/prefetch.hpp"
#include "substruct/kinematics/modal_warping.hpp"

namespace substruct {
namespace {

bool has_rotation_basis(const DomainLayout& dom) {
  return dom.Psi.rows() != 0 || dom.Psi.cols() != 0;
}

}  // namespace

void ReducedGeometry::finalize() {
  const Index n = num_vertices();
  Eigen::VectorXi count = Eigen::VectorXi::Zero(n);
  for (std::size_t d = 0; d < domains.size(); ++d) {
    const DomainLayout& dom = domains[d];
    const auto nv = static_cast<Index>(dom.global_vertex.size());
    if (dom.instance_of >= 0 &&
        (static_cast<std::size_t>(dom.instance_of) >= domains.size() ||
         domains[static_cast<std::size_t>(dom.instance_of)].instance_of >= 0))
      throw Error(fmt::format(
          "reduced geometry: domain {} is an instance of domain {}, which is not a domain with "
          "a rest shape and basis of its own",
          d, dom.instance_of));
    const DomainLayout& src = source(d);
    if (src.rest.rows() != nv || src.U.rows() != 3 * nv)
      throw Error(fmt::format(
          "reduced geometry: domain {} has {} vertices but X̄ has {} rows and U has {} rows "
          "(expected {} and {})",
          d, nv, src.rest.rows(), src.U.rows(), nv, 3 * nv));
    if (has_rotation_basis(src) &&
        (src.Psi.rows() != src.U.rows() || src.Psi.cols() != src.U.cols()))
      throw Error(fmt::format(
          "reduced geometry: domain {} has a U of {}×{} but a Ψ of {}×{} (Ψ must be empty or "
          "of U's shape)",
          d, src.U.rows(), src.U.cols(), src.Psi.rows(), src.Psi.cols()));
    if (dom.instance_of >= 0 && has_rotation_basis(dom))
      throw Error(fmt::format(
          "reduced geometry: domain {} is an instance of domain {} but has a Ψ of its own (an "
          "instance uses its representative's)",
          d, dom.instance_of));
    for (std::size_t l = 0; l < dom.global_vertex.size(); ++l) {
      const Index g = dom.global_vertex[l];
      if (g < 0 || g >= n || (l > 0 && g <= dom.global_vertex[l - 1]))
        throw Error(fmt::format(
            "reduced geometry: domain {} lists vertex {} at position {}; vertices must be "
            "ascending ids in [0, {})",
            d, g, l, n));
      ++count[g];
    }
  }
  inverse_count.resize(n);
  for (Index g = 0; g < n; ++g) inverse_count[g] = count[g] > 0 ? 1.0 / count[g] : 0.0;
  const auto holder = [&](std::size_t d) {  // of d's rest shape and basis
    return domains[d].instance_of >= 0 ? std::size_t(domains[d].instance_of) : d;
  };
  std::vector<int> users(domains.size(), 0);
  for (std::size_t d = 0; d < domains.size(); ++d) ++users[holder(d)];
  shares_basis.assign(domains.size(), 0);
  for (std::size_t d = 0; d < domains.size(); ++d) shares_basis[d] = users[holder(d)] > 1;
}

namespace {

// From this many modes on, U [q q̇] and Ψ [q q̇] of a domain whose basis is its own are each one
// pass over the matrix (dense_rows_product); below, the matrices are small enough to stay in the
// cache and the per-row cost of the fused kernel's sums outweighs what it saves.
constexpr Index kFusedColumns = 16;

// Vertices per block: a block's displacements and states in lanes stay in the first-level cache.
constexpr std::size_t kBlock = 32;

// A domain's frame in the axes of its rest shape and basis. An instance in its representative's
// axes: x = p + R (Rᵢ x_rep + δ) = (p + R δ) + (R Rᵢ) x_rep and
// v = R Rᵢ (ν' + ω' × x_rep + U_rep q̇), ν' = Rᵢᵀ(ν + ω × δ), ω' = Rᵢᵀ ω.
struct SourceFrame {
  Mat3 R;
  Vec3 p, nu, omega;
};
SourceFrame source_frame(const DomainLayout& own, const DomainPose& pose) {
  if (own.instance_of < 0) return {pose.R, pose.p, pose.nu, pose.omega};
  const Mat3 Rt = own.rotation.transpose();
  return {pose.R * own.rotation, pose.p + pose.R * own.offset,
          Rt * (pose.nu + pose.omega.cross(own.offset)), Rt * pose.omega};
}

void set_lane(const SourceFrame& f, int j, detail::LanePoses& lanes) {
  for (int i = 0; i < 9; ++i) lanes.R[i][j] = f.R.data()[i];
  for (int c = 0; c < 3; ++c) {
    lanes.p[c][j] = f.p[c];
    lanes.nu[c][j] = f.nu[c];
    lanes.omega[c][j] = f.omega[c];
  }
}

void check_pose(const ReducedGeometry& geometry, std::span<const DomainPose> poses, std::size_t d,
                bool velocities) {
  const Index r = geometry.r(d);
  const DomainPose& pose = poses[d];
  if (pose.q.size() != r || (velocities && pose.qdot.size() != r))
    throw Error(
        fmt::format("reduced geometry: domain {} has r = {} but its pose has {} q and {} "
                    "q̇ entries",
                    d, r, pose.q.size(), pose.qdot.size()));
}

// Calls emit(d, l, g, x, v) with the world position x and velocity v (either null when not
// asked for) of local vertex l (global g) of every domain d in [first, last), and ahead(d) a
// group of domains before d's values come (for the caller to fetch what it will read per vertex
// then: a big tree's domains are many and small, and each one's arrays would otherwise be cache
// misses on the way to its stores).
//
// Consecutive domains of one rest shape and basis that serves several domains go up to four at
// a time, one per lane (detail/world_state_kernels.hpp; U [q₁ … q₄] in one pass over U). A
// domain with a basis of its own, or a warped one, has U q and U q̇ (and Ψ q and Ψ q̇) for the
// whole domain in one pass each, and goes alone, one vertex per vector. Which of the two a domain
// takes depends on the layout only, so its numbers are the same whatever range [first, last) it is
// evaluated in.
template <class Emit, class Ahead>
void for_each_vertex_state(const ReducedGeometry& geometry, std::span<const DomainPose> poses,
                           std::size_t first, std::size_t last, bool positions, bool velocities,
                           Emit&& emit, Ahead&& ahead) {
  if (poses.size() != geometry.domains.size())
    throw Error(fmt::format("reduced geometry: {} poses for {} domains", poses.size(),
                            geometry.domains.size()));
  if (geometry.shares_basis.size() != geometry.domains.size())
    throw Error("reduced geometry: finalize() was not called after the layout was set");
  Eigen::VectorXd uq, udq, wq, wdq;
  std::vector<double> Q, Qdot;  // r × 4: the lanes' q and q̇
  alignas(32) double y[12 * kBlock], ydot[12 * kBlock], out[24 * kBlock];
  detail::LanePoses lanes{};
  std::size_t fetched = first;  // domains before it have been asked for (ahead())
  for (std::size_t d = first; d < last;) {
    const DomainLayout& dom = geometry.source(d);
    const auto r = static_cast<Index>(dom.U.cols());
    check_pose(geometry, poses, d, velocities);
    const bool warped = r > 0 && has_rotation_basis(dom);
    const bool in_lanes = !warped && geometry.shares_basis[d] != 0;
    std::size_t k = 1;  // domains d … d + k − 1, lanes 0 … k − 1
    if (in_lanes)
      for (; k < detail::kLanes && d + k < last && &geometry.source(d + k) == &dom; ++k)
        check_pose(geometry, poses, d + k, velocities);
    // The domains after this group, up to a group's worth ahead, each asked for once.
    for (fetched = std::max(fetched, d + k); fetched < std::min(last, d + k + detail::kLanes);
         ++fetched) {
      const std::vector<Index>& ids = geometry.domains[fetched].global_vertex;
      prefetch_lines(ids.data(), ids.data() + ids.size(), false);
      ahead(fetched);
    }
    const SourceFrame frame = source_frame(geometry.domains[d], poses[d]);
    if (in_lanes)
      for (std::size_t j = 0; j < std::size_t(detail::kLanes); ++j)  // unused: d's (not read)
        set_lane(j > 0 && j < k ? source_frame(geometry.domains[d + j], poses[d + j]) : frame,
                 int(j), lanes);
    const auto n = static_cast<std::size_t>(dom.rest.rows());
    const auto rr = static_cast<std::size_t>(r);
    if (in_lanes && r > 0) {
      Q.assign(4 * rr, 0.0);
      if (velocities) Qdot.assign(4 * rr, 0.0);
      for (std::size_t j = 0; j < k; ++j)
        for (std::size_t m = 0; m < rr; ++m) {
          Q[4 * m + j] = poses[d + j].q[Index(m)];
          if (velocities) Qdot[4 * m + j] = poses[d + j].qdot[Index(m)];
        }
    } else if (r > 0) {
      // u = U q and U q̇ in one pass over U, and with modal warping the rotation vectors
      // w = Ψ q and their rates Ψ q̇ in one pass over Ψ.
      const DomainPose& pose = poses[d];
      const auto products = [&](const RowMajorMatrix& A, Eigen::VectorXd& a,
                                Eigen::VectorXd& adot) {
        if (r < kFusedColumns) {  // short rows: Eigen's product, whose per-row cost is lower
          a.noalias() = A * pose.q;
          if (velocities) adot.noalias() = A * pose.qdot;
          return;
        }
        a.resize(A.rows());
        if (velocities) adot.resize(A.rows());
        dense_rows_product(std::size_t(A.rows()), rr, A.data(), pose.q.data(),
                           velocities ? pose.qdot.data() : nullptr, a.data(),
                           velocities ? adot.data() : nullptr);
      };
      products(dom.U, uq, udq);
      if (warped) products(dom.Psi, wq, wdq);
    }
    for (std::size_t l0 = 0; l0 < n; l0 += kBlock) {
      const std::size_t l1 = std::min(n, l0 + kBlock);
      if (!in_lanes) {  // one vertex per vector
        const double *u = r > 0 ? uq.data() + 3 * l0 : nullptr,
                     *u_dot = r > 0 && velocities ? udq.data() + 3 * l0 : nullptr;
        if (warped) {  // u = R̃(w) U q, u̇ = R̃(w) U q̇ + DR̃(w)[Ψ q̇] U q
          for (std::size_t l = l0; l < l1; ++l) {
            const auto li = static_cast<Index>(l);
            const Vec3 w = wq.segment<3>(3 * li), a = uq.segment<3>(3 * li);
            Eigen::Map<Vec3> wu(y + 3 * (l - l0)), wu_dot(ydot + 3 * (l - l0));
            if (velocities) {
              Vec3 value, rate;
              warp_with_rate(w, wdq.segment<3>(3 * li), a, udq.segment<3>(3 * li), value, rate);
              wu = value;
              wu_dot = rate;
            } else {
              wu = warp(w, a);
            }
          }
          u = y;
          u_dot = velocities ? ydot : nullptr;
        }
        detail::frame_world_states(l1 - l0, dom.rest.data() + 3 * l0, u, u_dot, frame.R.data(),
                                   frame.p.data(), frame.nu.data(), frame.omega.data(), velocities,
                                   out);
        for (std::size_t l = l0; l < l1; ++l) {
          const double* o = out + 8 * (l - l0);
          const Vec3 x(o[0], o[1], o[2]), v(o[4], o[5], o[6]);
          emit(d, Index(l), geometry.domains[d].global_vertex[l], positions ? &x : nullptr,
               velocities ? &v : nullptr);
        }
        continue;
      }
      if (r > 0)
        detail::lane_displacements(l0, l1, rr, dom.U.data(), Q.data(),
                                   velocities ? Qdot.data() : nullptr, y, ydot);
      detail::lane_world_states(l0, l1, dom.rest.data(), r > 0 ? y : nullptr,
                                r > 0 && velocities ? ydot : nullptr, lanes, velocities, out);
      for (std::size_t l = l0; l < l1; ++l) {
        const double* o = out + 24 * (l - l0);
        for (std::size_t j = 0; j < k; ++j) {
          const Vec3 x(o[j], o[4 + j], o[8 + j]), v(o[12 + j], o[16 + j], o[20 + j]);
          emit(d + j, Index(l), geometry.domains[d + j].global_vertex[l], positions ? &x : nullptr,
               velocities ? &v : nullptr);
        }
      }
    }
    d += k;
  }
}

}  // namespace

void accumulate_domain_states(const ReducedGeometry& geometry, std::span<const DomainPose> poses,
                              std::size_t first, std::size_t last, Points* x_sum, Points* v_sum) {
  for_each_vertex_state(
      geometry, poses, first, last, x_sum != nullptr, v_sum != nullptr,
      [&](std::size_t, Index, Index g, const Vec3* x, const Vec3* v) {
        if (x != nullptr) x_sum->row(g) += x->transpose();
        if (v != nullptr) v_sum->row(g) += v->transpose();
      },
      [](std::size_t) {});
}

void route_domain_states(const ReducedGeometry& geometry, std::span<const DomainPose> poses,
                         std::size_t first, std::size_t last, std::span<const Index> first_row,
                         std::span<const Index> target, Points* x, Points* v, Points* x_rows,
                         Points* v_rows) {
  const bool positions = x != nullptr, velocities = v != nullptr;
  for_each_vertex_state(
      geometry, poses, first, last, positions, velocities,
      [&](std::size_t d, Index l, Index g, const Vec3* xl, const Vec3* vl) {
        const Index row = target[static_cast<std::size_t>(first_row[d] + l)];
        if (row < 0) {
          if (positions) x->row(g) = (Vec3::Zero() + *xl).transpose();
          if (velocities) v->row(g) = (Vec3::Zero() + *vl).transpose();
        } else {
          if (positions) x_rows->row(row) = xl->transpose();
          if (velocities) v_rows->row(row) = vl->transpose();
        }
      },
      [&](std::size_t d) {
        const Index* rows = target.data() + first_row[d];
        prefetch_lines(rows, rows + geometry.domains[d].global_vertex.size(), false);
      });
}

void finish_average(const ReducedGeometry& geometry, Points* x, Points* v) {
  const Index n = geometry.num_vertices();
  if (geometry.inverse_count.size() != n)
    throw Error("reduced geometry: finalize() was not called after the layout was set");
  for (Index g = 0; g < n; ++g) {
    const double w = geometry.inverse_count[g];
    if (w > 0) {
      if (x != nullptr) x->row(g) *= w;
      if (v != nullptr) v->row(g) *= w;
    } else {
      if (x != nullptr) x->row(g) = geometry.rest_positions.row(g);
      if (v != nullptr) v->row(g).setZero();
    }
  }
}

void reduced_world_state(const ReducedGeometry& geometry, std::span<const DomainPose> poses,
                         Points* x, Points* v) {
  const Index n = geometry.num_vertices();
  if (x != nullptr) *x = Points::Zero(n, 3);
  if (v != nullptr) *v = Points::Zero(n, 3);
  accumulate_domain_states(geometry, poses, 0, geometry.domains.size(), x, v);
  finish_average(geometry, x, v);
}

}  // namespace substruct
