// SPDX-License-Identifier: GPL-3.0-or-later
#include "hybrid_constraints.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "substruct/core/independent_rows.hpp"
#include "substruct/core/log.hpp"
#include "substruct/domains/boundary_node_selection.hpp"
#include "substruct/kinematics/modal_warping.hpp"

namespace substruct::spectral_hybrid {

namespace {

using Kind = ConstraintRow::Kind;

// Row block v of a region's Φ or Ψ (3 × r).
template <class Basis>
auto vertex_rows(const Basis& basis, Index local) {
  return basis.middleRows(3 * local, 3);
}

// Row `component` of vertex `local`'s block of Φ (or of Ψ for rotation rows).
Eigen::RowVectorXd basis_row(const RegionModel& m, bool rotation, Index local, int component) {
  if (rotation) return vertex_rows(m.Psi, local).row(component);
  return vertex_rows(m.Phi, local).row(component);
}

// Row i of J for `row` (Eq. 11, 15; the warped rows of Eq. 10 at rest, R̃ = I).
void fill_row(const std::vector<RegionModel>& models, const ConstraintRow& row, Eigen::MatrixXd& J,
              Index i) {
  auto out = J.row(i);
  out.setZero();
  const RegionModel& a = models[static_cast<std::size_t>(row.region_a)];
  const bool rotation = row.kind == Kind::rotation || row.kind == Kind::target_rotation;
  out.segment(a.offset, a.r()) = basis_row(a, rotation, row.local_a, row.component);
  if (row.region_b >= 0) {
    const RegionModel& b = models[static_cast<std::size_t>(row.region_b)];
    out.segment(b.offset, b.r()) = -basis_row(b, rotation, row.local_b, row.component);
  }
}

}  // namespace

Index HybridConstraints::boundary_rows() const {
  return static_cast<Index>(std::count_if(rows.begin(), rows.end(),
                                          [](const ConstraintRow& r) { return r.region_b >= 0; }));
}

HybridConstraints hybrid_constraints(const TetMesh& mesh, const HybridRegions& regions,
                                     const std::vector<RegionModel>& models,
                                     const SpectralHybridSettings& settings) {
  std::vector<ConstraintRow> candidates;
  HybridConstraints c;
  const bool warped = settings.constraint == BoundaryConstraint::warped_position;
  for (const RegionBoundary& b : regions.boundaries) {
    const RegionModel& d = models[static_cast<std::size_t>(b.deformable)];
    const RegionModel& r = models[static_cast<std::size_t>(b.rigid)];
    const std::vector<Index> nodes =
        select_boundary_nodes(mesh, b.vertices, settings.boundary_nodes);
    std::string list;
    for (Index v : nodes) {
      list += fmt::format("{}{}", list.empty() ? "" : " ", v);
      c.constrained_nodes.push_back(v);
      for (const Kind kind : warped ? std::vector<Kind>{Kind::warped_position}
                                    : std::vector<Kind>{Kind::displacement, Kind::rotation})
        for (int k = 0; k < 3; ++k)
          candidates.push_back(
              {kind, v, k, d.id, d.sub.local_vertex(v), r.id, r.sub.local_vertex(v)});
    }
    log::info("spectral-hybrid: {} – {}: {} boundary nodes, constrained: {}", d.name(), r.name(),
              b.vertices.size(), nodes.size() == b.vertices.size() ? "all" : list);
  }
  const bool position = settings.target_kind != TargetKind::orientation;
  const bool orientation = settings.target_kind != TargetKind::position;
  for (Index v : settings.target_vertices)
    for (const RegionModel& m : models) {
      const Index local = m.sub.local_vertex(v);
      if (local < 0) continue;
      for (int k = 0; k < 3 && position; ++k)
        candidates.push_back({Kind::target_position, v, k, m.id, local, -1, -1});
      for (int k = 0; k < 3 && orientation; ++k)
        candidates.push_back({Kind::target_rotation, v, k, m.id, local, -1, -1});
    }
  Index total = 0;
  for (const RegionModel& m : models) total += m.r();
  Eigen::MatrixXd J(static_cast<Index>(candidates.size()), total);
  for (std::size_t i = 0; i < candidates.size(); ++i)
    fill_row(models, candidates[i], J, static_cast<Index>(i));
  // Judge dependence by angle: every row normalised (a rotation row is a displacement row
  // divided by a length; fixed nodes give zero rows, which are never kept).
  Eigen::MatrixXd unit = J;
  for (Index i = 0; i < unit.rows(); ++i)
    if (const double n = unit.row(i).norm(); n > 0) unit.row(i) /= n;
  const std::vector<Eigen::Index> keep = independent_rows(unit, settings.dependent_tolerance);
  c.J.resize(static_cast<Index>(keep.size()), total);
  for (std::size_t i = 0; i < keep.size(); ++i) {
    c.J.row(static_cast<Index>(i)) = J.row(keep[i]);
    c.rows.push_back(candidates[static_cast<std::size_t>(keep[i])]);
  }
  c.dropped = static_cast<int>(candidates.size() - keep.size());
  if (c.dropped > 0)
    log::info(
        "spectral-hybrid: {} of {} constraint rows are linearly dependent on the others (fixed "
        "nodes, or more rows than the regions' modes can satisfy independently) and are dropped",
        c.dropped, candidates.size());
  return c;
}

void update_warped_rows(const std::vector<RegionModel>& models, const Eigen::VectorXd& q,
                        HybridConstraints& constraints) {
  for (std::size_t i = 0; i < constraints.rows.size(); ++i) {
    const ConstraintRow& row = constraints.rows[i];
    if (row.kind != Kind::warped_position) continue;
    auto out = constraints.J.row(static_cast<Index>(i));
    out.setZero();
    const auto side = [&](int region, Index local, double sign) {
      const RegionModel& m = models[static_cast<std::size_t>(region)];
      const Vec3 w = vertex_rows(m.Psi, local) * q.segment(m.offset, m.r());  // Eq. 5
      out.segment(m.offset, m.r()) =
          sign * (integrated_rotation(w).row(row.component) * vertex_rows(m.Phi, local));
    };
    side(row.region_a, row.local_a, 1.0);
    side(row.region_b, row.local_b, -1.0);
  }
}

}  // namespace substruct::spectral_hybrid
