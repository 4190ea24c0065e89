#include "substruct/geometry/reduced_geometry.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>

#include "substruct/core/dense_rows_product.hpp"
#include "substruct/core/error.hpp"
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
}

namespace {

// From this many modes on, U [q q̇] and Ψ [q q̇] are each one pass over the matrix
// (dense_rows_product); below, the matrices are small enough to stay in the cache and the
// per-row cost of the fused kernel's sums outweighs what it saves.
constexpr Index kFusedColumns = 16;

// Calls emit(d, l, g, x, v) with the world position x and velocity v (either null when not
// asked for) of local vertex l (global g) of every domain d in [first, last).
template <class Emit>
void for_each_vertex_state(const ReducedGeometry& geometry, std::span<const DomainPose> poses,
                           std::size_t first, std::size_t last, bool positions, bool velocities,
                           Emit&& emit) {
  if (poses.size() != geometry.domains.size())
    throw Error(fmt::format("reduced geometry: {} poses for {} domains", poses.size(),
                            geometry.domains.size()));
  Eigen::VectorXd uq, udq, wq, wdq;
  for (std::size_t d = first; d < last; ++d) {
    const DomainLayout& dom = geometry.source(d);
    const std::vector<Index>& global_vertex = geometry.domains[d].global_vertex;
    const DomainPose& pose = poses[d];
    Mat3 R = pose.R;
    Vec3 p = pose.p, nu = pose.nu, omega = pose.omega;
    if (const DomainLayout& own = geometry.domains[d]; own.instance_of >= 0) {
      // An instance in its representative's axes: x = p + R (Rᵢ x_rep + δ) = (p + R δ) +
      // (R Rᵢ) x_rep and v = R Rᵢ (ν' + ω' × x_rep + U_rep q̇), ν' = Rᵢᵀ(ν + ω × δ), ω' = Rᵢᵀ ω.
      const Mat3 Rt = own.rotation.transpose();
      R = pose.R * own.rotation;
      p = pose.p + pose.R * own.offset;
      nu = Rt * (pose.nu + pose.omega.cross(own.offset));
      omega = Rt * pose.omega;
    }
    const auto r = static_cast<Index>(dom.U.cols());
    if (pose.q.size() != r || (velocities && pose.qdot.size() != r))
      throw Error(
          fmt::format("reduced geometry: domain {} has r = {} but its pose has {} q and {} "
                      "q̇ entries",
                      d, r, pose.q.size(), pose.qdot.size()));
    // u = U q and U q̇ for the whole domain at once, in one pass over U, and with modal
    // warping the rotation vectors w = Ψ q and their rates Ψ q̇ in one pass over Ψ.
    const bool warped = r > 0 && has_rotation_basis(dom);
    const auto products = [&](const RowMajorMatrix& A, Eigen::VectorXd& y, Eigen::VectorXd& ydot) {
      if (r < kFusedColumns) {  // short rows: Eigen's product, whose per-row cost is lower
        y.noalias() = A * pose.q;
        if (velocities) ydot.noalias() = A * pose.qdot;
        return;
      }
      y.resize(A.rows());
      if (velocities) ydot.resize(A.rows());
      dense_rows_product(std::size_t(A.rows()), std::size_t(r), A.data(), pose.q.data(),
                         velocities ? pose.qdot.data() : nullptr, y.data(),
                         velocities ? ydot.data() : nullptr);
    };
    if (r > 0) products(dom.U, uq, udq);
    if (warped) products(dom.Psi, wq, wdq);
    const auto nv = static_cast<Index>(global_vertex.size());
    for (Index l = 0; l < nv; ++l) {
      const Index g = global_vertex[static_cast<std::size_t>(l)];
      Vec3 xl = dom.rest.row(l).transpose();
      Vec3 warped_rate = Vec3::Zero();  // u̇ = R̃(w) U q̇ + DR̃(w)[Ψ q̇] U q of a warped domain
      if (warped) {
        const Vec3 w = wq.segment<3>(3 * l), y = uq.segment<3>(3 * l);
        if (velocities) {
          Vec3 u;
          warp_with_rate(w, wdq.segment<3>(3 * l), y, udq.segment<3>(3 * l), u, warped_rate);
          xl += u;
        } else {
          xl += warp(w, y);
        }
      } else if (r > 0) {
        xl += uq.segment<3>(3 * l);
      }
      Vec3 x = Vec3::Zero(), v = Vec3::Zero();
      if (positions) x = p + R * xl;
      if (velocities) {
        Vec3 vl = nu + omega.cross(xl);
        if (warped)
          vl += warped_rate;
        else if (r > 0)
          vl += udq.segment<3>(3 * l);
        v = R * vl;
      }
      emit(d, l, g, positions ? &x : nullptr, velocities ? &v : nullptr);
    }
  }
}

}  // namespace

void accumulate_domain_states(const ReducedGeometry& geometry, std::span<const DomainPose> poses,
                              std::size_t first, std::size_t last, Points* x_sum, Points* v_sum) {
  for_each_vertex_state(geometry, poses, first, last, x_sum != nullptr, v_sum != nullptr,
                        [&](std::size_t, Index, Index g, const Vec3* x, const Vec3* v) {
                          if (x != nullptr) x_sum->row(g) += x->transpose();
                          if (v != nullptr) v_sum->row(g) += v->transpose();
                        });
}

void route_domain_states(const ReducedGeometry& geometry, std::span<const DomainPose> poses,
                         std::size_t first, std::size_t last, std::span<const Index> first_row,
                         std::span<const Index> target, Points* x, Points* v, Points* x_rows,
                         Points* v_rows) {
  const bool positions = x != nullptr, velocities = v != nullptr;
  for_each_vertex_state(geometry, poses, first, last, positions, velocities,
                        [&](std::size_t d, Index l, Index g, const Vec3* xl, const Vec3* vl) {
                          const Index row = target[static_cast<std::size_t>(first_row[d] + l)];
                          if (row < 0) {
                            if (positions) x->row(g) = (Vec3::Zero() + *xl).transpose();
                            if (velocities) v->row(g) = (Vec3::Zero() + *vl).transpose();
                          } else {
                            if (positions) x_rows->row(row) = xl->transpose();
                            if (velocities) v_rows->row(row) = vl->transpose();
                          }
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
