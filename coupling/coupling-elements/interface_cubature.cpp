// SPDX-License-Identifier: GPL-3.0-or-later
#include "interface_cubature.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include <fmt/format.h>

#include <Eigen/Geometry>

#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/memory_budget.hpp"
#include "substruct/fem/element_kernels.hpp"
#include "substruct/reduction/cubature_fit.hpp"

namespace substruct::coupling_elements {

namespace {

// The domains an element joins, ascending: its layer.
std::vector<int> layer_of(const CouplingElement& c) {
  std::vector<int> d(c.domain.begin(), c.domain.end());
  std::sort(d.begin(), d.end());
  d.erase(std::unique(d.begin(), d.end()), d.end());
  return d;
}

// Offsets of each layer domain's unknowns in the layer's stacked force vector.
std::vector<Index> layer_offsets(const std::vector<int>& layer,
                                 const std::vector<FloatingDomain>& domains) {
  std::vector<Index> offset{0};
  for (int d : layer)
    offset.push_back(offset.back() + domains[static_cast<std::size_t>(d)].unknowns());
  return offset;
}

// Element c's generalised forces (Jᵀ f per domain of the layer, stacked), weight ignored.
Eigen::VectorXd generalised_force(const CouplingElement& c, const std::vector<int>& layer,
                                  const std::vector<Index>& offset,
                                  const std::vector<FloatingDomain>& domains,
                                  const std::vector<DomainMotion>& motion, MaterialModel material) {
  Vec12 x;
  for (int a = 0; a < 4; ++a) {
    const auto& d = domains[static_cast<std::size_t>(c.domain[static_cast<std::size_t>(a)])];
    x.segment<3>(3 * a) = vertex_position(d, motion[static_cast<std::size_t>(d.id)],
                                          c.local[static_cast<std::size_t>(a)]);
  }
  Vec12 f;
  element_forces(material, ElementInput{&x, &c.Dm_inv, c.volume, c.lambda, c.mu}, nullptr, &f,
                 nullptr);
  Eigen::VectorXd g = Eigen::VectorXd::Zero(offset.back());
  for (int a = 0; a < 4; ++a) {
    const int d = c.domain[static_cast<std::size_t>(a)];
    const auto slot =
        static_cast<std::size_t>(std::find(layer.begin(), layer.end(), d) - layer.begin());
    const auto& dom = domains[static_cast<std::size_t>(d)];
    if (dom.unknowns() == 0) continue;
    Eigen::MatrixXd J(3, dom.unknowns());
    vertex_jacobian(dom, motion[static_cast<std::size_t>(d)], c.local[static_cast<std::size_t>(a)],
                    J);
    g.segment(offset[slot], dom.unknowns()).noalias() += J.transpose() * f.segment<3>(3 * a);
  }
  return g;
}

// The forces of a layer's elements over the poses as the columns of A, each pose's blocks (F, f,
// τ of each domain) divided by the norm of that block of the layer's total (Eq. 11).
Eigen::MatrixXd training_matrix(const std::vector<const CouplingElement*>& members,
                                const std::vector<int>& layer,
                                const std::vector<FloatingDomain>& domains, MaterialModel material,
                                const std::vector<std::vector<DomainMotion>>& poses) {
  const std::vector<Index> offset = layer_offsets(layer, domains);
  const Index dims = offset.back();
  Eigen::MatrixXd A(dims * static_cast<Index>(poses.size()), static_cast<Index>(members.size()));
  for (std::size_t t = 0; t < poses.size(); ++t) {
    auto rows = A.middleRows(dims * static_cast<Index>(t), dims);
    for (std::size_t e = 0; e < members.size(); ++e)
      rows.col(static_cast<Index>(e)) =
          generalised_force(*members[e], layer, offset, domains, poses[t], material);
    const Eigen::VectorXd total = rows.rowwise().sum();
    for (std::size_t k = 0; k < layer.size(); ++k) {
      const auto& d = domains[static_cast<std::size_t>(layer[k])];
      // Blocks: F (r rows), then f (3) and τ (3) for a free domain.
      std::vector<std::pair<Index, Index>> blocks{{offset[k], d.r()}};
      if (!d.anchored) {
        blocks.emplace_back(offset[k] + d.r(), 3);
        blocks.emplace_back(offset[k] + d.r() + 3, 3);
      }
      for (const auto& [start, size] : blocks) {
        if (size == 0) continue;
        const double norm = total.segment(start, size).norm();
        if (norm > 0) rows.middleRows(start, size) /= norm;
      }
    }
  }
  return A;
}

// The weight of each row of the layer's stacked force vector for element c (its cubature
// weight, or its split weights on each domain's F, f and τ rows).
Eigen::VectorXd row_weights(const CouplingElement& c, const std::vector<int>& layer,
                            const std::vector<Index>& offset,
                            const std::vector<FloatingDomain>& domains) {
  Eigen::VectorXd w = Eigen::VectorXd::Constant(offset.back(), c.weight);
  if (!c.split) return w;
  for (std::size_t k = 0; k < layer.size(); ++k) {
    const auto& d = domains[static_cast<std::size_t>(layer[k])];
    double F = 0;
    for (int a = 0; a < 4; ++a)
      if (c.domain[static_cast<std::size_t>(a)] == d.id)
        F = c.split->F[static_cast<std::size_t>(a)];
    w.segment(offset[k], d.r()).setConstant(F);
    if (!d.anchored) {
      w.segment<3>(offset[k] + d.r()).setConstant(c.split->f);
      w.segment<3>(offset[k] + d.r() + 3).setConstant(c.split->tau);
    }
  }
  return w;
}

// ‖Σ_e w_e ⊙ A_e − Σ_e A_e‖ / ‖Σ_e A_e‖ over the poses (A's blocks of `dims` rows per pose).
double weighted_error(const Eigen::MatrixXd& A, const std::vector<Eigen::VectorXd>& weights,
                      Index dims) {
  const Eigen::VectorXd exact = A.rowwise().sum();
  Eigen::VectorXd approx = Eigen::VectorXd::Zero(A.rows());
  for (Index e = 0; e < A.cols(); ++e)
    for (Index t = 0; t < A.rows() / dims; ++t)
      approx.segment(t * dims, dims) +=
          weights[static_cast<std::size_t>(e)].cwiseProduct(A.col(e).segment(t * dims, dims));
  return exact.norm() > 0 ? (approx - exact).norm() / exact.norm() : 0.0;
}

// Split weights on the uniform fit's samples: a separate NNLS fit of each row group (each
// domain's F rows; all f rows; all τ rows) over the same samples.
void split_weights(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, Index dims,
                   const std::vector<int>& layer, const std::vector<Index>& offset,
                   const std::vector<FloatingDomain>& domains,
                   const std::vector<const CouplingElement*>& members,
                   std::vector<CouplingElement>& subset, const std::vector<Index>& columns) {
  const Index poses = A.rows() / dims;
  auto fit_rows = [&](const std::vector<Index>& local_rows) {
    std::vector<Index> rows;
    for (Index t = 0; t < poses; ++t)
      for (Index r : local_rows) rows.push_back(t * dims + r);
    Eigen::MatrixXd As(static_cast<Index>(rows.size()), static_cast<Index>(columns.size()));
    Eigen::VectorXd bs(static_cast<Index>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      bs[static_cast<Index>(i)] = b[rows[i]];
      for (std::size_t k = 0; k < columns.size(); ++k)
        As(static_cast<Index>(i), static_cast<Index>(k)) = A(rows[i], columns[k]);
    }
    Eigen::VectorXd w = Eigen::VectorXd::Zero(static_cast<Index>(columns.size()));
    const CubatureFit fit = greedy_cubature_fit(As, bs, static_cast<int>(columns.size()), 0.0);
    for (std::size_t k = 0; k < fit.samples.size(); ++k) w[fit.samples[k]] = fit.weights[k];
    return w;
  };
  for (CouplingElement& c : subset) c.split = CouplingElement::Split{};
  std::vector<Index> f_rows, tau_rows;
  for (std::size_t k = 0; k < layer.size(); ++k) {
    const auto& d = domains[static_cast<std::size_t>(layer[k])];
    std::vector<Index> F_rows;
    for (int i = 0; i < d.r(); ++i) F_rows.push_back(offset[k] + i);
    if (!d.anchored)
      for (int i = 0; i < 3; ++i) {
        f_rows.push_back(offset[k] + d.r() + i);
        tau_rows.push_back(offset[k] + d.r() + 3 + i);
      }
    if (F_rows.empty()) continue;
    const Eigen::VectorXd w = fit_rows(F_rows);
    for (std::size_t s = 0; s < subset.size(); ++s)
      for (int a = 0; a < 4; ++a)
        if (subset[s].domain[static_cast<std::size_t>(a)] == d.id)
          subset[s].split->F[static_cast<std::size_t>(a)] = w[static_cast<Index>(s)];
  }
  if (!f_rows.empty()) {
    const Eigen::VectorXd wf = fit_rows(f_rows), wt = fit_rows(tau_rows);
    for (std::size_t s = 0; s < subset.size(); ++s) {
      subset[s].split->f = wf[static_cast<Index>(s)];
      subset[s].split->tau = wt[static_cast<Index>(s)];
    }
  } else {
    for (CouplingElement& c : subset) c.split->f = c.split->tau = c.weight;
  }
  (void)members;
}

// About how much the training takes [bytes]: two sets of `count` poses (a DomainMotion per
// domain: q, q̇ and, per pose, a matrix and a centre) and the largest layer's training matrix A
// (count × the layer's unknowns rows, one column per element), with its column sums b.
double interface_training_memory(
    const std::map<std::vector<int>, std::vector<const CouplingElement*>>& layers,
    const std::vector<FloatingDomain>& domains, int count) {
  constexpr double kDouble = 8, kVector = 32;  // a double; a vector's own size and allocation
  double pose = 0;
  for (const FloatingDomain& d : domains)
    pose += sizeof(DomainMotion) + 2 * (kVector + d.r() * kDouble);
  double matrix = 0;
  for (const auto& [layer, members] : layers) {
    const double rows = double(count) * double(layer_offsets(layer, domains).back());
    matrix = std::max(matrix, rows * (double(members.size()) + 1) * kDouble);
  }
  return 2 * double(count) * pose + matrix;
}

}  // namespace

std::vector<std::vector<DomainMotion>> interface_training_poses(
    const std::vector<FloatingDomain>& domains, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<Eigen::VectorXd> stiffness;  // diag K₀ per domain
  for (const FloatingDomain& d : domains) {
    Eigen::VectorXd f;
    Eigen::MatrixXd K;
    if (d.r() > 0) d.model->forces->evaluate(Eigen::VectorXd::Zero(d.r()), nullptr, &f, &K);
    stiffness.push_back(d.r() > 0 ? Eigen::VectorXd(K.diagonal()) : Eigen::VectorXd());
  }
  std::vector<std::vector<DomainMotion>> poses(static_cast<std::size_t>(count));
  for (auto& pose : poses) {
    const double a = 0.1 * std::pow(10.0, uniform(rng));  // 0.01 … 1
    for (const FloatingDomain& d : domains) {
      DomainMotion m;
      m.c = d.rest_centre;
      m.q = Eigen::VectorXd::NullaryExpr(d.r(), [&] { return a * normal(rng); });
      if (d.r() > 0) m.q.array() /= stiffness[static_cast<std::size_t>(d.id)].array().sqrt();
      m.qdot = Eigen::VectorXd::Zero(d.r());
      if (!d.anchored) {
        const double size = (d.rest.colwise().maxCoeff() - d.rest.colwise().minCoeff()).norm();
        const Vec3 axis = Vec3(normal(rng), normal(rng), normal(rng)).normalized();
        m.R = Eigen::AngleAxisd(0.01 * a * normal(rng), axis).toRotationMatrix();
        m.c += 0.002 * a * size * Vec3(normal(rng), normal(rng), normal(rng));
      }
      pose.push_back(m);
    }
  }
  return poses;
}

std::vector<CouplingElement> fit_interface_cubature(const std::vector<CouplingElement>& elements,
                                                    const std::vector<FloatingDomain>& domains,
                                                    MaterialModel material,
                                                    const InterfaceCubatureSettings& settings,
                                                    InterfaceCubatureReport& report) {
  report = {};
  report.elements = static_cast<int>(elements.size());
  if (settings.max_samples <= 0) {
    report.samples = report.elements;
    return elements;
  }
  if (settings.training_poses < 1 || !(settings.tolerance >= 0))
    throw Error("coupling-elements: interface cubature needs training_poses ≥ 1 and tolerance ≥ 0");
  std::map<std::vector<int>, std::vector<const CouplingElement*>> layers;
  for (const CouplingElement& c : elements) layers[layer_of(c)].push_back(&c);
  reserve_memory(fmt::format("coupling-elements: the interface cubature's {} training poses",
                             settings.training_poses),
                 interface_training_memory(layers, domains, settings.training_poses),
                 fmt::format("lower [coupling-elements] interface_training_poses = {}",
                             settings.training_poses));
  const auto training = interface_training_poses(domains, settings.training_poses, settings.seed);
  const auto held_out =
      interface_training_poses(domains, settings.training_poses, settings.seed + 1);
  std::vector<CouplingElement> kept;
  for (const auto& [layer, members] : layers) {
    ++report.layers;
    const Eigen::MatrixXd A = training_matrix(members, layer, domains, material, training);
    const Eigen::VectorXd b = A.rowwise().sum();
    const CubatureFit fit = greedy_cubature_fit(A, b, settings.max_samples, settings.tolerance);
    std::vector<CouplingElement> subset;
    for (std::size_t k = 0; k < fit.samples.size(); ++k) {
      CouplingElement c = *members[static_cast<std::size_t>(fit.samples[k])];
      c.weight = fit.weights[k];
      subset.push_back(c);
    }
    const std::vector<Index> offset = layer_offsets(layer, domains);
    const Index dims = offset.back();
    if (settings.non_uniform)
      split_weights(A, b, dims, layer, offset, domains, members, subset, fit.samples);
    // The normalised error of the kept weights, on the training poses and on others.
    std::vector<Eigen::VectorXd> weights(members.size(), Eigen::VectorXd::Zero(dims));
    for (std::size_t k = 0; k < subset.size(); ++k)
      weights[static_cast<std::size_t>(fit.samples[k])] =
          row_weights(subset[k], layer, offset, domains);
    const double trained = weighted_error(A, weights, dims);
    const Eigen::MatrixXd H = training_matrix(members, layer, domains, material, held_out);
    const double tested = weighted_error(H, weights, dims);
    report.training_error = std::max(report.training_error, trained);
    report.held_out_error = std::max(report.held_out_error, tested);
    log::info(
        "coupling-elements: interface {}: {} of {} coupling elements, error {:.3g} "
        "(training) {:.3g} (held out)",
        fmt::join(layer, "–"), subset.size(), members.size(), fit.relative_error, tested);
    kept.insert(kept.end(), subset.begin(), subset.end());
  }
  report.samples = static_cast<int>(kept.size());
  return kept;
}

}  // namespace substruct::coupling_elements
